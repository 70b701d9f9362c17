import type { FastifyInstance } from 'fastify';
import { AUTH_HEADER } from '../../../shared/api/auth.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { giveBack, takeAllowance } from '../rate-limit/rate-limit.ts';
import { authenticate, login, logout, presentUser } from './auth.service.ts';
import { deviceUserOf, setDeviceCookie } from './device-cookie.ts';
import { findUserByEmail, normalEmail } from './users.repository.ts';

/**
 * Wrong passwords allowed in an hour from one client address, and against one account from anywhere, before
 * sign-in is refused with 429 until the hour ends. The second bounds guessing spread over many addresses and is
 * higher, so that one address guessing cannot lock the account's owner out. A browser that signed in to the account
 * before (its device cookie) is not held by the account-wide count that anyone can fill: its wrong passwords count
 * apart, under a bound of the same size, and under its address's bound like anyone's.
 */
export const SIGN_IN_FAILURES_PER_CLIENT = 20;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 50;

/** The rate-limit buckets of sign-in failures against one account (keyed by its email), for `user unlock`. */
export const ACCOUNT_FAILURE_BUCKETS = ['sign-in-failed-account', 'sign-in-failed-device'] as const;

export function registerAuthRoutes(app: FastifyInstance, { db, passwords, config }: AppContext): void {
  const secure = config.publicUrl.startsWith('https:');
  route(app, endpoints.getMe, async (request) =>
    presentUser(await authenticate(db, request.headers[AUTH_HEADER])),
  );
  route(app, endpoints.login, async (request, reply) => {
    const { email, password } = request.body;
    const account = normalEmail(email);
    const deviceUser = await deviceUserOf(db, request);
    const knownBrowser = deviceUser !== null && (await findUserByEmail(db, account))?.id === deviceUser;
    const slots = [
      { bucket: 'sign-in-failed', client: request.ip, limit: SIGN_IN_FAILURES_PER_CLIENT },
      {
        bucket: knownBrowser ? 'sign-in-failed-device' : 'sign-in-failed-account',
        client: account,
        limit: SIGN_IN_FAILURES_PER_ACCOUNT,
      },
    ];
    const result = await withGuessReserved(db, slots, () => login(db, passwords, email, password));
    await setDeviceCookie(db, reply, result.user.id, secure);
    return result;
  });
  route(app, endpoints.logout, async (request) => {
    await logout(db, request.headers[AUTH_HEADER]);
    return { ok: true as const };
  });
}

interface Slot {
  bucket: string;
  client: string;
  limit: number;
}

/**
 * Runs a password check with a place taken under every bound first, so that guesses sent together cannot all pass a
 * bound none of them has counted yet; a refused guess costs no password hashing either. A wrong password (401)
 * keeps its places; anything else (the right password, a busy or failing server) gives them back, so an office
 * behind one address is not locked out by its own sign-ins.
 */
async function withGuessReserved<T>(db: Executor, slots: Slot[], check: () => Promise<T>): Promise<T> {
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
