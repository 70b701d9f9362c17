import type { Executor } from '../db/database.ts';
import type { AccountMailRow } from '../db/tables.ts';

export async function insertAccountMail(
  db: Executor,
  mail: { to: string; mail: string; now: number },
): Promise<void> {
  await db
    .insertInto('account_mails')
    .values({
      to_address: mail.to,
      mail: mail.mail,
      status: 'pending',
      attempts: 0,
      next_attempt_at: mail.now,
      created_at: mail.now,
    })
    .execute();
}

/** The next mail a pass may try to claim: pending, due, and not held by a sending in flight elsewhere. */
export function findDueAccountMail(
  db: Executor,
  now: number,
): Promise<Pick<AccountMailRow, 'id'> | undefined> {
  return db
    .selectFrom('account_mails')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Takes one mail for this server; the UPDATE checks the conditions again, so of two servers only one gets it. */
export function claimAccountMail(
  db: Executor,
  id: number,
  now: number,
  lockedUntil: number,
): Promise<AccountMailRow | undefined> {
  return db
    .updateTable('account_mails')
    .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Sent (or nothing left to send): true whoever else may have claimed the row since. */
export async function markAccountMailSent(db: Executor, id: number, now: number): Promise<void> {
  await db
    .updateTable('account_mails')
    .set({ status: 'delivered', sent_at: now, locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** A failed attempt, unless the row moved on meanwhile (sent, or claimed again after our lock ran out). */
export async function recordAccountMailFailure(
  db: Executor,
  claimed: AccountMailRow,
  outcome: { status: 'pending' | 'failed'; nextAttemptAt: number; error: string },
): Promise<void> {
  await db
    .updateTable('account_mails')
    .set({
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt,
      last_error: outcome.error,
      locked_until: null,
    })
    .where('id', '=', claimed.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', claimed.attempts)
    .execute();
}

/** Forgets mails made before `before` that are done with (sent, or failed for good). */
export async function deleteFinishedAccountMails(db: Executor, before: number): Promise<void> {
  await db
    .deleteFrom('account_mails')
    .where('created_at', '<', before)
    .where('status', '!=', 'pending')
    .execute();
}
