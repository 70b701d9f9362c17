import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, href } from '../../shared/paths.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/config.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWorker, startDeliveryWorker } from '../tickets/index.ts';
import { expectApiError } from '../testing/api-expect.ts';
import { buildArticle } from '../testing/factories.ts';
import { captureLogs } from '../testing/log-capture.ts';
import { startTcpProxy, type Outage, type TcpProxy } from '../testing/tcp-proxy.ts';
import {
  createTestApp,
  createTestEnvironment,
  TEST_DATABASE_URL,
  testDialects,
  type TestApp,
  type TestEnvironment,
} from '../testing/test-context.ts';

const ENV = { CAPTCHA_PROVIDER: 'none', REQUESTS_PER_HOUR: '100000', UPLOADS_PER_HOUR: '100000' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const supportRequest = (n: number) => ({
  method: 'POST' as const,
  url: apiPaths.issueOpen,
  payload: {
    title: `Request ${n}`,
    description: 'The display shows E42',
    channel: 'web',
    name: 'Ann',
    email: 'ann@example.com',
    files: [],
    g_recaptcha_response: '',
  },
});

function expectUnavailable(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(503);
  const error = expectApiError(response, 503, []);
  expect(error.code).toBe('database_unavailable');
  expect(response.headers['retry-after']).toBe('5');
}

/**
 * The first answer `status` from the call, asking every 100 ms (for at most 30 s: a bound on the wait, not a figure;
 * `npm run bench:faults` prints how long recovery takes).
 */
async function recovered(call: () => Promise<LightMyRequestResponse>, status: number) {
  const started = Date.now();
  for (;;) {
    const response = await call();
    if (response.statusCode === status) return response;
    if (Date.now() - started > 30_000)
      throw new Error(`not recovered: ${response.statusCode} ${response.body}`);
    await sleep(100);
  }
}

describe.runIf(testDialects().includes('postgres'))('PostgreSQL going away and coming back', () => {
  let environment: TestEnvironment;
  let proxy: TcpProxy;
  let ctx: AppContext;
  let app: FastifyInstance;
  let worker: DeliveryWorker;
  let articleId: number;
  /** One article per outage that nothing has asked for yet, so no answer for it is kept in memory. */
  const unseen: Record<string, number> = {};
  const received: number[] = [];
  const failedPasses: string[] = [];
  let receiver: http.Server;
  let n = 0;

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(Number(JSON.parse(body).ticket.id));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    // The revision is checked as in production, so answers kept in memory need no database between checks.
    environment = await createTestEnvironment('postgres', {
      ...ENV,
      TICKET_WEBHOOK_URL: webhook,
      REVISION_CHECK_MS: '250',
    });
    const server = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    // The app reaches the shared PostgreSQL only through the proxy, which the tests take down.
    const url = new URL(environment.env.DATABASE_URL ?? '');
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    ctx = await createContext(loadConfig({ ...environment.env, DATABASE_URL: url.toString() }));
    app = await buildApp(ctx, { forceCloseConnections: true });
    const log = {
      info: () => {},
      warn: () => {},
      error: (_: object, message: string) => failedPasses.push(message),
    };
    worker = startDeliveryWorker(ctx, log);
    articleId = (await buildArticle(ctx.db, { title: 'Thermostat wiring diagram' })).id;
    unseen.drop = (await buildArticle(ctx.db, { title: 'Boiler pressure' })).id;
    unseen.hang = (await buildArticle(ctx.db, { title: 'Radiator valves' })).id;
  });

  afterEach(() => proxy.up());

  afterAll(async () => {
    await worker.stop();
    await app.close();
    await ctx.database.close();
    await proxy.close();
    await environment.cleanup();
    await new Promise((resolve) => receiver.close(resolve));
  });

  // How fast the answers come (the defaults: 3 s to get a connection, 5 s for a query to answer) is a figure of
  // `npm run bench:faults`, not of this test, which holds what the answers are.
  const outageCases: [Outage, string][] = [
    ['drop', 'restarted or stopped: connections cut, new ones refused'],
    ['hang', 'frozen (SIGSTOP): nothing answers, nothing is closed'],
  ];

  it.each(outageCases)(
    'answers 503 while it is %s (%s), what it keeps meanwhile, then recovers by itself',
    async (outage) => {
      // Kept in memory before the outage: a public answer that needs no database.
      expect((await app.inject(apiPaths.sections)).statusCode).toBe(200);
      const before = await app.inject(supportRequest(++n));
      expect(before.statusCode, before.body).toBe(201);
      await ctx.search.refresh();

      proxy.down(outage);
      const failuresBefore = failedPasses.length;
      const [write, read, page, kept, search] = await Promise.all([
        app.inject(supportRequest(++n)),
        // A query string would not do: answers are kept by the parameters a route reads, and these read none.
        app.inject(href.instructionApi(unseen[outage]!)),
        app.inject(href.instruction(unseen[outage]!)),
        // Once the revision read before the outage is stale, so the server would have to ask the database.
        sleep(400).then(() => app.inject(apiPaths.sections)),
        // Search answers from the index it has: nothing can change the content while the database is away.
        app.inject(`${apiPaths.suggestions}?text=wiring&during=${outage}`),
      ]);
      expectUnavailable(write, 'support request');
      expectUnavailable(read, 'article');
      expectUnavailable(page, 'article page');
      // What is kept is served from memory: the revision check goes on in the background, never holding it up.
      expect(kept.statusCode).toBe(200);
      expect(kept.headers['x-cache']).toBe('hit');
      expect(search.statusCode, search.body).toBe(200);
      expect(search.json().items.map((item: { id: number }) => item.id)).toEqual([articleId]);

      // Long enough for the delivery worker to have tried (and failed) a pass meanwhile.
      await sleep(1_500);
      expect(failedPasses.length).toBeGreaterThan(failuresBefore);

      proxy.up();
      const accepted = await recovered(() => app.inject(supportRequest(++n)), 201);
      expect((await app.inject(`${href.instructionApi(articleId)}?after=${outage}`)).statusCode).toBe(200);
      await expect(ctx.search.refresh()).resolves.toBeUndefined();

      // The worker outlived the outage: the request accepted after it is delivered.
      const id = (accepted.json() as { data: { id: number } }).data.id;
      for (let i = 0; i < 100 && !received.includes(id); i++) await sleep(100);
      expect(received).toContain(id);
    },
    40_000,
  );
});

describe('SQLite locked by another process', () => {
  let t: TestApp;
  let locker: DatabaseSync;
  const logs = captureLogs();
  beforeAll(async () => {
    t = await createTestApp(
      'sqlite',
      { ...ENV, DATABASE_TIMEOUT_MS: '2000', LOG_LEVEL: 'warn' },
      { logStream: logs.stream },
    );
    locker = new DatabaseSync(
      t.environment.config.database.dialect === 'sqlite' ? t.environment.config.database.file : '',
    );
  });
  afterAll(async () => {
    if (locker.isTransaction) locker.exec('rollback');
    locker.close();
    await t.close();
  });

  it('lets writes wait a bounded time then answer 503, while reads go on answering', async () => {
    const { id } = await buildArticle(t.ctx.db);
    expect((await t.app.inject(supportRequest(1))).statusCode).toBe(201);

    locker.exec('begin exclusive');
    let writeDone = false;
    const write = t.app.inject(supportRequest(2)).then((response) => {
      writeDone = true;
      return response;
    });
    await sleep(300);
    // While the write waits for the lock, the server is not blocked and reads answer: before the write gives up.
    const read = await t.app.inject(`${href.instructionApi(id)}?while=locked`);
    expect(read.statusCode, read.body).toBe(200);
    const page = await t.app.inject(`${href.instruction(id)}?while=locked`);
    expect(page.statusCode).toBe(200);
    expect(writeDone).toBe(false);

    // It gave up while the lock was still held (let go only below), when its wait for it ran out: the error the
    // driver throws then is SQLite's busy one, and nothing else went wrong.
    expectUnavailable(await write, 'support request');
    const unavailable = logs.lines.filter((line) => line.msg === 'database unavailable');
    expect(unavailable.map((line) => (line.err as { code?: string }).code)).toEqual(['SQLITE_BUSY']);

    // A write that starts while the lock is held and gets it when it is let go succeeds.
    const waiting = t.app.inject(supportRequest(3));
    await sleep(500);
    locker.exec('rollback');
    expect((await waiting).statusCode).toBe(201);
  }, 20_000);
});
