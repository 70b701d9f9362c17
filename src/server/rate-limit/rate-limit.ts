import type { Executor } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import {
  addToCounter,
  addToCounterUpTo,
  deleteCounters,
  deleteCountersBefore,
  subtractFromCounter,
  sumCountersSince,
} from './rate-limit.repository.ts';

const HOUR = 60 * 60 * 1000;

/**
 * The count of one client address's wrong passwords (sign-in-limits.ts), which sign-ups and reset requests also
 * take from: guessing and mailing share one allowance per address.
 */
export const SIGN_IN_CLIENT_BUCKET = 'sign-in-failed';
export const SIGN_IN_FAILURES_PER_CLIENT = 20;

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
  const count = await addToCounter(db, keyOf(bucket, client), windowStart, 1);
  if (Math.random() < 0.01) await deleteCountersBefore(db, windowStart - HOUR);
  return count;
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
  const count = await addToCounterUpTo(db, keyOf(bucket, client), windowStart, amount, limit);
  // No count: the row exists and the update's condition refused it.
  if (count === undefined) throw new RateLimitError(secondsLeft(now));
  if (Math.random() < 0.01) await deleteCountersBefore(db, windowStart - HOUR);
  return count;
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
  await subtractFromCounter(db, keyOf(bucket, client), windowOf(now), amount);
}

/** Forgets `client`'s use of `bucket` in every hour; answers how much was counted. */
export async function clearAllowance(db: Executor, bucket: string, client: string): Promise<number> {
  return deleteCounters(db, keyOf(bucket, client));
}

/**
 * What `client` has used of `bucket` in this hour and the one before, for uses that outlast the hour they began
 * in (an upload under way at the top of the hour) without letting a lost give-back count for longer than that.
 */
export async function recentUse(db: Executor, bucket: string, client: string, now = Date.now()) {
  return sumCountersSince(db, keyOf(bucket, client), windowOf(now) - HOUR);
}

const windowOf = (now: number) => Math.floor(now / HOUR) * HOUR;
const keyOf = (bucket: string, client: string) => `${bucket}:${client}`.slice(0, 200);
const secondsLeft = (now: number) => Math.ceil((windowOf(now) + HOUR - now) / 1000);
