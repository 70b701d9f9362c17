import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { signingKey } from '../settings/signing-keys.ts';

const replyKey = signingKey('mail_reply_key');

/** 96 bits of an HMAC, in lower-case hex: mail systems may change the case of a header but never its letters. */
const TOKEN = /^[0-9a-f]{24}$/i;

const tokenWith = (key: Buffer, ticketId: number) =>
  crypto.createHmac('sha256', key).update(`mail-reply:${ticketId}`).digest('hex').slice(0, 24);

/**
 * The signature the mails a requester may answer carry in their Message-ID (`<ticket-12-message-34.TOKEN@signpost>`):
 * their mail client sends it back in In-Reply-To and References, and only a mail we sent about that request can have
 * it, so a number guessed or changed by hand matches nothing.
 */
export async function replyTokenOf(db: Executor, ticketId: number): Promise<string> {
  return tokenWith(await replyKey(db), ticketId);
}

/** Whether `token` is the request's own signature. */
export async function isReplyToken(db: Executor, ticketId: number, token: string): Promise<boolean> {
  if (!TOKEN.test(token)) return false;
  const expected = Buffer.from(tokenWith(await replyKey(db), ticketId));
  return crypto.timingSafeEqual(expected, Buffer.from(token.toLowerCase()));
}

/** A signed id in a Message-ID we made: the request's number and the token it claims. */
export interface ReplyReference {
  ticketId: number;
  token: string;
}

const SIGNED_ID = /<ticket-(\d{1,15})-(?:received|message-\d{1,15})\.([0-9a-f]{24})@signpost>/gi;

/** The signed ids among the Message-IDs a mail answers (its In-Reply-To and References), nearest first. */
export function replyReferencesIn(headers: string[]): ReplyReference[] {
  const found: ReplyReference[] = [];
  for (const header of headers) {
    for (const match of header.matchAll(SIGNED_ID)) {
      const ticketId = Number(match[1]);
      if (Number.isSafeInteger(ticketId)) found.push({ ticketId, token: match[2]!.toLowerCase() });
    }
  }
  return found;
}
