import { sql, type Kysely } from 'kysely';
import { idColumn, timeType, type Dialect } from '../schema-helpers.ts';

/**
 * What an outbox row is about, in columns of its own: `kind` says whether it delivers the request itself
 * ('request'), one message of its thread ('message', with `message_id`) or a change of status ('status', with the
 * change's number `status_number`, 1 for the request's first, and the status it went to, `status_to`). Until now the
 * kind was packed into the sign of `message_id` (0 the request, positive a message, negative a change of status,
 * holding the change's number times 8 plus the status's place in the list of statuses of the day). Every row keeps
 * its id, ticket, message and change number, so a delivery still pending is sent with the same Idempotency-Key and
 * Message-ID as before.
 */
export function up(dialect: Dialect) {
  // As 0010: the outbox is made again on SQLite, so the migration runs whole or not at all there too.
  return async (db: Kysely<unknown>) =>
    dialect === 'sqlite' ? db.transaction().execute((trx) => migrate(dialect, trx)) : migrate(dialect, db);
}

/** The statuses in the order the packed ids counted them (shared/constants' TICKET_STATUSES when they were made). */
const PACKED_STATUSES = ['new', 'open', 'waiting', 'solved', 'closed'];

const statusOfPacked = sql.raw(
  `case (-message_id) % 8 ${PACKED_STATUSES.map((status, i) => `when ${i} then '${status}'`).join(' ')} end`,
);

const kindOfPacked = sql`case when message_id > 0 then 'message' when message_id = 0 then 'request' else 'status' end`;
const numberOfPacked = sql`case when message_id < 0 then (-message_id) / 8 end`;
const statusToOfPacked = sql`case when message_id < 0 then ${statusOfPacked} end`;
const messageOfPacked = sql`case when message_id > 0 then message_id end`;

async function migrate(dialect: Dialect, db: Kysely<unknown>) {
  if (dialect === 'postgres') await convertInPlace(db);
  else await rebuild(db);
  // One delivery per request and target, per message and target, and per change of status (the webhook's alone).
  await sql`create unique index outbox_request on outbox (ticket_id, target) where kind = 'request'`.execute(
    db,
  );
  await sql`create unique index outbox_message on outbox (message_id, target) where kind = 'message'`.execute(
    db,
  );
  await sql`create unique index outbox_status on outbox (ticket_id, status_number) where kind = 'status'`.execute(
    db,
  );
}

/** PostgreSQL changes the table where it is: its rows, ids and id sequence stay. */
async function convertInPlace(db: Kysely<unknown>) {
  await db.schema
    .alterTable('outbox')
    .addColumn('kind', 'varchar(16)')
    .addColumn('status_number', 'integer')
    .addColumn('status_to', 'varchar(16)')
    .execute();
  await db.schema
    .alterTable('outbox')
    .alterColumn('message_id', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('outbox')
    .alterColumn('message_id', (c) => c.dropDefault())
    .execute();
  await sql`update outbox set kind = ${kindOfPacked}, status_number = ${numberOfPacked},
    status_to = ${statusToOfPacked}, message_id = ${messageOfPacked}`.execute(db);
  await db.schema
    .alterTable('outbox')
    .alterColumn('kind', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('outbox').dropConstraint('outbox_ticket_message_target').execute();
}

/**
 * SQLite cannot drop a table's constraint: the outbox is made again, every row with its id, and the ids go on from
 * where they were (a deleted row's id is never given again: it names a delivery in X-Signpost-Delivery).
 */
async function rebuild(db: Kysely<unknown>) {
  const time = timeType('sqlite');
  await db.schema
    .createTable('outbox_next')
    .addColumn('id', ...idColumn('sqlite'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('message_id', 'integer')
    .addColumn('status_number', 'integer')
    .addColumn('status_to', 'varchar(16)')
    .addColumn('target', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await sql`insert into outbox_next (id, ticket_id, kind, message_id, status_number, status_to, target, status,
      attempts, next_attempt_at, locked_until, last_error, delivered_at, created_at)
    select id, ticket_id, ${kindOfPacked}, ${messageOfPacked}, ${numberOfPacked}, ${statusToOfPacked},
      target, status, attempts, next_attempt_at, locked_until, last_error, delivered_at, created_at
    from outbox`.execute(db);
  await sql`update sqlite_sequence set seq = max(seq, coalesce((select seq from sqlite_sequence where name = 'outbox'), 0))
    where name = 'outbox_next'`.execute(db);
  await db.schema.dropTable('outbox').execute();
  await db.schema.alterTable('outbox_next').renameTo('outbox').execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
}
