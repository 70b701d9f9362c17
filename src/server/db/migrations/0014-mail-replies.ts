import type { Kysely } from 'kysely';
import { timeType, type Dialect } from '../schema-helpers.ts';

/**
 * Replies by email: every mail the poller has decided about, keyed by a hash of its Message-ID, so a mail is added to
 * a thread once however many servers read the mailbox, and an unmatched mail is reported once (it stays unread).
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema
      .createTable('mail_replies')
      .addColumn('mail_key', 'varchar(64)', (c) => c.primaryKey())
      // `stored` (added to the thread) or `unmatched` (left unread; `reason` says why).
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(64)')
      .addColumn('ticket_id', 'integer', (c) => c.references('tickets.id').onDelete('set null'))
      .addColumn('ticket_message_id', 'integer', (c) =>
        c.references('ticket_messages.id').onDelete('set null'),
      )
      .addColumn('sender', 'varchar(320)')
      .addColumn('subject', 'varchar(300)')
      .addColumn('created_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('mail_replies_outcome')
      .on('mail_replies')
      .columns(['outcome', 'created_at'])
      .execute();
  };
}
