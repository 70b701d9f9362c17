import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createContext } from '../context-factory.ts';
import { latestMigration } from '../db/database.ts';
import { signFileLink } from '../tickets/index.ts';
import { expectApiError } from '../testing/api-expect.ts';
import { buildArticle, buildUser, DEFAULT_PASSWORD } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { captureLogs } from '../testing/log-capture.ts';
import { issueOpenBody, OPEN_REQUESTS_CONFIG } from '../testing/ticket-fixtures.ts';
import { pageCacheHit, pageCacheMiss } from '../http/cache-metrics.ts';

/** The value of one sample of a Prometheus text exposition, by metric name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(labels).sort())) {
      return Number(match[3]);
    }
  }
  return undefined;
}

const BOUNDARY = '----ops-test-boundary';
const multipartFile = (name: string, content: string) => ({
  payload: Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="${name}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  ),
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
});

describe.each(testDialects())('operations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, OPEN_REQUESTS_CONFIG);
  });
  afterAll(async () => t?.close());

  it('answers /healthz without the database and /readyz only once the search index is built', async () => {
    const health = await t.app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });

    const early = await t.app.inject('/readyz');
    const error = expectApiError(early, 503, ['search']);
    expect(error.code).toBe('not_ready');
    expect(error.message).toContain('search the index is not built yet');

    await t.ctx.search.refresh();
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', search: 'ok' },
    });
    expect(ready.headers['cache-control']).toBe('no-store');

    const openapi = (await t.app.inject('/api/openapi.json')).json();
    expect(openapi.paths['/readyz'].get.tags).toEqual(['operations']);
    // The document describes this release's API.
    const manifest = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    );
    expect(openapi.info.version).toBe(manifest.version);
  });

  it('is not ready while a known migration is not applied to the database', async () => {
    await t.ctx.search.refresh();
    const latest = latestMigration(dialect);
    const kept = (
      await sql<{
        name: string;
        timestamp: string;
      }>`select name, timestamp from kysely_migration where name = ${latest}`.execute(t.ctx.db)
    ).rows[0];
    expect(kept).toBeTruthy();
    await sql`delete from kysely_migration where name = ${latest}`.execute(t.ctx.db);
    try {
      const response = await t.app.inject('/readyz');
      const error = expectApiError(response, 503, ['migrations']);
      expect(error.data.errors[0]?.message).toBe(`not applied: ${latest}`);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${kept?.name}, ${kept?.timestamp})`.execute(
        t.ctx.db,
      );
    }
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
  });

  it('counts requests per route pattern and status, with latency histograms, never per URL', async () => {
    const first = await buildArticle(t.ctx.db);
    const second = await buildArticle(t.ctx.db);
    for (const id of [first.id, second.id, first.id]) {
      expect((await t.app.inject(`/api/knowledge/instruction/${id}`)).statusCode).toBe(200);
    }
    expect((await t.app.inject('/api/knowledge/instruction/999999')).statusCode).toBe(404);
    expect((await t.app.inject('/api/no/such/route/42')).statusCode).toBe(404);

    const response = await t.app.inject('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const route = '/api/knowledge/instruction/:id';
    expect(sample(text, 'signpost_http_requests_total', { method: 'GET', route, status_code: '200' })).toBe(
      3,
    );
    expect(sample(text, 'signpost_http_requests_total', { method: 'GET', route, status_code: '404' })).toBe(
      1,
    );
    expect(
      sample(text, 'signpost_http_request_duration_seconds_count', {
        method: 'GET',
        route,
        status_code: '200',
      }),
    ).toBe(3);
    expect(
      sample(text, 'signpost_http_request_duration_seconds_bucket', {
        method: 'GET',
        route,
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(3);
    expect(
      sample(text, 'signpost_http_requests_total', {
        method: 'GET',
        route: '(unmatched)',
        status_code: '404',
      }),
    ).toBe(1);
    expect(text).not.toContain(`/api/knowledge/instruction/${first.id}"`);
    expect(text).not.toContain('/api/no/such/route');
    // Node's own figures come along.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The runtime an operator runs, in the conventional series dashboards read it from.
    expect(text).toMatch(
      new RegExp(`^nodejs_version_info\\{version="v${process.versions.node}"[^}]*\\} 1$`, 'm'),
    );
  });

  it('reports the outbox backlog, the search index size and the page cache counters at scrape time', async () => {
    const uploaded = multipartFile('screen.txt', 'hello');
    const upload = await t.app.inject({ method: 'POST', url: '/api/file', ...uploaded });
    const cookie = String(upload.headers['set-cookie']).split(';')[0] ?? '';
    const files = (upload.json() as { id: number }[]).map((f) => f.id);
    for (const body of [issueOpenBody({ files }), issueOpenBody()]) {
      const opened = await t.app.inject({
        method: 'POST',
        url: '/panel/api/issue-open',
        payload: body,
        headers: { cookie },
      });
      expect(opened.statusCode, opened.body).toBe(201);
    }
    const rows = await t.ctx.db.selectFrom('outbox').select(['id']).orderBy('id').execute();
    expect(rows).toHaveLength(2);
    const queued = Date.now() - 90_000;
    await t.ctx.db.updateTable('outbox').set({ created_at: queued }).where('id', '=', rows[0]!.id).execute();
    await t.ctx.db.updateTable('outbox').set({ status: 'failed' }).where('id', '=', rows[1]!.id).execute();

    await buildArticle(t.ctx.db, { published: 0 });
    await t.ctx.search.refresh();
    const published = await t.ctx.db
      .selectFrom('articles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('published', '=', 1)
      .executeTakeFirstOrThrow();

    const before = (await t.app.inject('/metrics')).body;
    pageCacheHit();
    pageCacheHit();
    pageCacheMiss();
    // The age is the scrape's: between the queued time's age when the scrape was asked for and when it answered.
    const asked = Date.now();
    const text = (await t.app.inject('/metrics')).body;
    const answered = Date.now();

    expect(sample(text, 'signpost_outbox_pending', { target: 'webhook' })).toBe(1);
    const age = sample(text, 'signpost_outbox_oldest_pending_age_seconds', { target: 'webhook' }) ?? 0;
    expect(age).toBeGreaterThanOrEqual((asked - queued) / 1000);
    expect(age).toBeLessThanOrEqual((answered - queued) / 1000);
    expect(sample(text, 'signpost_outbox_failed', { target: 'webhook' })).toBe(1);
    expect(sample(text, 'signpost_search_index_documents')).toBe(Number(published.n));
    expect(Number(published.n)).toBeGreaterThan(0);
    const kept = (t.app as unknown as { responseCache: { stats(): { entries: number; bytes: number } } })
      .responseCache;
    await t.app.inject('/api/knowledge/all-sections');
    const withCache = (await t.app.inject('/metrics')).body;
    expect(sample(withCache, 'signpost_page_cache_entries')).toBe(kept.stats().entries);
    expect(sample(withCache, 'signpost_page_cache_bytes')).toBe(kept.stats().bytes);
    expect(kept.stats().bytes).toBeGreaterThan(0);
    const delta = (name: string) => (sample(text, name) ?? 0) - (sample(before, name) ?? 0);
    expect(delta('signpost_page_cache_hits_total')).toBe(2);
    expect(delta('signpost_page_cache_misses_total')).toBe(1);

    // Delivered rows leave the backlog.
    await t.ctx.db.updateTable('outbox').set({ status: 'delivered' }).execute();
    const after = (await t.app.inject('/metrics')).body;
    expect(sample(after, 'signpost_outbox_pending', { target: 'webhook' })).toBeUndefined();
    expect(sample(after, 'signpost_outbox_failed', { target: 'webhook' })).toBeUndefined();
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'scrape-me-0123456789';
    const app = await buildApp({ ...t.ctx, config: { ...t.ctx.config, metricsToken: token } });
    try {
      const missing = await app.inject('/metrics');
      expectApiError(missing, 401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expectApiError(await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } }), 401);
      const allowed = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(allowed.statusCode).toBe(200);
      // The token opens it from anywhere, through a proxy too.
      const remote = await app.inject({
        url: '/metrics',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.4' },
      });
      expect(remote.statusCode).toBe(200);
      expect(allowed.body).toContain('signpost_http_requests_total');
      // Health probes stay open.
      expect((await app.inject('/healthz')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers only this machine without METRICS_TOKEN, and anyone with METRICS_PUBLIC', async () => {
    const scrape = (app: typeof t.app, remoteAddress: string, headers: Record<string, string> = {}) =>
      app.inject({ url: '/metrics', remoteAddress, headers });
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await scrape(t.app, address)).statusCode).toBe(200);
    }
    const outside = await scrape(t.app, '203.0.113.9');
    expectApiError(outside, 403);
    expect(outside.json().message).toContain('METRICS_TOKEN');
    expect(outside.headers['cache-control']).toBe('no-store');
    expectApiError(await scrape(t.app, '10.0.0.7'), 403);
    expectApiError(await scrape(t.app, '::ffff:203.0.113.9'), 403);
    // A proxy on this machine connects from loopback: whatever it relays names someone else, loopback included.
    const relays: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { 'x-forwarded-proto': 'https' },
      { 'x-forwarded-host': 'help.example.com' },
      { via: '1.1 proxy' },
      { 'cf-connecting-ip': '203.0.113.9' },
      { 'true-client-ip': '203.0.113.9' },
    ];
    for (const relayed of relays) {
      expectApiError(await scrape(t.app, '127.0.0.1', relayed), 403);
    }
    const trusting = await buildApp({ ...t.ctx, config: { ...t.ctx.config, trustProxy: 1 } });
    const open = await buildApp({ ...t.ctx, config: { ...t.ctx.config, metricsPublic: true } });
    try {
      expectApiError(await scrape(trusting, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), 403);
      expect((await scrape(open, '203.0.113.9')).statusCode).toBe(200);
      expect((await scrape(open, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
    } finally {
      await trusting.close();
      await open.close();
    }
  });

  it('logs JSON lines carrying the request id, echoes it, and never logs credentials', async () => {
    const logs = captureLogs();
    const app = await buildApp(
      { ...t.ctx, config: { ...t.ctx.config, logLevel: 'info' } },
      { logStream: logs.stream },
    );
    try {
      const given = await app.inject({
        url: '/api/knowledge/all-sections',
        headers: { 'x-request-id': 'lb-42.a' },
      });
      expect(given.headers['x-request-id']).toBe('lb-42.a');
      const generated = await app.inject('/api/knowledge/all-sections');
      const id = String(generated.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Anything that could forge a log line or flood it is replaced by a fresh id.
      const forged = await app.inject({
        url: '/api/knowledge/all-sections',
        headers: { 'x-request-id': `x"}\n{"level":60 ${'y'.repeat(200)}` },
      });
      expect(String(forged.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);

      const user = await buildUser(t.ctx.db);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      });
      const authToken = (login.json() as { token: string }).token;
      expect(authToken).toBeTruthy();
      await app.inject({
        url: '/api/user/me',
        headers: {
          'x-auth-token': authToken,
          cookie: 'signpost_visitor=visitor-secret-cookie',
          authorization: 'Bearer bearer-secret-value',
        },
      });
      const file = await t.ctx.db
        .selectFrom('files')
        .select('id')
        .where('kind', '=', 'upload')
        .executeTakeFirst();
      const link = new URL(await signFileLink(t.ctx, file?.id ?? 1));
      const signature = link.searchParams.get('signature') ?? '';
      await app.inject(`${link.pathname}${link.search}`);

      const lines = logs.lines;
      const requestLines = () => lines.filter((l) => l.req || l.res);
      // Six requests: each has its two lines, the last written once its answer has gone.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(requestLines()).toHaveLength(12);
      expect(requestLines().every((l) => typeof l.reqId === 'string' && l.reqId !== '')).toBe(true);
      expect(lines.filter((l) => l.reqId === 'lb-42.a').map((l) => l.msg)).toEqual([
        'incoming request',
        'request completed',
      ]);
      expect(lines.some((l) => l.reqId === id)).toBe(true);
      const logged = logs.raw();
      for (const secret of [
        authToken,
        DEFAULT_PASSWORD,
        'visitor-secret-cookie',
        'bearer-secret-value',
        signature,
      ]) {
        expect(logged).not.toContain(secret);
      }
      expect(logged).toContain('signature=[redacted]');
    } finally {
      await app.close();
    }
  });

  it('with the database gone: readyz names it, API errors are counted and logged with their id, the rest answers', async () => {
    const ctx = await createContext(t.environment.config);
    await ctx.search.refresh();
    const logs = captureLogs();
    let app: FastifyInstance | undefined;
    try {
      app = await buildApp(
        { ...ctx, config: { ...ctx.config, logLevel: 'info' } },
        { logStream: logs.stream },
      );
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      await ctx.database.close();

      expectApiError(await app.inject('/readyz'), 503, ['database']);
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      const failed = await app.inject({
        url: '/api/knowledge/all-sections',
        headers: { 'x-request-id': 'down-1' },
      });
      expectApiError(failed, 500);
      expect(failed.headers['x-request-id']).toBe('down-1');
      const errorLine = logs.lines.find((l) => l.level === 50 && l.reqId === 'down-1');
      expect(errorLine?.msg).toBe('request failed');
      expect(errorLine?.err).toBeTruthy();

      const metrics = await app.inject('/metrics');
      expect(metrics.statusCode).toBe(200);
      const route = '/api/knowledge/all-sections';
      expect(sample(metrics.body, 'signpost_http_server_errors_total', { method: 'GET', route })).toBe(1);
      expect(
        sample(metrics.body, 'signpost_http_requests_total', { method: 'GET', route, status_code: '500' }),
      ).toBe(1);
      expect(
        sample(metrics.body, 'signpost_http_server_errors_total', { method: 'GET', route: '/readyz' }),
      ).toBe(1);
      expect(metrics.body).not.toContain('signpost_outbox_pending{');
    } finally {
      await app?.close();
    }
  });
});

describe('answers served from memory before the framework', () => {
  it('each get a fresh request id and are counted in the totals and the duration histogram, 304s too', async () => {
    const t = await createTestApp('sqlite', { REVISION_CHECK_MS: '60000' });
    try {
      const article = await buildArticle(t.ctx.db, { title: 'Counted from memory' });
      // A fresh app, so the revision it reads is the one after the article was written.
      const ctx = await createContext(t.environment.config);
      const app = await buildApp(ctx);
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = app.server.address() as { port: number };
        const base = `http://127.0.0.1:${port}`;
        const url = `${base}/knowledge/instruction/${article.id}`;
        const browser = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en-GB,en;q=0.9' };
        const first = await fetch(url, { headers: browser });
        expect(first.headers.get('x-cache')).toBe('miss');
        await first.arrayBuffer();
        const before = await (await fetch(`${base}/metrics`)).text();
        const labels = (status: string) => ({ method: 'GET', route: '/knowledge/*', status_code: status });
        const counted = (text: string, name: string, status: string) =>
          sample(text, name, labels(status)) ?? 0;

        const ids = new Set<string>();
        for (let i = 0; i < 5; i++) {
          const kept = await fetch(url, { headers: browser });
          expect(kept.headers.get('x-cache')).toBe('hit');
          await kept.arrayBuffer();
          ids.add(kept.headers.get('x-request-id') ?? '');
        }
        const etag = first.headers.get('etag') as string;
        for (let i = 0; i < 3; i++) {
          const unchanged = await fetch(url, { headers: { ...browser, 'if-none-match': etag } });
          expect(unchanged.status).toBe(304);
          expect(unchanged.headers.get('x-cache')).toBe('hit');
          ids.add(unchanged.headers.get('x-request-id') ?? '');
        }
        expect(ids.size).toBe(8);
        for (const id of ids)
          expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);

        const after = await (await fetch(`${base}/metrics`)).text();
        const grew = (name: string, status: string) =>
          counted(after, name, status) - counted(before, name, status);
        expect(grew('signpost_http_requests_total', '200')).toBe(5);
        expect(grew('signpost_http_request_duration_seconds_count', '200')).toBe(5);
        expect(grew('signpost_http_requests_total', '304')).toBe(3);
        expect(grew('signpost_http_request_duration_seconds_count', '304')).toBe(3);
        const buckets = (text: string, le: string) =>
          sample(text, 'signpost_http_request_duration_seconds_bucket', { ...labels('200'), le }) ?? 0;
        expect(buckets(after, '+Inf') - buckets(before, '+Inf')).toBe(5);
        expect(counted(after, 'signpost_http_request_duration_seconds_sum', '200')).toBeGreaterThan(
          counted(before, 'signpost_http_request_duration_seconds_sum', '200'),
        );
        expect(sample(after, 'signpost_page_cache_hits_total')).toBeGreaterThanOrEqual(8);
      } finally {
        await app.close();
        await ctx.database.close();
      }
    } finally {
      await t.close();
    }
  });

  it('are logged with their request id when the log level is debug, and not otherwise', async () => {
    const t = await createTestApp('sqlite', { REVISION_CHECK_MS: '60000' });
    try {
      const article = await buildArticle(t.ctx.db, { title: 'Logged from memory' });
      for (const level of ['debug', 'info'] as const) {
        const logs = captureLogs();
        const ctx = await createContext({ ...t.environment.config, logLevel: level });
        const app = await buildApp(ctx, { logStream: logs.stream });
        try {
          await app.listen({ port: 0, host: '127.0.0.1' });
          const { port } = app.server.address() as { port: number };
          const url = `http://127.0.0.1:${port}/knowledge/instruction/${article.id}?signature=abc`;
          await fetch(url);
          const hit = await fetch(url, { headers: { 'x-request-id': `hit-${level}` } });
          expect(hit.headers.get('x-cache')).toBe('hit');
          const lines = logs.lines.filter((l) => l.msg === 'answered from memory');
          if (level === 'debug') {
            expect(lines).toHaveLength(1);
            expect(lines[0]).toMatchObject({ reqId: 'hit-debug', statusCode: 200, method: 'GET' });
            expect(String(lines[0]?.url)).toContain('signature=[redacted]');
          } else {
            expect(lines).toEqual([]);
          }
        } finally {
          await app.close();
          await ctx.database.close();
        }
      }
    } finally {
      await t.close();
    }
  });
});
