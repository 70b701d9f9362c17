import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';

const HOUR = 60 * 60 * 1000;

export class RateLimitError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      'rate_limited',
      `Too many requests; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`,
    );
  }
}

/**
 * Counts one use of `bucket` by `client` in the current hour and refuses past `limit`. The counters live in the
 * database, so every server behind a load balancer shares them.
 */
export async function hitRateLimit(
  db: Executor,
  bucket: string,
  client: string,
  limit: number,
  now = Date.now(),
) {
  const count = await countUse(db, bucket, client, now);
  if (count > limit) throw new RateLimitError(secondsLeft(now));
}

/** Counts one use of `bucket` by `client` in the current hour; answers the hour's count so far. */
export async function countUse(
  db: Executor,
  bucket: string,
  client: string,
  now = Date.now(),
): Promise<number> {
  const windowStart = windowOf(now);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: keyOf(bucket, client), window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limits.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (Math.random() < 0.01) await sweep(db, windowStart);
  return Number(row.count);
}

/**
 * Takes `amount` of `client`'s allowance in `bucket` for the current hour, or refuses (RateLimitError) when that
 * would pass `limit`, taking nothing. One conditional upsert: requests arriving together cannot all pass a check
 * made before any of them counted, as a read followed by a later increment would let them. Answers the hour's
 * count with it.
 */
export async function takeAllowance(
  db: Executor,
  bucket: string,
  client: string,
  limit: number,
  amount = 1,
  now = Date.now(),
): Promise<number> {
  if (amount > limit) throw new RateLimitError(secondsLeft(now));
  const windowStart = windowOf(now);
  const row = await db
    .insertInto('rate_limits')
    .values({ key: keyOf(bucket, client), window_start: windowStart, count: amount })
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet({ count: sql`rate_limits.count + ${amount}` })
        .where(sql<number>`rate_limits.count + ${amount}`, '<=', limit),
    )
    .returning('count')
    .executeTakeFirst();
  // No row: the row exists and the update's condition refused it.
  if (!row) throw new RateLimitError(secondsLeft(now));
  if (Math.random() < 0.01) await sweep(db, windowStart);
  return Number(row.count);
}

/**
 * Gives back `amount` taken by takeAllowance (e.g. a sign-in that turned out right, an upload that failed). Pass the
 * `now` the allowance was taken with, so it goes back to the hour it came from; never below zero.
 */
export async function giveBack(
  db: Executor,
  bucket: string,
  client: string,
  amount = 1,
  now = Date.now(),
): Promise<void> {
  if (amount <= 0) return;
  await db
    .updateTable('rate_limits')
    .set({
      count: sql`case when rate_limits.count > ${amount} then rate_limits.count - ${amount} else 0 end`,
    })
    .where('key', '=', keyOf(bucket, client))
    .where('window_start', '=', windowOf(now))
    .execute();
}

/** Forgets `client`'s use of `bucket` in every hour; answers how much was counted. */
export async function clearAllowance(db: Executor, bucket: string, client: string): Promise<number> {
  const rows = await db
    .deleteFrom('rate_limits')
    .where('key', '=', keyOf(bucket, client))
    .returning('count')
    .execute();
  return rows.reduce((sum, row) => sum + Number(row.count), 0);
}

const sweep = (db: Executor, windowStart: number) =>
  db
    .deleteFrom('rate_limits')
    .where('window_start', '<', windowStart - HOUR)
    .execute();

/**
 * What `client` has used of `bucket` in this hour and the one before, for uses that outlast the hour they began
 * in (an upload under way at the top of the hour) without letting a lost give-back count for longer than that.
 */
export async function recentUse(db: Executor, bucket: string, client: string, now = Date.now()) {
  const row = await db
    .selectFrom('rate_limits')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('count'), eb.lit(0)).as('used'))
    .where('key', '=', keyOf(bucket, client))
    .where('window_start', '>=', windowOf(now) - HOUR)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

const windowOf = (now: number) => Math.floor(now / HOUR) * HOUR;
const keyOf = (bucket: string, client: string) => `${bucket}:${client}`.slice(0, 200);
const secondsLeft = (now: number) => Math.ceil((windowOf(now) + HOUR - now) / 1000);
