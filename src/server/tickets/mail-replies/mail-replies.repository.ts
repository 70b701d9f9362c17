import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { MailReplyTable } from '../../db/tables.ts';

export type MailReplyRecord = Insertable<MailReplyTable>;

/** What was decided about a mail already, if anything: the poller skips it, or only marks it read. */
export function findMailReply(db: Executor, mailKey: string) {
  return db
    .selectFrom('mail_replies')
    .select(['mail_key', 'outcome', 'reason', 'ticket_id'])
    .where('mail_key', '=', mailKey)
    .executeTakeFirst();
}

/**
 * Claims a mail for the thread, in the transaction that stores its message: a server reading the same mail at the
 * same moment waits here, then fails on the key and rolls back.
 */
export async function claimMailReply(db: Executor, record: MailReplyRecord): Promise<void> {
  await db.insertInto('mail_replies').values(record).execute();
}

export async function setMailReplyMessage(db: Executor, mailKey: string, messageId: number): Promise<void> {
  await db
    .updateTable('mail_replies')
    .set({ ticket_message_id: messageId })
    .where('mail_key', '=', mailKey)
    .execute();
}

/** Records an unmatched mail once; answers whether this call recorded it (so it is reported once). */
export async function recordUnmatchedMail(db: Executor, record: MailReplyRecord): Promise<boolean> {
  const result = await db
    .insertInto('mail_replies')
    .values(record)
    .onConflict((oc) => oc.column('mail_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
