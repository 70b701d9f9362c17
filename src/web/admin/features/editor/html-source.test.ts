import { describe, expect, it } from 'vitest';
import { formatHtml, lostTags } from './html-source.ts';

describe('the HTML source view', () => {
  it('puts block tags on their own lines without touching text or code', () => {
    const html =
      '<h2>Set up</h2><p>First <strong>this</strong>.</p><ul><li><p>One</p></li></ul><pre><code>a &lt;/p&gt;&lt;p&gt; b</code></pre><div class="callout callout-tip"><p>Tip</p></div>';
    expect(formatHtml(html)).toBe(
      [
        '<h2>Set up</h2>',
        '<p>First <strong>this</strong>.</p>',
        '<ul>',
        '<li>',
        '<p>One</p>',
        '</li>',
        '</ul>',
        '<pre><code>a &lt;/p&gt;&lt;p&gt; b</code></pre>',
        '<div class="callout callout-tip">',
        '<p>Tip</p>',
        '</div>',
      ].join('\n'),
    );
  });

  it('names the markup the rich editor would drop, not what it merely writes differently', () => {
    const original =
      '<p><b>x</b></p><details><summary>More</summary><p>y</p></details><table><thead><tr><th>a</th></tr></thead></table>';
    const kept =
      '<p><strong>x</strong></p><p>More</p><p>y</p><table><tbody><tr><th><p>a</p></th></tr></tbody></table>';
    expect(lostTags(original, kept)).toEqual(['details', 'summary']);
    expect(lostTags('<p>same</p>', '<p>same</p>')).toEqual([]);
  });
});
