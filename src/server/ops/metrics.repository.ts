import type { Executor } from '../db/database.ts';

/** Pending and failed deliveries per target and status: how many, and when the oldest was queued (the metrics). */
export function outboxBacklog(db: Executor) {
  return db
    .selectFrom('outbox')
    .select(['target', 'status'])
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy(['target', 'status'])
    .execute();
}

/** Mails the reply poller left unread for the team, by reason (the mailbox's own count of them may differ). */
export function unmatchedMailCounts(db: Executor) {
  return db
    .selectFrom('mail_replies')
    .select('reason')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('outcome', '=', 'unmatched')
    .groupBy('reason')
    .execute();
}
