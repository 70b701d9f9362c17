import { describe, expect, it } from 'vitest';
import { absoluteLinks, htmlToMailText } from './mail-text.ts';

describe('the plain text of a message written as rich text', () => {
  it('keeps paragraphs, line breaks, lists, links, quotes and code readable', () => {
    const html = [
      '<p>Hello <strong>Nina</strong>,</p>',
      '<p>Restart it:<br>hold the button &amp; wait.</p>',
      '<ul><li><p>Unplug it</p></li><li><p>Plug it in</p></li></ul>',
      '<p>See <a href="https://example.com/help?a=1&amp;b=2">the guide</a> or <a href="https://example.com">https://example.com</a>.</p>',
      '<blockquote><p>It does not turn on.</p></blockquote>',
      '<pre><code>lumo reset --hard</code></pre>',
    ].join('');
    expect(htmlToMailText(html)).toBe(
      [
        'Hello Nina,',
        '',
        'Restart it:',
        'hold the button & wait.',
        '',
        '- Unplug it',
        '',
        '- Plug it in',
        '',
        'See the guide (https://example.com/help?a=1&b=2) or https://example.com.',
        '',
        '> It does not turn on.',
        '',
        'lumo reset --hard',
      ].join('\n'),
    );
  });

  it('marks every line of a quote, however many paragraphs it has', () => {
    expect(
      htmlToMailText('<blockquote><p>First &amp; foremost.</p><p>Second.</p></blockquote><p>After.</p>'),
    ).toBe(['> First & foremost.', '>', '> Second.', '', 'After.'].join('\n'));
  });

  it('makes links and images from the site root whole for a mail, and leaves others', () => {
    expect(
      absoluteLinks(
        '<a href="/knowledge/instruction/5">Guide</a> <img src="/files/3/a.png"> <a href="https://x.org/">x</a> <a href="//cdn.example">c</a>',
        'https://help.example.com',
      ),
    ).toBe(
      '<a href="https://help.example.com/knowledge/instruction/5">Guide</a> <img src="https://help.example.com/files/3/a.png"> <a href="https://x.org/">x</a> <a href="//cdn.example">c</a>',
    );
  });

  it('is empty for markup with no text', () => {
    expect(htmlToMailText('<p></p><p><br></p>')).toBe('');
  });
});
