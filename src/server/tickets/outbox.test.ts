import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { createContext } from '../context-factory.ts';
import type { UserRow } from '../db/tables.ts';
import { startDeliveryWorker, type DeliveryWorker } from './delivery/delivery.service.ts';
import { signIn } from '../testing/admin-content.ts';
import { buildUser } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { buildTicket } from '../testing/ticket-fixtures.ts';
import { enqueue, inTransaction, onEnqueued, writeMessageIn } from './outbox.ts';
import { emitStatusChange, planMessage } from './lifecycle.ts';
import { messagesOf } from './thread.repository.ts';
import { deliveriesOfTicket, findTicket } from './tickets.repository.ts';

interface Sent {
  event: string;
  status?: string;
  ticket: { id: number };
}

/** A webhook receiver that accepts everything and keeps what it was sent. */
async function startReceiver() {
  const events: Sent[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString()) as Sent);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Longer than any test here: a delivery seen is one the queueing woke, never the worker's periodic pass. */
const NEVER_MS = 10 * 60 * 1000;

describe.each(testDialects())('the outbox wakes its worker, on %s', (dialect) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let agent: UserRow;
  let token: string;
  let worker: DeliveryWorker | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(dialect, { TICKET_WEBHOOK_URL: receiver.url });
    agent = await buildUser(t.ctx.db, { role: 'agent' });
    token = await signIn(t, agent.email);
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
    receiver.events.length = 0;
  });

  it("sends a team's change of status at once, without waiting for the worker's next pass", async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    worker = startDeliveryWorker(t.ctx, undefined, NEVER_MS);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/tickets/${ticket.id}`,
      headers: { 'x-auth-token': token },
      payload: { status: 'open' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await expect
      .poll(() => receiver.events)
      .toEqual([expect.objectContaining({ event: 'ticket.status_changed', status: 'open' })]);
  });

  it('sends a reply of the team, and a new request, at once too', async () => {
    worker = startDeliveryWorker(t.ctx, undefined, NEVER_MS);
    const ticket = await buildTicket(t.ctx);
    await expect.poll(() => receiver.events.map((e) => e.event)).toEqual(['ticket.created']);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${ticket.id}/messages`,
      headers: { 'x-auth-token': token },
      payload: { body: 'Try resetting it.' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await expect
      .poll(() => receiver.events.map((e) => e.event))
      .toEqual(['ticket.created', 'ticket.replied']);
  });

  it('wakes the worker only once the transaction committed, and never for one rolled back', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    // Another handle on the same database reads what is committed, as the worker's pass would.
    const other = await createContext(t.environment.config);
    const seenAtWake: Promise<number>[] = [];
    const forget = onEnqueued(t.ctx.db, () =>
      seenAtWake.push(deliveriesOfTicket(other.db, ticket.id).then((rows) => rows.length)),
    );
    try {
      await expect(
        inTransaction(t.ctx.db, async (trx) => {
          await enqueue(trx, ticket.id, { kind: 'request', targets: ['webhook'] }, Date.now());
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(seenAtWake).toHaveLength(0);
      expect(await deliveriesOfTicket(t.ctx.db, ticket.id)).toEqual([]);

      await inTransaction(t.ctx.db, async (trx) => {
        await enqueue(trx, ticket.id, { kind: 'request', targets: ['webhook'] }, Date.now());
        expect(seenAtWake).toHaveLength(0);
      });
      expect(seenAtWake).toHaveLength(1);
      expect(await seenAtWake[0]).toBe(1);
    } finally {
      forget();
      await other.database.close();
    }
  });

  it('refuses to queue in a transaction that would commit without waking the worker', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    await expect(
      t.ctx.db
        .transaction()
        .execute((trx) => enqueue(trx, ticket.id, { kind: 'request', targets: ['webhook'] }, Date.now())),
    ).rejects.toThrow('inTransaction');
    expect(await deliveriesOfTicket(t.ctx.db, ticket.id)).toEqual([]);
  });

  it('refuses such a transaction even with nothing to queue (no mail server, no webhook)', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    await expect(
      t.ctx.db
        .transaction()
        .execute((trx) =>
          enqueue(trx, ticket.id, { kind: 'message', messageId: 1, targets: [] }, Date.now()),
        ),
    ).rejects.toThrow('inTransaction');
    await expect(
      t.ctx.db
        .transaction()
        .execute((trx) => emitStatusChange(trx, { id: ticket.id, status: 'new' }, 'open', Date.now(), false)),
    ).rejects.toThrow('inTransaction');
  });

  it('refuses to write a message in such a transaction, with or without deliveries, and writes nothing', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const message = { author: { id: null, name: 'Ann', fromTeam: false }, text: 'Thanks', internal: false };
    for (const targets of [['webhook' as const], []]) {
      const plan = planMessage(ticket, { ...message, fileIds: [], targets }, Date.now());
      await expect(t.ctx.db.transaction().execute((trx) => writeMessageIn(trx, plan))).rejects.toThrow(
        'inTransaction',
      );
    }
    expect(await messagesOf(t.ctx.db, ticket.id, { internal: true })).toEqual([]);
    expect((await findTicket(t.ctx.db, ticket.id))?.status).toBe(ticket.status);
    expect(await deliveriesOfTicket(t.ctx.db, ticket.id)).toEqual([]);
  });

  it("leaves another server's rows to its worker's periodic pass, which finds them", async () => {
    const second: AppContext = await createContext(t.environment.config);
    const secondWorker = startDeliveryWorker(second, undefined, 50);
    try {
      // Queued by this server, which runs no worker: only the second server's pass can send it.
      const ticket = await buildTicket(t.ctx);
      await expect
        .poll(() => receiver.events.filter((e) => e.ticket.id === ticket.id).map((e) => e.event))
        .toEqual(['ticket.created']);
    } finally {
      await secondWorker.stop();
      await second.database.close();
    }
  });
});
