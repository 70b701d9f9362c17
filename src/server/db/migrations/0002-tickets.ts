import type { Kysely } from 'kysely';
import { type Dialect, idColumn, timeType } from '../schema-helpers.ts';

/** Support requests: visitors' uploads, tickets, their delivery outbox, used captcha solutions and rate limits. */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);

    // Who uploaded a file: a visitor's cookie id or a signed-in user, as a key; null for content files.
    await db.schema.alterTable('files').addColumn('owner_key', 'varchar(128)').execute();
    await db.schema.createIndex('files_owner').on('files').columns(['kind', 'owner_key']).execute();

    await db.schema
      .createTable('tickets')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('title', 'varchar(600)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('email', 'varchar(320)', (c) => c.notNull())
      .addColumn('channel', 'varchar(16)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('lang', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', time, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('ticket_files')
      .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('ticket_files_pk', ['ticket_id', 'file_id'])
      .execute();
    await db.schema.createIndex('ticket_files_file').on('ticket_files').column('file_id').unique().execute();

    await db.schema
      .createTable('outbox')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('target', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', time, (c) => c.notNull())
      .addColumn('locked_until', time)
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', time)
      .addColumn('created_at', time, (c) => c.notNull())
      .addUniqueConstraint('outbox_ticket_target', ['ticket_id', 'target'])
      .execute();
    await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();

    await db.schema
      .createTable('captcha_uses')
      .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('expires_at', time, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'varchar(200)', (c) => c.notNull())
      .addColumn('window_start', time, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'window_start'])
      .execute();
  };
}
