import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { createContext } from '../../context-factory.ts';
import type { OutboxRow } from '../../db/tables.ts';
import { PNG } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { deliverDue, MAX_ATTEMPTS, retryDelay, startDeliveryWorker } from './delivery.service.ts';
import { FILE_LINK_LIFETIME_MS, signFileLink } from '../file-links.ts';
import { buildTicket, buildUpload } from '../../testing/ticket-fixtures.ts';
import type { WebhookPayload } from './webhook.ts';

const SECRET = 'webhook-secret-for-tests';
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  signatureValid: boolean;
  status: number;
}

/**
 * A webhook receiver as a team would write one: it checks the signature over the raw body, answers the statuses it
 * is told to (200 once the list runs out), and can be slow or silent.
 */
async function startReceiver() {
  const received: Received[] = [];
  const state = { statuses: [] as number[], delayMs: 0, silent: false };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.silent) return;
      const raw = Buffer.concat(chunks);
      const expected = `sha256=${crypto.createHmac('sha256', SECRET).update(raw).digest('hex')}`;
      const given = String(request.headers['x-signpost-signature'] ?? '');
      const signatureValid =
        given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      const status = signatureValid ? (state.statuses.shift() ?? 200) : 401;
      received.push({ headers: request.headers, body: raw.toString(), signatureValid, status });
      setTimeout(
        () => response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`),
        state.delayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/tickets`,
    received,
    state,
    accepted: () => received.filter((r) => r.status >= 200 && r.status < 300),
    reset() {
      received.length = 0;
      Object.assign(state, { statuses: [], delayMs: 0, silent: false });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const withTickets = (ctx: AppContext, changes: Partial<AppContext['config']['tickets']>): AppContext => ({
  ...ctx,
  config: { ...ctx.config, tickets: { ...ctx.config.tickets, ...changes } },
});

describe.each(testDialects())('ticket delivery to a webhook on %s', (dialect) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const outboxRow = (ticketId: number): Promise<OutboxRow> =>
    t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .where('target', '=', 'webhook')
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(dialect, { TICKET_WEBHOOK_URL: receiver.url, TICKET_WEBHOOK_SECRET: SECRET });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.reset();
    // Each test sees only its own deliveries, whatever times earlier tests moved to.
    await t.ctx.db.deleteFrom('outbox').execute();
  });

  it('posts the ticket as signed JSON with links that download its private files', async () => {
    const screenshot = await buildUpload(t.ctx, 'screen shot.png', PNG);
    const log = await buildUpload(t.ctx, 'journal «E42».txt', 'E42 at 10:00\n');
    const now = Date.now();
    const ticket = await buildTicket(t.ctx, { files: [screenshot, log], now, name: 'Ann "the admin" Lee' });
    const row = await outboxRow(ticket.id);

    const outcomes = await deliverDue(t.ctx, now);
    expect(outcomes).toEqual([
      { id: row.id, ticketId: ticket.id, target: 'webhook', status: 'delivered', attempts: 1 },
    ]);
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.signatureValid).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-signpost-delivery']).toBe(String(row.id));
    expect(request.headers['idempotency-key']).toBe(`ticket-${ticket.id}-webhook`);

    const payload = JSON.parse(request.body) as WebhookPayload;
    const link = (id: number) =>
      expect.stringMatching(
        new RegExp(
          `^http://localhost:3000/api/ticket-files/${id}\\?expires=${now + FILE_LINK_LIFETIME_MS}&signature=[0-9a-f]{64}$`,
        ),
      );
    expect(payload).toEqual({
      event: 'ticket.created',
      ticket: {
        id: ticket.id,
        title: ticket.title,
        description: ticket.description,
        name: 'Ann "the admin" Lee',
        email: 'ann@example.com',
        channel: 'web',
        lang: 'en',
        created_at: new Date(now).toISOString(),
        files: [
          {
            id: screenshot.id,
            original_name: 'screen shot.png',
            file_size: PNG.length,
            mime_type: 'image/png',
            link: link(screenshot.id),
          },
          {
            id: log.id,
            original_name: 'journal «E42».txt',
            file_size: Buffer.byteLength('E42 at 10:00\n'),
            mime_type: 'text/plain; charset=utf-8',
            link: link(log.id),
          },
        ],
      },
    });

    for (const [file, bytes] of [
      [payload.ticket.files[0]!, PNG],
      [payload.ticket.files[1]!, Buffer.from('E42 at 10:00\n')],
    ] as const) {
      const url = new URL(file.link);
      const download = await t.app.inject(`${url.pathname}${url.search}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(download.headers['content-disposition']).toMatch(/^attachment;/);
      expect(download.headers['content-disposition']).toContain(
        `filename*=UTF-8''${encodeURIComponent(file.original_name)}`,
      );
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['cache-control']).toBe('private, no-store');
    }
    // The uploads stay private everywhere else.
    expect((await t.app.inject(`/files/${screenshot.id}/screen%20shot.png`)).statusCode).toBe(404);

    expect(await outboxRow(ticket.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      delivered_at: now,
      locked_until: null,
      last_error: null,
    });
    expect(await deliverDue(t.ctx, now + 3_600_000)).toEqual([]);
    expect(receiver.received).toHaveLength(1);
  });

  it('retries with backoff when the receiver fails twice, and delivers exactly once', async () => {
    receiver.state.statuses = [500, 500];
    const start = Date.now();
    const ticket = await buildTicket(t.ctx, { now: start });

    const first = await deliverDue(t.ctx, start);
    expect(first).toMatchObject([{ status: 'retry', attempts: 1, error: 'HTTP 500: answer 500' }]);
    expect(await outboxRow(ticket.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: start + 10_000,
      locked_until: null,
      last_error: 'HTTP 500: answer 500',
    });

    // Not due yet: nothing is sent early.
    expect(await deliverDue(t.ctx, start + 9_999)).toEqual([]);
    expect(receiver.received).toHaveLength(1);

    const second = await deliverDue(t.ctx, start + 10_000);
    expect(second).toMatchObject([{ status: 'retry', attempts: 2 }]);
    expect((await outboxRow(ticket.id)).next_attempt_at).toBe(start + 10_000 + 20_000);
    expect(await deliverDue(t.ctx, start + 29_999)).toEqual([]);

    const third = await deliverDue(t.ctx, start + 30_000);
    expect(third).toMatchObject([{ status: 'delivered', attempts: 3 }]);
    expect(await outboxRow(ticket.id)).toMatchObject({
      status: 'delivered',
      attempts: 3,
      delivered_at: start + 30_000,
      last_error: null,
    });

    expect(await deliverDue(t.ctx, start + 24 * 3_600_000)).toEqual([]);
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(receiver.accepted()).toHaveLength(1);
    // Every attempt carries the same identity, so a receiver can drop a repeat.
    expect(new Set(receiver.received.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`ticket-${ticket.id}-webhook`]),
    );
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, the waits doubling up to an hour`, async () => {
    receiver.state.statuses = Array<number>(MAX_ATTEMPTS).fill(503);
    let now = Date.now();
    const ticket = await buildTicket(t.ctx, { now });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverDue(t.ctx, now)).toMatchObject([{ attempts: attempt }]);
      const row = await outboxRow(ticket.id);
      waits.push(row.next_attempt_at - now);
      now = row.next_attempt_at;
    }
    expect(waits).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600, 3600].map((s) => s * 1000));
    expect(waits.slice(0, MAX_ATTEMPTS - 1)).toEqual(
      waits.slice(0, MAX_ATTEMPTS - 1).map((_, i) => retryDelay(i + 1)),
    );
    expect(await outboxRow(ticket.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: 'HTTP 503: answer 503',
    });
    expect(await deliverDue(t.ctx, now + 365 * 24 * 3_600_000)).toEqual([]);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
  });

  it('records why a delivery failed: a silent receiver, a refused connection', async () => {
    receiver.state.silent = true;
    const now = Date.now();
    const ticket = await buildTicket(t.ctx, { now });
    // Given up by its own timeout (the error says so), not by the receiver, which never answers.
    expect(await deliverDue(t.ctx, now, { webhookTimeoutMs: 300 })).toMatchObject([
      { status: 'retry', error: 'no answer within 0.3 s' },
    ]);
    expect((await outboxRow(ticket.id)).last_error).toBe('no answer within 0.3 s');

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = withTickets(t.ctx, { webhookUrl: `http://127.0.0.1:${port}/` });
    const [outcome] = await deliverDue(unreachable, now + 10_000);
    expect(outcome).toMatchObject({ status: 'retry', attempts: 2 });
    expect(outcome?.error).toMatch(/ECONNREFUSED/);
  });

  it('sends no signature header without a secret', async () => {
    const now = Date.now();
    await buildTicket(t.ctx, { now });
    expect(await deliverDue(withTickets(t.ctx, { webhookSecret: null }), now)).toMatchObject([
      { status: 'retry' },
    ]);
    // Our receiver insists on a signature, so it refused the unsigned request.
    expect(receiver.received).toMatchObject([{ status: 401, signatureValid: false }]);
    expect(receiver.received[0]?.headers['x-signpost-signature']).toBeUndefined();
  });

  it('lets two servers on one database deliver each row once', async () => {
    receiver.state.delayMs = 15;
    const now = Date.now();
    const tickets = await Promise.all(Array.from({ length: 8 }, () => buildTicket(t.ctx, { now })));
    const other = await createContext(t.environment.config);
    try {
      const [mine, theirs] = await Promise.all([deliverDue(t.ctx, now), deliverDue(other, now)]);
      const delivered = [...mine, ...theirs].map((o) => o.ticketId).sort((a, b) => a - b);
      expect(delivered).toEqual(tickets.map((ticket) => ticket.id).sort((a, b) => a - b));
      expect(receiver.received).toHaveLength(tickets.length);
      expect(new Set(receiver.received.map((r) => r.headers['x-signpost-delivery'])).size).toBe(
        tickets.length,
      );
      // Both took part: the rows were shared out, not all taken by whoever came first.
      expect(mine.length).toBeGreaterThan(0);
      expect(theirs.length).toBeGreaterThan(0);
    } finally {
      await other.database.close();
    }
    for (const ticket of tickets)
      expect(await outboxRow(ticket.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('takes a row back when the server that claimed it died, once its lock ran out', async () => {
    const now = Date.now();
    const ticket = await buildTicket(t.ctx, { now });
    // What a server leaves behind when it is killed mid-delivery: the row claimed, never marked.
    await t.ctx.db
      .updateTable('outbox')
      .set({ attempts: 1, locked_until: now + 60_000 })
      .where('ticket_id', '=', ticket.id)
      .execute();
    expect(await deliverDue(t.ctx, now + 59_999)).toEqual([]);
    expect(await deliverDue(t.ctx, now + 60_000)).toMatchObject([{ status: 'delivered', attempts: 2 }]);
    expect(receiver.accepted()).toHaveLength(1);
  });

  it('refuses file links that are forged, expired or for another file; every server shares the key', async () => {
    const file = await buildUpload(t.ctx, 'invoice.pdf', '%PDF-1.4 invoice');
    const other = await buildUpload(t.ctx, 'other.pdf', '%PDF-1.4 other');
    const path = (link: string) => {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    };
    const good = path(await signFileLink(t.ctx, file.id));
    expect((await t.app.inject(good)).statusCode).toBe(200);

    const signature = new URL(good, 'http://x').searchParams.get('signature') ?? '';
    const expires = new URL(good, 'http://x').searchParams.get('expires') ?? '';
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const expired = path(await signFileLink(t.ctx, file.id, Date.now() - FILE_LINK_LIFETIME_MS - 1));
    for (const bad of [
      `/api/ticket-files/${file.id}`,
      `/api/ticket-files/${file.id}?expires=${expires}`,
      `/api/ticket-files/${file.id}?signature=${signature}`,
      `/api/ticket-files/${file.id}?expires=${expires}&signature=${flipped}`,
      `/api/ticket-files/${file.id}?expires=${Number(expires) + 1}&signature=${signature}`,
      `/api/ticket-files/${other.id}?expires=${expires}&signature=${signature}`,
      `/api/ticket-files/${file.id}?expires=${expires}&signature=not-hex`,
      expired,
    ]) {
      const response = await t.app.inject(bad);
      expectApiError(response, 403);
      expect(response.body).not.toContain('invoice');
    }

    const secondServer = await createContext(t.environment.config);
    try {
      const now = Date.now();
      expect(await signFileLink(secondServer, file.id, now)).toBe(await signFileLink(t.ctx, file.id, now));
    } finally {
      await secondServer.database.close();
    }
  });

  it('runs passes in the background and, when stopped, waits for the one in flight', async () => {
    receiver.state.delayMs = 400;
    const ticket = await buildTicket(t.ctx);
    const worker = startDeliveryWorker(t.ctx);
    try {
      const deadline = Date.now() + 5_000;
      while (receiver.received.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await worker.stop();
    }
    // stop() returned only after the pass marked the row.
    expect(await outboxRow(ticket.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });
});
