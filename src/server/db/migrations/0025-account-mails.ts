import type { Kysely } from 'kysely';
import { type Dialect, idColumn, timeType } from '../schema-helpers.ts';

/**
 * The account mails' outbox (confirm, reset, invitation, links to requests, the notes that stand in for them): a
 * request stores what to send, and a worker on any server claims the row and sends it, retrying, so every request
 * for an address answers after the same work whatever the mail turns out to be. `mail` is the kind and what it
 * points at (JSON); a link's token is made when the mail is sent, so none is stored here.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema
      .createTable('account_mails')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
      .addColumn('mail', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', time, (c) => c.notNull())
      .addColumn('locked_until', time)
      .addColumn('last_error', 'text')
      .addColumn('sent_at', time)
      .addColumn('created_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('account_mails_due')
      .on('account_mails')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema.createIndex('account_mails_created').on('account_mails').column('created_at').execute();
  };
}
