import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import type { UserRow } from '../db/tables.ts';
import { signingKey } from '../settings/signing-keys.ts';

/**
 * What an emailed link lets its holder do: confirm the account's email, choose a new password, move the account to
 * a new email, or accept the team's invitation (choose the first password, which confirms the email).
 */
export type LinkPurpose = 'verify' | 'reset' | 'email' | 'invite';

/** An invitation waits longer than a reset link: the invitee did not ask for it and may read their mail later. */
export const INVITE_LIFETIME_DAYS = 7;

const LIFETIME_MS: Record<LinkPurpose, number> = {
  verify: 48 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  email: 24 * 60 * 60 * 1000,
  invite: INVITE_LIFETIME_DAYS * 24 * 60 * 60 * 1000,
};

interface LinkClaims {
  p: LinkPurpose;
  u: number;
  /** The address the link was mailed to. */
  e: string;
  /** Expiry, ms since the epoch. */
  x: number;
  /** The account's state when the link was made: any use changes it, so a link works once. */
  s: string;
  /**
   * The hash of the flow cookie of the browser that asked for the link (a sign-up, an email change): opened in that
   * browser, the link signs in; elsewhere its opener chooses a password first (account.service.ts, verifyEmail).
   */
  b?: string;
}

const accountLinkKey = signingKey('account-link-key');

/** The password hash, email and verification together: each use of a link changes one of them. */
const stateOf = (user: UserRow) =>
  crypto
    .createHash('sha256')
    .update(`${user.password_hash}\n${user.email}\n${user.email_verified_at ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

const mac = (key: Buffer, payload: string) =>
  crypto.createHmac('sha256', key).update(payload).digest('base64url');

/**
 * A link's token: its claims and their signature, nothing stored. It expires, and works only while the account is
 * as it was when the link was made, so a used link (or one made before a newer password) is void.
 */
export async function makeLinkToken(
  db: Executor,
  purpose: LinkPurpose,
  user: UserRow,
  sentTo: string,
  now = Date.now(),
  binding: string | null = null,
): Promise<string> {
  const claims: LinkClaims = {
    p: purpose,
    u: user.id,
    e: sentTo,
    x: now + LIFETIME_MS[purpose],
    s: stateOf(user),
    ...(binding !== null && { b: binding }),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(await accountLinkKey(db), payload)}`;
}

/** The claims of a token made here for this purpose and still valid, or null. */
export async function readLinkToken(
  db: Executor,
  purpose: LinkPurpose,
  token: string,
  findUser: (id: number) => Promise<UserRow | undefined>,
  now = Date.now(),
): Promise<{ user: UserRow; sentTo: string; binding: string | null } | null> {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(await accountLinkKey(db), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  let claims: LinkClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
  } catch {
    return null;
  }
  if (claims.p !== purpose || typeof claims.u !== 'number' || claims.x <= now) return null;
  const user = await findUser(claims.u);
  if (!user || stateOf(user) !== claims.s) return null;
  return { user, sentTo: claims.e, binding: typeof claims.b === 'string' ? claims.b : null };
}
