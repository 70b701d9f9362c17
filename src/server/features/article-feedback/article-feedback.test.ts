import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackReport } from '../../../shared/api/feedback.ts';
import { FEEDBACK_COMMENT_MAX } from '../../../shared/feedback.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildSection, buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { FEEDBACK_PER_HOUR } from '../../rate-limit/endpoint-limits.ts';
import { answerFeedback, cleanComment } from './article-feedback.service.ts';
import { dayOf, forgetOldSalts } from '../../privacy/daily-key.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('a comment as it is kept', () => {
  it('masks email addresses and numbers of six digits or more, and nothing else', () => {
    expect(cleanComment('Write to ann.lee+help@example.co.uk, or call +44 20 7946 0958.')).toBe(
      'Write to [email], or call [number].',
    );
    expect(cleanComment('Order 123456, card 4111-1111-1111-1111, phone (555) 123-4567')).toBe(
      'Order [number], card [number], phone ([number]',
    );
    expect(cleanComment('Step 3 of 12 failed with error 40412 on v2.1')).toBe(
      'Step 3 of 12 failed with error 40412 on v2.1',
    );
  });

  it('strips control and direction characters, keeps lines, and leaves nothing as null', () => {
    expect(cleanComment('a\u0007b\u202Ec\r\nd\tx\n\n\n\ne')).toBe('abc\nd x\n\ne');
    expect(cleanComment(' \u0001 \n ')).toBeNull();
    expect(cleanComment(undefined)).toBeNull();
    expect(cleanComment('x@y.z '.repeat(300))?.length).toBeLessThanOrEqual(FEEDBACK_COMMENT_MAX);
  });
});

describe.each(testDialects())('article feedback on %s', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let customerToken: string;
  let articleId: number;
  let draftId: number;
  let restrictedId: number;

  const signIn = async (email: string) => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: DEFAULT_PASSWORD },
    });
    return login.json<{ token: string }>().token;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    await buildUser(db, { email: 'admin@example.com', role: 'admin' });
    await buildUser(db, { email: 'customer@example.com' });
    adminToken = await signIn('admin@example.com');
    customerToken = await signIn('customer@example.com');
    const section = await buildSection(db);
    articleId = (await buildArticle(db, { section_id: section.id, title: 'Wifi setup' })).id;
    draftId = (await buildArticle(db, { section_id: section.id, published: 0 })).id;
    const members = await buildSection(db, { visibility: 'signed_in' });
    restrictedId = (await buildArticle(db, { section_id: members.id, title: 'Partner pricing' })).id;
  });
  afterAll(async () => t?.close());

  const answer = (id: number, payload: unknown, from = '10.0.0.1', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/knowledge/instruction/${id}/feedback`,
      payload: payload as object,
      remoteAddress: from,
      headers,
    });
  const rowsOf = (id: number) =>
    t.ctx.db.selectFrom('article_feedback').selectAll().where('article_id', '=', id).orderBy('id').execute();

  it('keeps one answer per visitor and article a day: a second one replaces it, another visitor adds one', async () => {
    const first = await answer(articleId, { helpful: true });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ helpful: true, reason: null, comment: null });

    const changed = await answer(articleId, {
      helpful: false,
      reason: 'out_of_date',
      comment: 'The menu is gone. Mail me at ann@example.com or call 0123 456 789.',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      helpful: false,
      reason: 'out_of_date',
      comment: 'The menu is gone. Mail me at [email] or call [number].',
    });
    let rows = await rowsOf(articleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ helpful: 0, reason: 'out_of_date' });
    // Nothing of the address is stored: the key is a 64-digit hash, and no column holds 10.0.0.1.
    expect(rows[0]?.visitor_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain('10.0.0.1');
    expect(JSON.stringify(rows)).not.toContain('ann@example.com');

    expect((await answer(articleId, { helpful: true }, '10.0.0.2')).statusCode).toBe(200);
    rows = await rowsOf(articleId);
    expect(rows.map((r) => r.helpful)).toEqual([0, 1]);
    // One IPv6 host is one visitor however it picks its address within its /64.
    await answer(articleId, { helpful: true }, '2001:db8:1:2::1');
    await answer(articleId, { helpful: false }, '2001:db8:1:2::abcd');
    expect(await rowsOf(articleId)).toHaveLength(3);
  });

  it('counts the same visitor again the next day, with a new salt and the old one forgotten', async () => {
    const other = await buildArticle(t.ctx.db, { title: 'Printer' });
    const visitor = { client: '10.0.0.9', audience: 'everyone' as const };
    const today = Date.now();
    await answerFeedback(t.ctx.db, other.id, { helpful: true }, visitor, today);
    await answerFeedback(t.ctx.db, other.id, { helpful: false }, visitor, today + 1000);
    expect((await rowsOf(other.id)).map((r) => r.helpful)).toEqual([0]);

    await answerFeedback(t.ctx.db, other.id, { helpful: true }, visitor, today + DAY);
    const rows = await rowsOf(other.id);
    expect(rows.map((r) => r.helpful)).toEqual([0, 1]);
    expect(rows[0]?.visitor_key).not.toBe(rows[1]?.visitor_key);
    const salts = await t.ctx.db.selectFrom('feedback_salts').select('day').execute();
    expect(salts.map((s) => s.day)).toEqual([dayOf(today + DAY)]);

    // The hourly clean-up forgets a salt whose day is over even when no answer replaced it.
    expect(await forgetOldSalts(t.ctx.db, today + 2 * DAY)).toBe(1);
    expect(await t.ctx.db.selectFrom('feedback_salts').selectAll().execute()).toEqual([]);
  });

  it('takes answers only for articles the visitor may read', async () => {
    expectApiError(await answer(draftId, { helpful: true }), 404);
    expectApiError(await answer(999_999, { helpful: true }), 404);
    // As reading it answers: a prompt to sign in, and for a signed-in visitor the answer is kept.
    expectApiError(await answer(restrictedId, { helpful: true }), 401);
    const member = await answer(restrictedId, { helpful: true }, '10.0.0.1', {
      'x-auth-token': customerToken,
    });
    expect(member.statusCode, member.body).toBe(200);
    expect(await rowsOf(draftId)).toEqual([]);
  });

  it('refuses bad input in the error shape, naming the field', async () => {
    expectApiError(await answer(articleId, {}), 400, ['helpful']);
    expectApiError(await answer(articleId, { helpful: 'yes' }), 400, ['helpful']);
    expectApiError(await answer(articleId, { helpful: false, reason: 'bored' }), 400, ['reason']);
    // A reason of the other answer.
    expectApiError(await answer(articleId, { helpful: true, reason: 'out_of_date' }), 400, ['reason']);
    expectApiError(
      await answer(articleId, { helpful: false, comment: 'x'.repeat(FEEDBACK_COMMENT_MAX + 1) }),
      400,
      ['comment'],
    );
    expectApiError(await answer(articleId, { helpful: false, comment: 'a\u0000b' }), 400, ['comment']);
    expectApiError(await answer(0, { helpful: true }), 400, ['id']);
  });

  it('limits how often one address answers in an hour', async () => {
    const from = '10.9.9.9';
    for (let i = 0; i < FEEDBACK_PER_HOUR; i++) {
      expect((await answer(articleId, { helpful: i % 2 === 0 }, from)).statusCode).toBe(200);
    }
    const refused = expectApiError(await answer(articleId, { helpful: true }, from), 429);
    expect(refused.code).toBe('rate_limited');
    expect((await answer(articleId, { helpful: true }, '10.9.9.10')).statusCode).toBe(200);
  });

  it('reports the articles worst first, with their reasons and masked comments, to admins only', async () => {
    const { db } = t.ctx;
    const good = await buildArticle(db, { title: 'Good' });
    const bad = await buildArticle(db, { title: 'Bad' });
    const mixed = await buildArticle(db, { title: 'Mixed' });
    const few = await buildArticle(db, { title: 'Few votes' });
    const vote = async (id: number, yes: number, no: number, reason?: string) => {
      for (let i = 0; i < yes + no; i++) {
        const helpful = i < yes;
        const payload = helpful || !reason ? { helpful } : { helpful, reason };
        expect((await answer(id, payload, `10.1.${id % 250}.${i}`)).statusCode).toBe(200);
      }
    };
    await vote(good.id, 9, 1);
    await vote(bad.id, 1, 5, 'hard_to_understand');
    await vote(mixed.id, 3, 3, 'missing');
    await vote(few.id, 0, 3, 'not_answered');
    await answer(
      bad.id,
      { helpful: false, reason: 'out_of_date', comment: 'Call me on 555 123 4567' },
      '10.1.0.99',
    );

    expectApiError(await t.app.inject('/api/admin/feedback'), 401);
    expectApiError(
      await t.app.inject({ url: '/api/admin/feedback', headers: { 'x-auth-token': customerToken } }),
      403,
    );
    expectApiError(
      await t.app.inject({ url: '/api/admin/feedback?per_page=0', headers: { 'x-auth-token': adminToken } }),
      400,
      ['per_page'],
    );

    const response = await t.app.inject({
      url: '/api/admin/feedback?per_page=50',
      headers: { 'x-auth-token': adminToken },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const report = response.json<FeedbackReport>();
    const titles = report.items.map((item) => item.title);
    // Enough votes first, by share of yes (lowest first); then the articles with fewer, most "no" first.
    expect(titles.indexOf('Bad')).toBeLessThan(titles.indexOf('Mixed'));
    expect(titles.indexOf('Mixed')).toBeLessThan(titles.indexOf('Good'));
    expect(titles.indexOf('Good')).toBeLessThan(titles.indexOf('Few votes'));
    const badRow = report.items.find((item) => item.article_id === bad.id);
    expect(badRow).toMatchObject({ yes: 1, no: 6, enough_votes: true, published: true });
    expect(badRow?.helpful_share).toBeCloseTo(1 / 7);
    expect(badRow?.reasons).toEqual([
      { reason: 'hard_to_understand', count: 5 },
      { reason: 'out_of_date', count: 1 },
    ]);
    expect(badRow?.comments).toEqual([
      { helpful: false, reason: 'out_of_date', comment: 'Call me on [number]', day: dayOf(Date.now()) },
    ]);
    expect(report.items.find((item) => item.article_id === few.id)).toMatchObject({
      enough_votes: false,
      no: 3,
    });
    expect(report.min_votes).toBe(5);
    expect(report._meta.totalCount).toBe(report.items.length);

    // Paged: two at a time, the same order.
    const second = await t.app.inject({
      url: '/api/admin/feedback?per_page=2&page=2',
      headers: { 'x-auth-token': adminToken },
    });
    const page2 = second.json<FeedbackReport>();
    expect(page2.items.map((item) => item.title)).toEqual(titles.slice(2, 4));
    expect(page2._meta).toMatchObject({
      currentPage: 2,
      perPage: 2,
      pageCount: Math.ceil(titles.length / 2),
    });
  });

  it('drops an article’s answers with the article', async () => {
    const gone = await buildArticle(t.ctx.db, { title: 'Short-lived' });
    await answer(gone.id, { helpful: false }, '10.2.0.1');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/articles/${gone.id}`,
      headers: { 'x-auth-token': adminToken },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowsOf(gone.id)).toEqual([]);
  });
});
