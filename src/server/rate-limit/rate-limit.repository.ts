import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/** Adds `amount` to the counter of `key` in the hour starting at `windowStart`; answers the new count. */
export async function addToCounter(
  db: Executor,
  key: string,
  windowStart: number,
  amount: number,
): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: amount })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limits.count + ${amount}` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Adds `amount` to the counter unless that would pass `limit`, in one conditional upsert; answers the new count,
 * or undefined when the counter was left as it was.
 */
export async function addToCounterUpTo(
  db: Executor,
  key: string,
  windowStart: number,
  amount: number,
  limit: number,
): Promise<number | undefined> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: amount })
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet({ count: sql`rate_limits.count + ${amount}` })
        .where(sql<number>`rate_limits.count + ${amount}`, '<=', limit),
    )
    .returning('count')
    .executeTakeFirst();
  return row ? Number(row.count) : undefined;
}

/** Takes `amount` off the counter of `key` in the hour starting at `windowStart`, never below zero. */
export async function subtractFromCounter(
  db: Executor,
  key: string,
  windowStart: number,
  amount: number,
): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({
      count: sql`case when rate_limits.count > ${amount} then rate_limits.count - ${amount} else 0 end`,
    })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .execute();
}

/** Deletes every hour's counter of `key`; answers their sum. */
export async function deleteCounters(db: Executor, key: string): Promise<number> {
  const rows = await db.deleteFrom('rate_limits').where('key', '=', key).returning('count').execute();
  return rows.reduce((sum, row) => sum + Number(row.count), 0);
}

/** Deletes the counters of hours that started before `before`. */
export async function deleteCountersBefore(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
}

/** The sum of `key`'s counters for the hours starting at `since` or later. */
export async function sumCountersSince(db: Executor, key: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('count'), eb.lit(0)).as('used'))
    .where('key', '=', key)
    .where('window_start', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}
