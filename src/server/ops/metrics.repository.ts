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
