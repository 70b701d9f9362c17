import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { LEGACY_REPLY_TOKEN_DAYS, LEGACY_REPLY_TOKENS_UNTIL } from '../db/schema-values.ts';
import { insertSettingIfAbsent, readSetting } from '../settings/settings.repository.ts';
import { signingKey } from '../settings/signing-keys.ts';

const replyKey = signingKey('mail_reply_key');

/** 96 bits of an HMAC, in lower-case hex: mail systems may change the case of a header but never its letters. */
const TOKEN = /^[0-9a-f]{24}$/i;

/** What a mail we sent is about: a request's receipt, or one message of its thread. */
export type ReplyPart = 'received' | `message-${number}`;

const hmac = (key: Buffer, text: string) =>
  crypto.createHmac('sha256', key).update(text).digest('hex').slice(0, 24);

const sameToken = (expected: string, token: string) =>
  TOKEN.test(token) && crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(token.toLowerCase()));

/**
 * The signature a mail the requester may answer carries in its Message-ID (`<ticket-12-message-34.TOKEN@signpost>`),
 * made for that mail and that recipient: their mail client sends it back in In-Reply-To and References, and it
 * opens nothing else (another message, another request, another address), so neither a number guessed or changed
 * by hand nor a token read in one mail matches anything more.
 */
export async function replyTokenFor(
  db: Executor,
  ticketId: number,
  part: ReplyPart,
  recipient: string,
): Promise<string> {
  return hmac(await replyKey(db), `mail-reply:${ticketId}:${part}:${recipient.trim().toLowerCase()}`);
}

/** The one token every mail about a request carried before signatures were made per mail and recipient. */
export async function legacyReplyTokenOf(db: Executor, ticketId: number): Promise<string> {
  return hmac(await replyKey(db), `mail-reply:${ticketId}`);
}

/** Whether `token` is a request's old token, whatever its age (to tell an unknown request from a forged one). */
export async function isLegacyReplyToken(db: Executor, ticketId: number, token: string): Promise<boolean> {
  return sameToken(await legacyReplyTokenOf(db, ticketId), token);
}

/**
 * Whether a signed id was made for this recipient (the request's address) by us: its own token, or the request's
 * old one while mail sent before the release may still be answered (migration 0026 wrote until when).
 */
export async function isReplyToken(
  db: Executor,
  reference: ReplyReference,
  recipient: string,
  now = Date.now(),
): Promise<boolean> {
  if (sameToken(await replyTokenFor(db, reference.ticketId, reference.part, recipient), reference.token))
    return true;
  return (
    (await legacyTokensUntil(db, now)) > now && isLegacyReplyToken(db, reference.ticketId, reference.token)
  );
}

/**
 * Until when old tokens are accepted: written by migration 0026; a database restored from a backup made before it
 * has none, and starts its 90 days on the first reply read (its mail may well be older than the new install).
 */
async function legacyTokensUntil(db: Executor, now: number): Promise<number> {
  const until = await readSetting<number>(db, LEGACY_REPLY_TOKENS_UNTIL);
  if (until !== undefined) return until;
  await insertSettingIfAbsent(
    db,
    LEGACY_REPLY_TOKENS_UNTIL,
    now + LEGACY_REPLY_TOKEN_DAYS * 24 * 60 * 60 * 1000,
  );
  return (await readSetting<number>(db, LEGACY_REPLY_TOKENS_UNTIL)) ?? 0;
}

/** A signed id in a Message-ID we made: the request's number, what the mail was about, and the token it claims. */
export interface ReplyReference {
  ticketId: number;
  part: ReplyPart;
  token: string;
}

const SIGNED_ID = /<ticket-(\d{1,15})-(received|message-\d{1,15})\.([0-9a-f]{24})@signpost>/gi;

/** The signed ids among the Message-IDs a mail answers (its In-Reply-To and References), nearest first. */
export function replyReferencesIn(headers: string[]): ReplyReference[] {
  const found: ReplyReference[] = [];
  for (const header of headers) {
    for (const match of header.matchAll(SIGNED_ID)) {
      const ticketId = Number(match[1]);
      const part = match[2]!.toLowerCase() as ReplyPart;
      if (Number.isSafeInteger(ticketId)) found.push({ ticketId, part, token: match[3]!.toLowerCase() });
    }
  }
  return found;
}
