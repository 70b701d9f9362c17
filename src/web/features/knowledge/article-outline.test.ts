import { describe, expect, it } from 'vitest';
import { boxTables, outlineArticle, readingMinutes, slugOf } from './article-outline.ts';

describe('the article outline', () => {
  it('gives each h2 and h3 an id from its words, once each, and lists them in order', () => {
    const { html, headings } = outlineArticle(
      '<p>Intro</p><h2>Before you start</h2><p>a</p><h3>What you <strong>need</strong></h3>' +
        '<h2>Before you start</h2><h4>Not listed</h4><h2 id="mine">Kept</h2><h2> </h2>',
    );
    expect(headings).toEqual([
      { id: 'before-you-start', level: 2, text: 'Before you start' },
      { id: 'what-you-need', level: 3, text: 'What you need' },
      { id: 'before-you-start-2', level: 2, text: 'Before you start' },
      { id: 'mine', level: 2, text: 'Kept' },
    ]);
    expect(html).toContain('<h2 id="before-you-start">Before you start</h2>');
    expect(html).toContain('<h3 id="what-you-need">What you <strong>need</strong></h3>');
    expect(html).toContain('<h2 id="mine">Kept</h2>');
    expect(html).toContain('<h4>Not listed</h4>');
  });

  it('ends each heading with a named link to itself when asked', () => {
    const { html } = outlineArticle('<h2>Steps &amp; "tips"</h2>', (title) => `Copy link to ${title}`);
    expect(html).toBe(
      '<h2 id="steps-tips">Steps &amp; "tips"<a class="heading-anchor" href="#steps-tips" aria-label="Copy link to Steps &amp; &quot;tips&quot;">#</a></h2>',
    );
  });

  it('keeps every script in ids, and never reuses an id the body already has', () => {
    expect(slugOf('Подключение к Wi-Fi')).toBe('подключение-к-wi-fi');
    expect(slugOf('Configuração & preços!')).toBe('configuração-preços');
    expect(slugOf('?!')).toBe('section');
    const { headings } = outlineArticle('<p id="faq">x</p><h2>FAQ</h2>');
    expect(headings[0]?.id).toBe('faq-2');
  });

  it('boxes tables so they scroll on a narrow screen, and counts words for the reading time', () => {
    const body = '<p>One two&nbsp;three</p><table><tr><td>four</td></tr></table>';
    const { words } = outlineArticle(body);
    expect(boxTables(body)).toBe(
      '<p>One two&nbsp;three</p><div class="table-scroll" tabindex="0"><table><tr><td>four</td></tr></table></div>',
    );
    expect(words).toBe(4);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(1000)).toBe(5);
  });
});
