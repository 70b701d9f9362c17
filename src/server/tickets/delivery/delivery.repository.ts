import type { Executor } from '../../db/database.ts';
import type { OutboxRow } from '../../db/tables.ts';

/** The next row a pass may try to claim: pending, due, and not held by a delivery in flight elsewhere. */
export function findDueDelivery(db: Executor, now: number): Promise<Pick<OutboxRow, 'id'> | undefined> {
  return db
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Takes one row for this server. The conditions are checked again by the UPDATE itself, so of two servers that
 * picked the same row only one gets it back; the other sees no row and moves on.
 */
export function claimDelivery(
  db: Executor,
  id: number,
  now: number,
  lockedUntil: number,
): Promise<OutboxRow | undefined> {
  return db
    .updateTable('outbox')
    .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** The receiver accepted it: that stays true whoever else may have claimed the row since. */
export async function markDelivered(db: Executor, id: number, now: number): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'delivered', delivered_at: now, locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Records a failed attempt, unless the row moved on meanwhile (delivered, or claimed again after our lock ran out):
 * a late failure must not undo another server's success.
 */
export async function recordFailure(
  db: Executor,
  claimed: OutboxRow,
  outcome: { status: 'pending' | 'failed'; nextAttemptAt: number; error: string },
): Promise<void> {
  await db
    .updateTable('outbox')
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
