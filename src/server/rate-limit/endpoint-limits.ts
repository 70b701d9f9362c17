import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimit } from '../../shared/api/endpoints.ts';
import type { AppContext } from '../context.ts';
import { clientKey } from './client-address.ts';
import {
  hitRateLimit,
  SIGN_IN_CLIENT_BUCKET,
  SIGN_IN_FAILURES_PER_CLIENT,
  takeAllowance,
} from './rate-limit.ts';

/** Enough for a person searching all day; a flood from one address cannot skew the search report. */
export const SEARCH_EVENTS_PER_HOUR = 600;
/**
 * Answers a requester sends in an hour, to their own requests: a conversation, not new requests, so it does not take
 * from REQUESTS_PER_HOUR (a requester answering the team would otherwise run out of requests).
 */
export const REPLIES_PER_HOUR = 120;
/**
 * Answers to "Was this helpful?" from one address in an hour: a yes or no and its reason for 60 articles, more than a
 * person reads; a script cannot tip an article's share with them (and each address keeps one answer a day anyway).
 */
export const FEEDBACK_PER_HOUR = 120;
/** Invitations an administrator's address sends in an hour: a whole team's worth, not a mailing list's. */
export const INVITES_PER_HOUR = 100;

/**
 * Makes route() hold every endpoint to the limit its entry names: each call from one address counts in the hour.
 * Sign-in counts failed guesses only, so its handler applies that limit itself (sign-in-limits.ts); sign-up and
 * reset requests count in the same allowance.
 */
export function registerRateLimits(app: FastifyInstance, { db, config }: AppContext): void {
  const perHour: Record<Exclude<RateLimit, 'sign-in' | 'account-mail'>, number> = {
    'issue-open': config.tickets.requestsPerHour,
    // An office behind one address that needs more requests an hour needs more answers too.
    reply: Math.max(REPLIES_PER_HOUR, config.tickets.requestsPerHour),
    upload: config.tickets.uploadsPerHour,
    'search-event': SEARCH_EVENTS_PER_HOUR,
    feedback: FEEDBACK_PER_HOUR,
    invite: INVITES_PER_HOUR,
  };
  app.decorate('rateLimitCheck', async (limit: RateLimit, request: FastifyRequest) => {
    if (limit === 'sign-in') return;
    // A sign-up or a reset request takes a place of the address's wrong-password allowance, and keeps it.
    if (limit === 'account-mail')
      await takeAllowance(db, SIGN_IN_CLIENT_BUCKET, clientKey(request), SIGN_IN_FAILURES_PER_CLIENT);
    else await hitRateLimit(db, limit, clientKey(request), perHour[limit]);
  });
}
