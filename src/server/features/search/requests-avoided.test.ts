import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchReport } from '../../../shared/api/search.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { isoWeekName, recordSearchEvent, weekOf } from './search-analytics.ts';

const WEEK_MS = 7 * 86_400_000;

describe('ISO weeks', () => {
  it('starts a week on its Monday (UTC) and names it by the year of its Thursday', () => {
    expect(weekOf(Date.parse('2025-01-15T12:00:00Z'))).toBe('2025-01-13');
    expect(weekOf(Date.parse('2025-01-13T00:00:00Z'))).toBe('2025-01-13');
    expect(weekOf(Date.parse('2025-01-19T23:59:59Z'))).toBe('2025-01-13');
    expect(weekOf(Date.parse('2021-01-01T08:00:00Z'))).toBe('2020-12-28');
    expect(isoWeekName('2025-01-13')).toBe('2025-W03');
    expect(isoWeekName('2020-12-28')).toBe('2020-W53');
    expect(isoWeekName('2024-12-30')).toBe('2025-W01');
    expect(isoWeekName('2026-12-28')).toBe('2026-W53');
  });
});

describe.each(testDialects())('requests avoided by suggested articles on %s', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let agentToken: string;
  let help: number;
  let other: number;
  let draft: number;
  let sectionId: number;

  const signIn = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: DEFAULT_PASSWORD },
      })
    ).json().token as string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await buildUser(t.ctx.db, { email: 'admin@example.com', name: 'Admin', role: 'admin' });
    await buildUser(t.ctx.db, { email: 'agent@example.com', name: 'Agent', role: 'agent' });
    adminToken = await signIn('admin@example.com');
    agentToken = await signIn('agent@example.com');
    const first = await buildArticle(t.ctx.db, { title: 'Reset your router' });
    help = first.id;
    sectionId = first.section_id;
    other = (await buildArticle(t.ctx.db, { title: 'Change the Wi-Fi name', section_id: sectionId })).id;
    draft = (await buildArticle(t.ctx.db, { title: 'Unfinished', section_id: sectionId, published: 0 })).id;
  });
  afterAll(async () => t?.close());

  const event = (payload: object) => t.app.inject({ method: 'POST', url: '/api/search/events', payload });
  const stored = () =>
    t.ctx.db
      .selectFrom('requests_avoided')
      .selectAll()
      .orderBy('week')
      .orderBy('article_id')
      .execute()
      .then((rows) => rows.map((r) => [r.article_id, r.week, Number(r.opened), Number(r.sent)]));
  const report = async (query = '') => {
    const response = await t.app.inject({
      url: `/api/admin/search-report${query}`,
      headers: { 'x-auth-token': adminToken },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SearchReport;
  };

  it('refuses malformed events, naming the field, and stores nothing for them', async () => {
    const refused: [object, string][] = [
      [{ type: 'suggestion_open' }, 'id'],
      [{ type: 'suggestion_open', id: 0 }, 'id'],
      [{ type: 'suggestion_open', id: 'abc' }, 'id'],
      [{ type: 'suggestion_open', id: 2 ** 31 }, 'id'],
      [{ type: 'request_sent' }, 'opened'],
      [{ type: 'request_sent', opened: [] }, 'opened'],
      [{ type: 'request_sent', opened: [help, help] }, 'opened'],
      [{ type: 'request_sent', opened: [0] }, 'opened.0'],
      [{ type: 'request_sent', opened: Array.from({ length: 21 }, (_, i) => i + 1) }, 'opened'],
      [{ type: 'request_sent', opened: ['x'] }, 'opened.0'],
      [{ type: 'request_sent', opened: [2 ** 31] }, 'opened.0'],
    ];
    for (const [payload, field] of refused) {
      const error = expectApiError(await event(payload), 400);
      expect(
        error.data.errors.map((e) => e.field),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect(await stored()).toEqual([]);
  });

  it('counts nothing for an article that is not published or does not exist', async () => {
    expect((await event({ type: 'suggestion_open', id: draft })).statusCode).toBe(200);
    expect((await event({ type: 'suggestion_open', id: 999_999 })).statusCode).toBe(200);
    expect((await event({ type: 'request_sent', opened: [999_999, draft] })).statusCode).toBe(200);
    expect(await stored()).toEqual([]);
  });

  it('counts opened suggestions and requests sent after them per article and week; avoided is the difference', async () => {
    const week = weekOf(Date.now());
    // Three visitors open the router article; one of them also opens the Wi-Fi one and still sends a request.
    for (let i = 0; i < 3; i++)
      expect((await event({ type: 'suggestion_open', id: help })).statusCode).toBe(200);
    await event({ type: 'suggestion_open', id: other });
    const sent = await event({ type: 'request_sent', opened: [help, other] });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ ok: true });
    // Last week, counted by the service with that week's time; and one far outside the report's weeks.
    await recordSearchEvent(t.ctx.db, { type: 'suggestion_open', id: help }, Date.now() - WEEK_MS);
    await recordSearchEvent(t.ctx.db, { type: 'suggestion_open', id: other }, Date.now() - 30 * WEEK_MS);
    const lastWeek = weekOf(Date.now() - WEEK_MS);

    expect(await stored()).toEqual([
      [other, weekOf(Date.now() - 30 * WEEK_MS), 1, 0],
      [help, lastWeek, 1, 0],
      [help, week, 3, 1],
      [other, week, 1, 1],
    ]);

    const { avoided, weeks } = await report();
    expect(weeks).toBe(12);
    expect(avoided).toEqual([
      {
        article_id: help,
        title: 'Reset your router',
        published: true,
        week: isoWeekName(week),
        week_start: week,
        opened: 3,
        sent: 1,
        avoided: 2,
      },
      expect.objectContaining({ article_id: other, week_start: week, opened: 1, sent: 1, avoided: 0 }),
      expect.objectContaining({ article_id: help, week_start: lastWeek, opened: 1, sent: 0, avoided: 1 }),
    ]);
    expect((await report('?weeks=1')).avoided.map((row) => row.week_start)).toEqual([week, week]);
    expect((await report('?weeks=52')).avoided).toHaveLength(4);
  });

  it('keeps counts atomic when many events for one article arrive at once', async () => {
    const before = (await report()).avoided.find((row) => row.article_id === other && row.opened)!;
    await Promise.all(Array.from({ length: 20 }, () => event({ type: 'suggestion_open', id: other })));
    const after = (await report()).avoided.find(
      (row) => row.article_id === other && row.week_start === before.week_start,
    )!;
    expect(after.opened).toBe(before.opened + 20);
  });

  it('reports the queries whose results nobody opened and the articles readers found unhelpful', async () => {
    expect((await report()).unhelpful).toEqual([]);
    expect((await report()).rated_articles).toBe(0);
    await event({ type: 'search', query: 'router lights', found: 2 });
    await event({ type: 'search', query: 'router lights', found: 2 });
    await event({ type: 'search', query: 'wifi name', found: 1 });
    await event({ type: 'open', query: 'wifi name', id: other });
    await event({ type: 'search', query: 'teleport', found: 0 });
    const now = Date.now();
    const answer = (article_id: number, key: string, helpful: 0 | 1) => ({
      article_id,
      visitor_key: key,
      helpful,
      reason: null,
      comment: null,
      created_at: now,
      updated_at: now,
    });
    await t.ctx.db
      .insertInto('article_feedback')
      .values([
        answer(help, 'a', 0),
        answer(help, 'b', 0),
        answer(help, 'c', 1),
        answer(other, 'd', 1),
        answer(other, 'e', 0),
      ])
      .execute();

    const result = await report('?limit=5');
    expect(result.unopened.map((row) => [row.query, row.searches, row.opened])).toEqual([
      ['router lights', 2, 0],
    ]);
    expect(result.unanswered.map((row) => row.query)).toEqual(['teleport']);
    expect(result.top.map((row) => row.query)).toEqual(['router lights', 'teleport', 'wifi name']);
    expect(result.rated_articles).toBe(2);
    expect(result.unhelpful).toEqual([
      { article_id: help, title: 'Reset your router', published: true, yes: 1, no: 2 },
      { article_id: other, title: 'Change the Wi-Fi name', published: true, yes: 1, no: 1 },
    ]);
  });

  it('refuses a report period out of range, naming weeks', async () => {
    for (const weeks of ['0', '53', 'x'])
      expectApiError(
        await t.app.inject({
          url: `/api/admin/search-report?weeks=${weeks}`,
          headers: { 'x-auth-token': adminToken },
        }),
        400,
        ['weeks'],
      );
  });

  it('turns a query into a draft article for admins only', async () => {
    const body = { section_id: sectionId, title: 'Router lights', published: false };
    expectApiError(await t.app.inject({ method: 'POST', url: '/api/admin/articles', payload: body }), 401);
    expectApiError(
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/articles',
        payload: body,
        headers: { 'x-auth-token': agentToken },
      }),
      403,
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/articles',
      payload: body,
      headers: { 'x-auth-token': adminToken },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ title: 'Router lights', published: false, section_id: sectionId });
  });

  it('is for admins only', async () => {
    expectApiError(await t.app.inject('/api/admin/search-report'), 401);
    expectApiError(
      await t.app.inject({ url: '/api/admin/search-report', headers: { 'x-auth-token': agentToken } }),
      403,
    );
  });
});
