import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '../../shared/paths.ts';
import type { Executor } from '../db/database.ts';
import { readCookie, setCookie } from '../http/cookies.ts';
import { signingKey } from '../settings/signing-keys.ts';

/**
 * Proof that this browser signed in to an account before: `<user id>.<issued, Unix seconds>.<HMAC>`, signed with a
 * key kept in the settings table (every server shares it; nothing else is stored). Sent only to the calls whose
 * account-wide bounds strangers can fill, where it lets the account's own browsers past them: sign-in (wrong
 * passwords), and the calls that mail the address (the ceiling of account mails, account-mail.ts).
 */
export const DEVICE_COOKIE = 'signpost_device';
/** One cookie per call that reads it, so it is sent to nothing else. */
const DEVICE_COOKIE_PATHS = [
  apiPaths.login,
  apiPaths.signUp,
  apiPaths.passwordReset,
  apiPaths.portalIssueLinks,
] as const;
const LIFETIME_SECONDS = 365 * 24 * 60 * 60;
const deviceKey = signingKey('sign_in_device_key');

const signatureOf = (key: Buffer, userId: number, issued: number) =>
  crypto.createHmac('sha256', key).update(`sign-in-device:${userId}:${issued}`).digest();

/** The account whose sign-in this browser's device cookie proves, or null for no cookie or one not ours. */
export async function deviceUserOf(
  db: Executor,
  request: FastifyRequest,
  now = Date.now(),
): Promise<number | null> {
  const match = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(
    readCookie(request, DEVICE_COOKIE) ?? '',
  );
  if (!match) return null;
  const userId = Number(match[1]);
  const issued = Number(match[2]);
  const age = now / 1000 - issued;
  if (age < -300 || age > LIFETIME_SECONDS) return null;
  const expected = signatureOf(await deviceKey(db), userId, issued);
  const given = Buffer.from(match[3] as string, 'base64url');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? userId : null;
}

/** Sets (or renews) the device cookie for `userId` after a successful sign-in. */
export async function setDeviceCookie(
  db: Executor,
  reply: FastifyReply,
  userId: number,
  now = Date.now(),
): Promise<void> {
  const issued = Math.floor(now / 1000);
  const signature = signatureOf(await deviceKey(db), userId, issued).toString('base64url');
  const value = `${userId}.${issued}.${signature}`;
  for (const path of DEVICE_COOKIE_PATHS)
    setCookie(reply, { name: DEVICE_COOKIE, value, path, sameSite: 'Lax', maxAge: LIFETIME_SECONDS });
}
