import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { signingKey } from '../settings/signing-keys.ts';
import { findLinkedTicket, insertTicketLink } from './ticket-links.repository.ts';

/** How long a private link to a request opens it; a requester asks for a new one after that. */
export const TICKET_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const linkSecret = signingKey('ticket_link_key');

const hashOf = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

/**
 * A private link's key for one request, made for one purpose (a message, a renewal): the same purpose gives the same
 * key, so a mail sent again carries the same link. Only the key's hash is stored, with its expiry.
 */
export async function saveTicketLink(
  db: Executor,
  ticketId: number,
  purpose: string,
  from: number,
): Promise<string> {
  const key = await ticketLinkKey(db, ticketId, purpose);
  await insertTicketLink(db, {
    token_hash: hashOf(key),
    ticket_id: ticketId,
    expires_at: from + TICKET_LINK_LIFETIME_MS,
    created_at: from,
  });
  return key;
}

/** Whether a key opens this request now. */
export async function isTicketLink(
  db: Executor,
  ticketId: number,
  key: string,
  now = Date.now(),
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(key)) return false;
  const link = await findLinkedTicket(db, hashOf(key));
  return link !== undefined && link.ticket_id === ticketId && Number(link.expires_at) > now;
}

/** The key `saveTicketLink` made for this request and purpose, made again (a queued mail keeps the purpose, not it). */
export async function ticketLinkKey(db: Executor, ticketId: number, purpose: string): Promise<string> {
  return crypto
    .createHmac('sha256', await linkSecret(db))
    .update(`ticket-link:${ticketId}:${purpose}`)
    .digest('base64url');
}
