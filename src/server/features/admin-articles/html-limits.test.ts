import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTML_BYTES, type AdminArticle } from '../../../shared/api/admin.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { HTML_CLEANED_CHANNEL, type HtmlCleaned } from '../../html/clean-html.ts';
import { adminAndUserTokens, caller, ok, type Call } from '../../testing/admin-content.ts';

const VOID = new Set([
  'br',
  'hr',
  'img',
  'col',
  'source',
  'wbr',
  'input',
  'meta',
  'link',
  'area',
  'base',
  'embed',
]);

/** How deep elements nest in well-formed HTML (what the sanitiser answers). */
function maxDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const [, closing, name] of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    if (VOID.has(name!.toLowerCase())) continue;
    depth += closing ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

describe.each(testDialects())('limits on stored HTML on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let sectionId: number;
  let article: AdminArticle;

  const count = async () => (await t.ctx.db.selectFrom('articles').select('id').execute()).length;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    as = caller(t, (await adminAndUserTokens(t)).adminToken);
    sectionId = (await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'Limits' }), 201)).id;
    article = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', { section_id: sectionId, title: 'Target' }),
      201,
    );
  });
  afterAll(async () => t?.close());

  it('stores a body of almost 1 MiB', async () => {
    const html = `<p class="x" title="quoted">${'a'.repeat(MAX_HTML_BYTES - 100)}</p>`;
    const saved = await ok<AdminArticle>(
      as('PATCH', `/api/admin/articles/${article.id}`, { body_html: html }),
    );
    expect(saved.body_html.length).toBeGreaterThan(MAX_HTML_BYTES - 100);
  });

  it('refuses a body over 1 MiB of UTF-8, naming body_html, and stores nothing', async () => {
    const before = await count();
    // Under the character limit, over the byte limit.
    const accented = `<p>${'é'.repeat(MAX_HTML_BYTES / 2 + 10)}</p>`;
    const bytes = expectApiError(
      await as('POST', '/api/admin/articles', {
        section_id: sectionId,
        title: 'Too big',
        body_html: accented,
      }),
      413,
      ['body_html'],
    );
    expect(bytes.code).toBe('body_too_large');
    expectApiError(
      await as('POST', '/api/admin/articles', {
        section_id: sectionId,
        title: 'Too long',
        body_html: 'a'.repeat(MAX_HTML_BYTES + 1),
      }),
      400,
      ['body_html'],
    );
    const twoMiB = expectApiError(
      await as('POST', '/api/admin/articles', {
        section_id: sectionId,
        title: 'Huge',
        body_html: 'a'.repeat(2 * MAX_HTML_BYTES),
      }),
      413,
      ['body_html'],
    );
    expect(twoMiB.code).toBe('body_too_large');
    expectApiError(
      await as('PATCH', `/api/admin/categories/999999`, { description: 'a'.repeat(2 * MAX_HTML_BYTES) }),
      413,
      ['description'],
    );
    expect(await count()).toBe(before);
  });

  it('cleans 100,000 nested elements and malformed HTML to a limited depth', async () => {
    const deep = `${'<div>'.repeat(100_000)}deep text`;
    const malformed = `${'<p><b><i><table><tr><td><a href="x'.repeat(8_000)}<div class=">${'</span>'.repeat(10_000)}`;
    for (const body_html of [deep, malformed]) {
      const saved = await ok<AdminArticle>(as('PATCH', `/api/admin/articles/${article.id}`, { body_html }));
      expect(maxDepth(saved.body_html)).toBeLessThanOrEqual(256);
      const stored = await t.ctx.db
        .selectFrom('articles')
        .select('body_html')
        .where('id', '=', article.id)
        .executeTakeFirstOrThrow();
      expect(stored.body_html).toBe(saved.body_html);
    }
  });

  it('cleans a 1 MiB and a 100,000-level body on worker threads, and a small one where it is saved', async () => {
    // Markup-dense: the sanitiser needs most of a second for it, which would freeze the server on the main thread.
    const tag = '<p><b>x</b> <a href="https://example.com/">y</a></p>';
    const dense = tag.repeat(Math.floor((MAX_HTML_BYTES - 100) / tag.length));
    const deep = `${'<div>'.repeat(100_000)}deep text`;
    // Over the size cleaned in place, and quick to clean: never refused for time.
    const plain = `<p>${'plain words '.repeat(10_000)}</p>`;
    const small = '<p>Hold the <b>reset</b> button.</p>';
    const other = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', { section_id: sectionId, title: 'Other' }),
      201,
    );
    // Where each fragment was cleaned, as the cleaner reports it (the thread the sanitiser ran on).
    const cleaned: HtmlCleaned[] = [];
    const onCleaned = (event: unknown) => cleaned.push(event as HtmlCleaned);
    subscribe(HTML_CLEANED_CHANNEL, onCleaned);
    try {
      const saves = await Promise.all([
        as('PATCH', `/api/admin/articles/${article.id}`, { body_html: dense }),
        as('PATCH', `/api/admin/articles/${other.id}`, { body_html: deep }),
      ]);
      for (const response of saves) {
        // Cleaned, or refused as too complex when the machine is too slow to clean it within CLEAN_TIMEOUT_MS.
        if (response.statusCode !== 200)
          expect(expectApiError(response, 400, ['body_html']).code).toBe('html_too_complex');
      }
      await ok(as('PATCH', `/api/admin/articles/${other.id}`, { body_html: plain }));
      await ok(as('PATCH', `/api/admin/articles/${other.id}`, { body_html: small }));
    } finally {
      unsubscribe(HTML_CLEANED_CHANNEL, onCleaned);
    }
    const ranOn = (html: string) =>
      cleaned
        .filter((event) => event.field === 'body_html' && event.chars === html.length)
        .map((e) => e.threadId);
    // Each large fragment on a worker, never on this thread (which is the server's: the requests are injected). One
    // refused for time is reported nowhere.
    for (const html of [dense, deep]) expect(ranOn(html).length).toBeLessThanOrEqual(1);
    expect(ranOn(plain)).toHaveLength(1);
    for (const id of [...ranOn(dense), ...ranOn(deep), ...ranOn(plain)]) {
      expect(id).toBeGreaterThan(0);
      expect(id).not.toBe(threadId);
    }
    // A small fragment is cleaned where it is saved: the report does tell the threads apart.
    expect(ranOn(small)).toEqual([threadId]);
  });
});
