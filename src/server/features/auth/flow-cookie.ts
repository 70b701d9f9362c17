import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '../../../shared/paths.ts';
import { type Cookie, readCookie, setCookie } from '../../http/cookies.ts';

/**
 * Binds a browser to the account flow it started (a sign-up, an email change): a random value, of which only a hash
 * goes into the link mailed for that flow. The link signs in only in the browser that holds the value, the one
 * where the password was chosen; opened anywhere else, it asks for a password first. SameSite=Strict and a path of
 * the confirming call alone: another site cannot make the browser send it, and no other call sees it.
 */
export const FLOW_COOKIE = 'signpost_flow';
/** As long as a confirmation link lasts. */
const LIFETIME_SECONDS = 48 * 60 * 60;

export const bindingOf = (value: string) =>
  crypto.createHash('sha256').update(`account-flow:${value}`).digest('base64url').slice(0, 22);

const flowCookie = (value: string, maxAge: number): Cookie => ({
  name: FLOW_COOKIE,
  value,
  path: apiPaths.verifyEmail,
  sameSite: 'Strict',
  maxAge,
});

/**
 * A new flow: the binding its link carries, and the cookie to set once the call succeeded. A sign-up sets it
 * whatever the address turned out to be, so the answer's headers tell nothing either.
 */
export function newFlow(): { binding: string; setCookie: (reply: FastifyReply) => void } {
  const value = crypto.randomBytes(32).toString('base64url');
  return {
    binding: bindingOf(value),
    setCookie: (reply) => setCookie(reply, flowCookie(value, LIFETIME_SECONDS)),
  };
}

/** The binding of the flow cookie this browser sent, or null. */
export function flowBindingOf(request: FastifyRequest): string | null {
  const value = readCookie(request, FLOW_COOKIE);
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? bindingOf(value) : null;
}

/** The flow is over (its link used): the cookie goes. */
export function endFlow(reply: FastifyReply): void {
  setCookie(reply, flowCookie('', 0));
}
