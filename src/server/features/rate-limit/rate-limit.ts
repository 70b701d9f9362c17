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
  const windowStart = Math.floor(now / HOUR) * HOUR;
  const key = `${bucket}:${client}`.slice(0, 200);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limits.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (Math.random() < 0.01)
    await db
      .deleteFrom('rate_limits')
      .where('window_start', '<', windowStart - HOUR)
      .execute();
  if (Number(row.count) > limit) throw new RateLimitError(Math.ceil((windowStart + HOUR - now) / 1000));
}
