import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../context-factory.ts';
import { deliverDue, enqueue, replyTokenFor } from '../../tickets/index.ts';
import { headerOf, startMailServer } from '../../testing/mail-server.ts';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';

/** A webhook receiver keeping each delivery's headers and what it said. */
async function startReceiver() {
  const received: { key: string; delivery: string; event: string; status?: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { event: string; status?: string };
      received.push({
        key: String(request.headers['idempotency-key']),
        delivery: String(request.headers['x-signpost-delivery']),
        event: body.event,
        ...(body.status && { status: body.status }),
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const insertId = async (db: Kysely<unknown>, query: ReturnType<typeof sql<{ id: number }>>) =>
  Number((await query.execute(db)).rows[0]!.id);

/** A visitor's open request, as 0026's schema keeps it. */
const insertTicket = (db: Kysely<unknown>, title: string, description: string, at: number) =>
  insertId(
    db,
    sql<{
      id: number;
    }>`insert into tickets (title, description, name, email, channel, user_id, lang, created_at,
      updated_at, status) values (${title}, ${description}, 'Ann Lee', 'ann@example.com', 'web', null, 'en', ${at},
      ${at}, 'open') returning id`,
  );

/** A pending delivery, as 0026's code queued it (the message id packs what it is about). */
const insertDelivery = (db: Kysely<unknown>, ticket: number, messageId: number, target: string, at: number) =>
  insertId(
    db,
    sql<{ id: number }>`insert into outbox (ticket_id, message_id, target, status, attempts, next_attempt_at,
      created_at) values (${ticket}, ${messageId}, ${target}, 'pending', 0, ${at}, ${at}) returning id`,
  );

describe.each(testDialects())('migration 0027-outbox-kinds on %s', (dialect) => {
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    smtp = await startMailServer();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await smtp?.close();
    await receiver?.close();
  });

  it('gives every pending row its kind, and sends each with the Idempotency-Key and Message-ID it had', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0026-sender-access', {
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@example.com',
      TICKET_WEBHOOK_URL: receiver.url,
    });
    const sent = Date.now() - 60_000;
    const db = handle.db as unknown as Kysely<unknown>;
    let ctx: Awaited<ReturnType<typeof createContext>> | undefined;
    try {
      const ticket = await insertTicket(db, 'Thermostat', 'It shows E42', sent);
      const message = (fromTeam: number, text: string) =>
        insertId(
          db,
          sql<{
            id: number;
          }>`insert into ticket_messages (ticket_id, author_id, author_name, from_team, internal,
            body_text, body_html, created_at) values (${ticket}, null, 'Dana', ${fromTeam}, 0, ${text},
            ${`<p>${text}</p>`}, ${sent}) returning id`,
        );
      const reply = await message(1, 'Try resetting it.');
      const answer = await message(0, 'It worked.');
      // As 0026's code queued them: 0 the request, a message's id, and -(change * 8 + place of the status).
      const rows: [number, string][] = [
        [0, 'webhook'],
        [0, 'requester'],
        [0, 'team'],
        [reply, 'webhook'],
        [reply, 'requester'],
        [answer, 'team'],
        [-(1 * 8 + 1), 'webhook'],
        [-(2 * 8 + 3), 'webhook'],
        [-(3 * 8 + 4), 'webhook'],
      ];
      for (const [messageId, target] of rows) await insertDelivery(db, ticket, messageId, target, sent);
      // A delivery dropped before the upgrade (a deleted account's) keeps its id from ever naming another one.
      const dropped = await insertDelivery(db, ticket, 99, 'requester', sent);
      await sql`delete from outbox where id = ${dropped}`.execute(db);
      const ids = (await sql<{ id: number }>`select id from outbox order by id`.execute(db)).rows.map((r) =>
        Number(r.id),
      );
      await handle.close();

      ctx = await createContext(environment.config);
      const converted = await ctx.db
        .selectFrom('outbox')
        .select(['id', 'kind', 'message_id', 'status_number', 'status_to', 'target'])
        .orderBy('id')
        .execute();
      expect(converted).toEqual([
        {
          id: ids[0],
          kind: 'request',
          message_id: null,
          status_number: null,
          status_to: null,
          target: 'webhook',
        },
        {
          id: ids[1],
          kind: 'request',
          message_id: null,
          status_number: null,
          status_to: null,
          target: 'requester',
        },
        {
          id: ids[2],
          kind: 'request',
          message_id: null,
          status_number: null,
          status_to: null,
          target: 'team',
        },
        {
          id: ids[3],
          kind: 'message',
          message_id: reply,
          status_number: null,
          status_to: null,
          target: 'webhook',
        },
        {
          id: ids[4],
          kind: 'message',
          message_id: reply,
          status_number: null,
          status_to: null,
          target: 'requester',
        },
        {
          id: ids[5],
          kind: 'message',
          message_id: answer,
          status_number: null,
          status_to: null,
          target: 'team',
        },
        {
          id: ids[6],
          kind: 'status',
          message_id: null,
          status_number: 1,
          status_to: 'open',
          target: 'webhook',
        },
        {
          id: ids[7],
          kind: 'status',
          message_id: null,
          status_number: 2,
          status_to: 'solved',
          target: 'webhook',
        },
        {
          id: ids[8],
          kind: 'status',
          message_id: null,
          status_number: 3,
          status_to: 'closed',
          target: 'webhook',
        },
      ]);

      const outcomes = await deliverDue(ctx);
      expect(outcomes.map((o) => o.status)).toEqual(rows.map(() => 'delivered'));
      // The webhook's keys, as 0026's code made them from the packed ids.
      expect(receiver.received).toEqual([
        { key: `ticket-${ticket}-webhook`, delivery: String(ids[0]), event: 'ticket.created' },
        {
          key: `ticket-${ticket}-message-${reply}-webhook`,
          delivery: String(ids[3]),
          event: 'ticket.replied',
        },
        {
          key: `ticket-${ticket}-status-1-webhook`,
          delivery: String(ids[6]),
          event: 'ticket.status_changed',
          status: 'open',
        },
        {
          key: `ticket-${ticket}-status-2-webhook`,
          delivery: String(ids[7]),
          event: 'ticket.status_changed',
          status: 'solved',
        },
        {
          key: `ticket-${ticket}-status-3-webhook`,
          delivery: String(ids[8]),
          event: 'ticket.status_changed',
          status: 'closed',
        },
      ]);
      // The mails' ids, as 0026's code made them from the ticket's and the message's ids.
      const token = (part: string, to: string) => replyTokenFor(ctx!.db, ticket, part as 'received', to);
      expect(smtp.mails.map((mail) => headerOf(mail.raw, 'message-id'))).toEqual([
        `<ticket-${ticket}-received.${await token('received', 'ann@example.com')}@signpost>`,
        `<ticket-${ticket}@signpost>`,
        `<ticket-${ticket}-message-${reply}.${await token(`message-${reply}`, 'ann@example.com')}@signpost>`,
        `<ticket-${ticket}-message-${answer}.${await token(`message-${answer}`, 'team')}@signpost>`,
      ]);

      // New rows go on after every id the outbox ever gave, the dropped one's too.
      await enqueue(ctx.db, ticket, { kind: 'status', status: 'open' }, Date.now());
      const added = await ctx.db
        .selectFrom('outbox')
        .select(['id', 'status_number'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(added.id).toBeGreaterThan(dropped);
      expect(added.status_number).toBe(4);
    } finally {
      await ctx?.database.close();
      await environment.cleanup();
    }
  });
  it('never gives again an id the outbox gave, when it was empty at the upgrade', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0026-sender-access');
    const sent = Date.now() - 60_000;
    const db = handle.db as unknown as Kysely<unknown>;
    let ctx: Awaited<ReturnType<typeof createContext>> | undefined;
    try {
      const ticket = await insertTicket(db, 'Boiler', 'No hot water', sent);
      // Every delivery sent and removed (as a deleted account's are): the outbox is empty, its ids given.
      let dropped = 0;
      for (const target of ['requester', 'team', 'webhook']) {
        dropped = await insertDelivery(db, ticket, 0, target, sent);
      }
      await sql`delete from outbox`.execute(db);
      await handle.close();

      ctx = await createContext(environment.config);
      await enqueue(ctx.db, ticket, { kind: 'status', status: 'open' }, Date.now());
      const added = await ctx.db.selectFrom('outbox').select('id').executeTakeFirstOrThrow();
      expect(added.id).toBeGreaterThan(dropped);
    } finally {
      await ctx?.database.close();
      await environment.cleanup();
    }
  });
});
