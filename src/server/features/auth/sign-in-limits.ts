import type { Executor } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';
import {
  clearAllowance,
  giveBack,
  SIGN_IN_CLIENT_BUCKET,
  SIGN_IN_FAILURES_PER_CLIENT,
  takeAllowance,
} from '../../rate-limit/rate-limit.ts';
import { normalEmail } from '../../accounts/users.repository.ts';

/**
 * Wrong passwords allowed in an hour from one client address, and against one account from anywhere, before
 * sign-in is refused with 429 until the hour ends. The second bounds guessing spread over many addresses and is
 * higher, so that one address guessing cannot lock the account's owner out. A browser that signed in to the account
 * before (its device cookie) is not held by the account-wide count that anyone can fill: its wrong passwords count
 * apart, under a bound of the same size, and under its address's bound like anyone's.
 */
export { SIGN_IN_FAILURES_PER_CLIENT };
export const SIGN_IN_FAILURES_PER_ACCOUNT = 50;

const CLIENT_BUCKET = SIGN_IN_CLIENT_BUCKET;
const ACCOUNT_BUCKET = 'sign-in-failed-account';
const KNOWN_BROWSER_BUCKET = 'sign-in-failed-device';

interface Slot {
  bucket: string;
  client: string;
  limit: number;
}

/** The bounds one sign-in is held to: its address's, and the account's for strangers or for its known browsers. */
export function signInSlots(clientAddress: string, email: string, knownBrowser: boolean): Slot[] {
  return [
    { bucket: CLIENT_BUCKET, client: clientAddress, limit: SIGN_IN_FAILURES_PER_CLIENT },
    {
      bucket: knownBrowser ? KNOWN_BROWSER_BUCKET : ACCOUNT_BUCKET,
      client: normalEmail(email),
      limit: SIGN_IN_FAILURES_PER_ACCOUNT,
    },
  ];
}

/**
 * Runs a password check with a place taken under every bound first, so that guesses sent together cannot all pass a
 * bound none of them has counted yet; a refused guess costs no password hashing either. A wrong password (401)
 * keeps its places; anything else (the right password, a busy or failing server) gives them back, so an office
 * behind one address is not locked out by its own sign-ins.
 */
export async function withGuessReserved<T>(db: Executor, slots: Slot[], check: () => Promise<T>): Promise<T> {
  // One instant for taking and giving back, so a place goes back to the hour it was taken from.
  const now = Date.now();
  const taken: Slot[] = [];
  const giveAllBack = () => Promise.all(taken.map((slot) => giveBack(db, slot.bucket, slot.client, 1, now)));
  try {
    for (const slot of slots) {
      await takeAllowance(db, slot.bucket, slot.client, slot.limit, 1, now);
      taken.push(slot);
    }
    const result = await check();
    await giveAllBack();
    return result;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) await giveAllBack();
    throw error;
  }
}

/** Forgets the wrong passwords counted against an account (`signpost user unlock`); answers how many. */
export async function clearAccountFailures(db: Executor, email: string): Promise<number> {
  let cleared = 0;
  for (const bucket of [ACCOUNT_BUCKET, KNOWN_BROWSER_BUCKET])
    cleared += await clearAllowance(db, bucket, normalEmail(email));
  return cleared;
}
