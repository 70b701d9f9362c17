import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { normaliseQuery } from './search-analytics.ts';

describe('query normalisation', () => {
  it('folds, collapses spaces and removes what could identify a person', () => {
    expect(normaliseQuery('  Wi-Fi   NOT  working ')).toBe('wi-fi not working');
    expect(normaliseQuery('Súbor')).toBe('subor');
    expect(normaliseQuery('refund for ann.lee@example.com order 123 456 789')).toBe(
      'refund for [email] order [number]',
    );
    expect(normaliseQuery('error 42')).toBe('error 42');
  });
});

describe.each(testDialects())('search analytics on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await buildUser(t.ctx.db, { email: 'admin@example.com', name: 'Admin', role: 'admin' });
    await buildUser(t.ctx.db, { email: 'agent@example.com', name: 'Agent' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@example.com', password: DEFAULT_PASSWORD },
    });
    token = login.json().token;
  });
  afterAll(async () => t?.close());

  const event = (payload: object) => t.app.inject({ method: 'POST', url: '/api/search/events', payload });

  it('counts searches, searches that found nothing and opened results, without storing who', async () => {
    for (const query of ['Reset password', 'reset  PASSWORD', 'reset password']) {
      expect((await event({ type: 'search', query, found: 3 })).statusCode).toBe(200);
    }
    await event({ type: 'open', query: 'reset password', id: 7 });
    await event({ type: 'search', query: 'refund ann@example.com', found: 0 });
    await event({ type: 'search', query: 'refund bob@example.com', found: 0 });
    await event({ type: 'search', query: 'teleport', found: 0 });
    const missing = expectApiError(await event({ type: 'search', query: 'x' }), 400);
    expect(missing.data.errors.map((e) => e.field)).toContain('found');
    expectApiError(await event({ type: 'guess', query: 'x' }), 400);

    const rows = await t.ctx.db.selectFrom('search_queries').selectAll().orderBy('query').execute();
    expect(rows.map((r) => [r.query, Number(r.searches), Number(r.empty_results), Number(r.opened)])).toEqual(
      [
        ['refund [email]', 2, 2, 0],
        ['reset password', 3, 0, 1],
        ['teleport', 1, 1, 0],
      ],
    );
  });

  it('reports the most frequent and the unanswered queries to admins only', async () => {
    const report = await t.app.inject({
      url: '/api/admin/search-report?limit=2',
      headers: { 'x-auth-token': token },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json().top.map((r: { query: string }) => r.query)).toEqual([
      'reset password',
      'refund [email]',
    ]);
    expect(report.json().unanswered.map((r: { query: string }) => r.query)).toEqual([
      'refund [email]',
      'teleport',
    ]);
    expectApiError(await t.app.inject('/api/admin/search-report'), 401);
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'agent@example.com', password: DEFAULT_PASSWORD },
    });
    expectApiError(
      await t.app.inject({
        url: '/api/admin/search-report',
        headers: { 'x-auth-token': agent.json().token },
      }),
      403,
    );
  });
});
