import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { apiPaths, href } from '../../shared/paths.ts';
import type { Executor } from '../db/database.ts';
import type { TicketRow, UserRow } from '../db/tables.ts';
import { type Cookie, readCookie } from '../http/cookies.ts';
import { signingKey } from '../settings/signing-keys.ts';
import { TICKET_LINK_LIFETIME_MS } from './ticket-links.ts';

/** How long the browser that sent a request for an unproved address may follow it, at most (as a private link). */
export const SENDER_ACCESS_MS = TICKET_LINK_LIFETIME_MS;
const cookieSecret = signingKey('sender_cookie_key');

/** One cookie per request, named by it: each page and call is sent its own, so many requests never add up. */
export const senderCookieName = (ticketId: number) => `signpost_request_${ticketId}`;

/** Where the cookie goes: the request's page and its calls (reply and status under the same path), nowhere else. */
export const senderCookiePaths = (ticketId: number) => [
  href.portalIssue(ticketId),
  apiPaths.portalIssue.replace(':id', String(ticketId)),
];

const cookieValue = async (db: Executor, ticket: Pick<TicketRow, 'id' | 'created_at'>) =>
  crypto
    .createHmac('sha256', await cookieSecret(db))
    .update(`sender-cookie:${ticket.id}:${Number(ticket.created_at)}`)
    .digest('base64url');

/**
 * Whether the address a request names was proved by its sender: a signed-in account whose email is confirmed and is
 * that address. Otherwise anyone could have typed it, and the mail to it carries none of their words.
 */
export function provesAddress(user: UserRow | null, email: string): boolean {
  return (
    user !== null &&
    user.email_verified_at !== null &&
    user.email.trim().toLowerCase() === email.trim().toLowerCase()
  );
}

/**
 * Whether the request was sent for an address nobody proved and its owner has not taken it up (opened a mailed link,
 * answered by mail, confirmed an account for it): until then its title and name are whoever typed the address's.
 */
export const awaitsOwner = (ticket: Pick<TicketRow, 'sender_access_until'>) =>
  ticket.sender_access_until !== null && Number(ticket.sender_access_until) !== 0;

/** Whether the sender (their browser, or their account) still opens a request sent for an unproved address. */
export const senderMayOpen = (ticket: TicketRow, now = Date.now()) =>
  ticket.sender_access_until === null || Number(ticket.sender_access_until) > now;

/**
 * The cookies that let the browser which sent a request follow it without the private link, which goes to the
 * address alone: SameSite=Strict, one per path, for as long as the sender's access lasts.
 */
export async function senderCookies(db: Executor, ticket: TicketRow, now = Date.now()): Promise<Cookie[]> {
  const value = await cookieValue(db, ticket);
  const maxAge = Math.max(0, Math.floor((Number(ticket.sender_access_until) - now) / 1000));
  const name = senderCookieName(ticket.id);
  return senderCookiePaths(ticket.id).map((path) => ({ name, value, path, maxAge, sameSite: 'Strict' }));
}

/** The request's cookie as the browser sent it, if any. */
export const senderCookieOf = (request: FastifyRequest, ticketId: number): string | undefined =>
  readCookie(request, senderCookieName(ticketId));

/** Whether the cookie opens this request now: it is the request's own, and its owner has not taken it up. */
export async function opensBySenderCookie(
  db: Executor,
  ticket: TicketRow,
  cookie: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!cookie || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) return false;
  if (ticket.sender_access_until === null || !senderMayOpen(ticket, now)) return false;
  return crypto.timingSafeEqual(Buffer.from(await cookieValue(db, ticket)), Buffer.from(cookie));
}
