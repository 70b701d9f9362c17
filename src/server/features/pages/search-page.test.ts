import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { seedDemo } from '../content-folder/demo.service.ts';

const resultIds = (body: string) => [...body.matchAll(/<li id="result-(\d+)"/g)].map((m) => Number(m[1]));
const articleLinks = (body: string) =>
  [
    ...body.matchAll(/<li id="result-\d+" class="article-item"><a href="\/knowledge\/instruction\/(\d+)"/g),
  ].map((m) => Number(m[1]));

describe.each(testDialects())('the search results page on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedDemo(t.ctx);
  });
  afterAll(async () => t?.close());

  const suggestions = async (text: string) =>
    (
      await t.app.inject({
        url: '/api/search/knowledge/suggestions',
        query: { text, limit: '50', perPage: '50' },
      })
    ).json().items as { id: number; snippet: string }[];

  it('counts the results, shows the first ten with their snippets and links the next ten', async () => {
    const all = await suggestions('schedule');
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThan(50);
    const page = await t.app.inject('/knowledge/search?query=schedule');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>${all.length} results for “schedule”</h1>`);
    expect(resultIds(page.body)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page.body).toContain(`Showing 10 of ${all.length}`);
    expect(page.body).toContain('href="/knowledge/search?query=schedule&amp;page=2#result-11"');
    expect(page.body).toMatch(/<p class="snippet">[^<]*<mark>[Ss]chedul/);
    expect(page.body).toContain('<meta name="robots" content="noindex">');

    const second = await t.app.inject('/knowledge/search?query=schedule&page=2');
    expect(resultIds(second.body)).toHaveLength(20);
    expect(articleLinks(second.body).slice(0, 10)).toEqual(articleLinks(page.body));
    expect(second.body).toContain('href="/knowledge/search?query=schedule&amp;page=3#result-21"');
    // Every result of the call is on the page once.
    const last = await t.app.inject('/knowledge/search?query=schedule&page=99');
    expect(articleLinks(last.body).sort((a, b) => a - b)).toEqual(all.map((r) => r.id).sort((a, b) => a - b));
    expect(last.body).not.toContain('Show more');
  });

  it('reads any other page parameter as the nearest page there is, and keeps pages apart in its cache', async () => {
    const first = await t.app.inject('/knowledge/search?query=schedule');
    const lastPage = await t.app.inject(
      `/knowledge/search?query=schedule&page=${Math.ceil((await suggestions('schedule')).length / 10)}`,
    );
    for (const param of ['abc', '0', '-1', '1.5', '%00', '']) {
      const page = await t.app.inject(`/knowledge/search?query=schedule&page=${param}`);
      expect(page.statusCode, param).toBe(200);
      expect(resultIds(page.body), param).toEqual(resultIds(first.body));
    }
    for (const param of ['99', '9'.repeat(500)]) {
      const page = await t.app.inject(`/knowledge/search?page=${param}&query=schedule&utm_source=x`);
      expect(page.statusCode).toBe(200);
      expect(resultIds(page.body)).toEqual(resultIds(lastPage.body));
    }
  });

  it('says when the call answered its most, and renders snippets as text', async () => {
    expect(await suggestions('lumo')).toHaveLength(50);
    const page = await t.app.inject('/knowledge/search?query=lumo');
    expect(page.body).toContain('<h1>Top 50 results for “lumo”</h1>');
    expect(page.body).toContain('Only the best matches are listed.');
    // Escaped by the server, decoded by the page, escaped again by React: the same characters, never markup.
    const snippets = [...page.body.matchAll(/<p class="snippet">(.*?)<\/p>/g)].map((m) => m[1] ?? '');
    expect(snippets.length).toBe(10);
    for (const snippet of snippets) expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('keeps the no-results texts of the specification', async () => {
    const page = await t.app.inject('/knowledge/search?query=zzqxv&page=3');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>No results found</h1>');
    expect(page.body).not.toContain('Show more');
  });
});
