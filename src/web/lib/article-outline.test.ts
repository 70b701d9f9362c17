import { describe, expect, it } from 'vitest';
import { outlineArticle, readingMinutes, slugOf } from './article-outline.ts';
import { boxTables } from './box-tables.ts';

describe('the article outline', () => {
  it('gives each h2 and h3 a prefixed id from its words, once each, and lists them in order', () => {
    const { html, headings } = outlineArticle(
      '<p>Intro</p><h2>Before you start</h2><p>a</p><h3>What you <strong>need</strong></h3>' +
        '<h2>Before you start</h2><h4>Not listed</h4><h2 id="user-content-mine">Kept</h2><h2> </h2>',
    );
    expect(headings).toEqual([
      { id: 'user-content-before-you-start', level: 2, text: 'Before you start' },
      { id: 'user-content-what-you-need', level: 3, text: 'What you need' },
      { id: 'user-content-before-you-start-2', level: 2, text: 'Before you start' },
      { id: 'user-content-mine', level: 2, text: 'Kept' },
    ]);
    expect(html).toContain('<h2 id="user-content-before-you-start">Before you start</h2>');
    expect(html).toContain('<h3 id="user-content-what-you-need">What you <strong>need</strong></h3>');
    expect(html).toContain('<h2 id="user-content-mine">Kept</h2>');
    expect(html).toContain('<h4>Not listed</h4>');
  });

  it('never gives a heading one of the page’s own ids, and reaches the links an author wrote', () => {
    // "Content" would have been the page's <main id="content">; the sanitiser stores `#install` as below.
    const { html } = outlineArticle(
      '<p><a href="#user-content-install">see</a></p><h2>Install</h2><h2>Content</h2>',
    );
    expect(html).toContain('<h2 id="user-content-install">Install</h2>');
    expect(html).toContain('<h2 id="user-content-content">Content</h2>');
  });

  it('ends each heading with a named link to itself when asked, unless the heading is inside a link', () => {
    const { html } = outlineArticle('<h2>Steps &amp; "tips"</h2>', (title) => `Copy link to ${title}`);
    expect(html).toBe(
      '<h2 id="user-content-steps-tips">Steps &amp; "tips"<a class="heading-anchor" href="#user-content-steps-tips" aria-label="Copy link to Steps &amp; &quot;tips&quot;">#</a></h2>',
    );
    const linked = outlineArticle('<a href="/x"><h2>Linked</h2></a><h2>Free</h2>', (title) => title).html;
    expect(linked).toContain('<h2 id="user-content-linked">Linked</h2></a>');
    expect(linked).toContain('<h2 id="user-content-free">Free<a class="heading-anchor"');
  });

  it('keeps every script in slugs, never reuses an id the body has, and survives odd entities', () => {
    expect(slugOf('Подключение к Wi-Fi')).toBe('подключение-к-wi-fi');
    expect(slugOf('Configuração & preços!')).toBe('configuração-preços');
    expect(slugOf('?!')).toBe('section');
    const { headings } = outlineArticle('<p id="user-content-faq">x</p><h2>FAQ</h2><h2>A &#99999999; B</h2>');
    expect(headings.map((h) => h.id)).toEqual(['user-content-faq-2', 'user-content-a-b']);
  });

  it('counts words for the reading time', () => {
    expect(outlineArticle('<p>One two&nbsp;three</p><table><tr><td>four</td></tr></table>').words).toBe(4);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(1000)).toBe(5);
  });
});

describe('tables in boxes', () => {
  const box = '<div class="table-scroll" tabindex="0">';

  it('boxes each table so it scrolls on a narrow screen', () => {
    expect(boxTables('<p>a</p><table><tr><td>1</td></tr></table><table class="x"></table>')).toBe(
      `<p>a</p>${box}<table><tr><td>1</td></tr></table></div>${box}<table class="x"></table></div>`,
    );
  });

  it('boxes a table holding a table once, around the outer one', () => {
    const nested = '<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table><p>after</p>';
    expect(boxTables(nested)).toBe(`${box}${nested.replace('<p>after</p>', '')}</div><p>after</p>`);
  });

  it('leaves alone what only looks like a table, and closes a box the body left open', () => {
    expect(boxTables('<p>tables and <tablet></p>')).toBe('<p>tables and <tablet></p>');
    expect(boxTables('<table><tr><td>x')).toBe(
      '<div class="table-scroll" tabindex="0"><table><tr><td>x</div>',
    );
  });
});
