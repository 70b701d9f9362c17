import type { FastifyInstance } from 'fastify';
import { AUTH_HEADER } from '../../../shared/api/auth.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../rate-limit/client-address.ts';
import { checkRateLimit, countUse } from '../rate-limit/rate-limit.ts';
import { authenticate, login, logout, presentUser } from './auth.service.ts';
import { normalEmail } from './users.repository.ts';

/**
 * Wrong passwords allowed in an hour from one client address, and against one account from anywhere, before
 * sign-in is refused with 429 until the hour ends. The second bounds guessing spread over many addresses and is
 * higher, so that one address guessing cannot lock the account's owner out.
 */
export const SIGN_IN_FAILURES_PER_CLIENT = 20;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 50;

export function registerAuthRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.getMe, async (request) =>
    presentUser(await authenticate(db, request.headers[AUTH_HEADER])),
  );
  route(app, endpoints.login, async (request) => {
    const { email, password } = request.body;
    const account = normalEmail(email);
    // Checked before the password, so a refused guess costs no password hashing either.
    await checkRateLimit(db, 'sign-in-failed', clientKey(request), SIGN_IN_FAILURES_PER_CLIENT);
    await checkRateLimit(db, 'sign-in-failed-account', account, SIGN_IN_FAILURES_PER_ACCOUNT);
    try {
      return await login(db, email, password);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await countUse(db, 'sign-in-failed', clientKey(request));
        await countUse(db, 'sign-in-failed-account', account);
      }
      throw error;
    }
  });
  route(app, endpoints.logout, async (request) => {
    await logout(db, request.headers[AUTH_HEADER]);
    return { ok: true as const };
  });
}
