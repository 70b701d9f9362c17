import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTML_BYTES, type AdminArticle } from '../../../shared/api/admin.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { adminAndUserTokens, caller, ok, type Call } from './authoring-test-support.ts';

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

  it('cleans 100,000 nested elements and malformed HTML to a limited depth while other requests are answered', async () => {
    const deep = `${'<div>'.repeat(100_000)}deep text`;
    const malformed = `${'<p><b><i><table><tr><td><a href="x'.repeat(8_000)}<div class=">${'</span>'.repeat(10_000)}`;
    for (const body_html of [deep, malformed]) {
      const saving = as('PATCH', `/api/admin/articles/${article.id}`, { body_html });
      const branding = await t.app.inject('/api/settings/branding');
      expect(branding.statusCode).toBe(200);
      const saved = await ok<AdminArticle>(saving);
      expect(maxDepth(saved.body_html)).toBeLessThanOrEqual(256);
      const stored = await t.ctx.db
        .selectFrom('articles')
        .select('body_html')
        .where('id', '=', article.id)
        .executeTakeFirstOrThrow();
      expect(stored.body_html).toBe(saved.body_html);
    }
  });
});
