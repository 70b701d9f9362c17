import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dayOf } from '../../privacy/daily-key.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { learningKey } from '../../search/learning.ts';
import { adminAndUserTokens } from '../../testing/admin-content.ts';
import { suggestionIds } from '../../testing/api-expect.ts';
import { buildArticle, buildSection } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * When the servers read the votes again. Votes written straight into the table tell no server (as votes between two
 * of TELL_AT do not): whether a search follows them shows whether the votes were read again.
 */
describe.each(testDialects())('what was learned, read again on %s', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let plain: number;
  let guide: number;
  let other: number;
  let voters = 0;

  const suggest = (text: string) => suggestionIds(t.app, text);
  /** Votes for `id` under `query`, today, stored as visitors leave them, with no server told. */
  const untoldVotes = (query: string, id: number, count: number) =>
    t.ctx.db
      .insertInto('search_votes')
      .values(
        Array.from({ length: count }, () => ({
          query_key: learningKey(query, 'en'),
          day: dayOf(Date.now()),
          voter: `untold-${++voters}`,
          article_id: id,
        })),
      )
      .execute();
  const open = (query: string, id: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/search/events',
      payload: { type: 'open', query, id },
      remoteAddress: `10.9.0.${++voters % 250}`,
    });
  const reset = async (query?: string) => {
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/search-learning${query === undefined ? '' : `?query=${encodeURIComponent(learningKey(query, 'en'))}`}`,
      headers: { 'x-auth-token': adminToken },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  /** An edit of the content that shows in search (a title), as the admin calls make it. */
  const retitle = async (title: string) => {
    await t.ctx.db
      .updateTable('articles')
      .set({ title, updated_at: Date.now() })
      .where('id', '=', other)
      .execute();
    await touchContent(t.ctx.db);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    ({ adminToken } = await adminAndUserTokens(t));
    const section = await buildSection(db);
    plain = (
      await buildArticle(db, { section_id: section.id, title: 'Printer setup', body_html: '<p>Cable.</p>' })
    ).id;
    guide = (
      await buildArticle(db, {
        section_id: section.id,
        title: 'Printer setup guide for offices',
        body_html: '<p>Cable, paper and drivers for every desk in the office.</p>',
      })
    ).id;
    other = (await buildArticle(db, { section_id: section.id, title: 'Pair the widget' })).id;
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.ctx.db.deleteFrom('search_votes').execute();
    await touchContent(t.ctx.db, ['search', 'learned']);
    // Read again today, and nothing learned.
    expect((await suggest('printer setup'))[0]).toBe(plain);
  });
  afterAll(async () => t?.close());

  it('reads no vote again after an edit of the content or the synonyms, and all of them when the day turns', async () => {
    expect((await suggest('printer setup'))[0]).toBe(plain);
    await untoldVotes('printer setup', guide, 10);
    await retitle('Pair the gadget');
    // The edit is searched, the votes are not read.
    expect(await suggest('gadget')).toEqual([other]);
    expect((await suggest('printer setup'))[0]).toBe(plain);
    await touchContent(t.ctx.db, ['search']);
    expect((await suggest('printer setup'))[0]).toBe(plain);
    // Tomorrow, every vote weighs less: all are read again (asked in other words: the answer to the same words is
    // kept while the revision stands).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + DAY);
    expect((await suggest('printers setup'))[0]).toBe(guide);
  });

  it("reads one query's votes again when they reach a count to tell, and no other query's", async () => {
    await untoldVotes('printer', guide, 10);
    expect((await suggest('printer'))[0]).toBe(plain);
    // Three visitors make a pattern (TELL_AT): that query is read again.
    for (let i = 0; i < 3; i++) expect((await open('printer setup', guide)).statusCode).toBe(200);
    expect((await suggest('printer setup'))[0]).toBe(guide);
    expect((await suggest('printer'))[0]).toBe(plain);
    // Reset, that query only: it is forgotten, the other still not read.
    await reset('printer setup');
    expect((await suggest('printer setup'))[0]).toBe(plain);
    expect((await suggest('printer'))[0]).toBe(plain);
  });

  it('reads all votes again when the change log cannot say what changed', async () => {
    expect((await suggest('printer setup'))[0]).toBe(plain);
    await untoldVotes('printer setup', guide, 10);
    // An edit the log lost (as when a server is further behind than the log keeps).
    await retitle('Pair the doohickey');
    await t.ctx.db.deleteFrom('content_changes').execute();
    expect(await suggest('doohickey')).toEqual([other]);
    expect((await suggest('printer setup'))[0]).toBe(guide);
  });

  it('forgets everything on a reset of all, and reads what comes after it', async () => {
    for (let i = 0; i < 3; i++) await open('printer setup', guide);
    expect((await suggest('printer setup'))[0]).toBe(guide);
    await untoldVotes('printer', guide, 10);
    await reset();
    expect((await suggest('printer setup'))[0]).toBe(plain);
    expect((await suggest('printer'))[0]).toBe(plain);
    expect(await t.ctx.db.selectFrom('search_votes').selectAll().execute()).toEqual([]);
    for (let i = 0; i < 3; i++) await open('setup of printers', guide);
    expect((await suggest('printer setup'))[0]).toBe(guide);
  });
});
