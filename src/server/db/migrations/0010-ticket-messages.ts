import { sql, type Kysely } from 'kysely';
import { idColumn, timeType, type Dialect } from '../schema-helpers.ts';

/**
 * A request becomes a conversation. The request as sent stays on `tickets` (its description and files); what follows
 * is `ticket_messages`: the team's replies and internal notes, and the requester's own replies, each with its files
 * (`ticket_files.message_id`; null for the request's own). The outbox sends a row per ticket, message and target
 * (`outbox.message_id`, 0 for the request itself), so every reply is delivered once, however often it is tried.
 * `ticket_links` holds the hashes of private links that let a requester without an account follow the request.
 */
export function up(dialect: Dialect) {
  // The migrator wraps PostgreSQL's migrations in a transaction but not SQLite's; this one rebuilds the outbox there,
  // so it runs whole or not at all on both (a crash between dropping and renaming would otherwise lose the table).
  return async (db: Kysely<unknown>) =>
    dialect === 'sqlite' ? db.transaction().execute((trx) => migrate(dialect, trx)) : migrate(dialect, db);
}

async function migrate(dialect: Dialect, db: Kysely<unknown>) {
  const time = timeType(dialect);
  await db.schema
    .createTable('ticket_messages')
    .addColumn('id', ...idColumn(dialect))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    // Who wrote it; null once their account is gone (the name stays, as the requester read it).
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('from_team', 'integer', (c) => c.notNull())
    .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_messages_ticket')
    .on('ticket_messages')
    .columns(['ticket_id', 'id'])
    .execute();

  // The inbox lists requests by latest activity, with or without a status.
  await db.schema.createIndex('tickets_updated').on('tickets').column('updated_at').execute();

  // Private links to a request for requesters who have no account: only a hash of each link's token is kept.
  await db.schema
    .createTable('ticket_links')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ticket_links_ticket').on('ticket_links').column('ticket_id').execute();

  await db.schema
    .alterTable('ticket_files')
    .addColumn('message_id', 'integer', (c) => c.references('ticket_messages.id').onDelete('cascade'))
    .execute();

  if (dialect === 'postgres') {
    await db.schema
      .alterTable('outbox')
      .addColumn('message_id', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('outbox').dropConstraint('outbox_ticket_target').execute();
    await db.schema
      .alterTable('outbox')
      .addUniqueConstraint('outbox_ticket_message_target', ['ticket_id', 'message_id', 'target'])
      .execute();
    return;
  }
  // SQLite cannot drop a table's constraint: the outbox is made again with the new one, rows and ids kept.
  await db.schema
    .createTable('outbox_next')
    .addColumn('id', ...idColumn(dialect))
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('target', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('outbox_ticket_message_target', ['ticket_id', 'message_id', 'target'])
    .execute();
  await sql`insert into outbox_next (id, ticket_id, message_id, target, status, attempts, next_attempt_at,
      locked_until, last_error, delivered_at, created_at)
    select id, ticket_id, 0, target, status, attempts, next_attempt_at, locked_until, last_error, delivered_at,
      created_at from outbox`.execute(db);
  await db.schema.dropTable('outbox').execute();
  await db.schema.alterTable('outbox_next').renameTo('outbox').execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
}
