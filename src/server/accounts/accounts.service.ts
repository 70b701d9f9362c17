import type { UserRole } from '../../shared/constants.ts';
import crypto from 'node:crypto';
import type { AuthUser, LoginResult } from '../../shared/api/auth.ts';
import type { Executor } from '../db/database.ts';
import type { UserRow } from '../db/tables.ts';
import { ApiError } from '../http/errors.ts';
import { EMAIL_PATTERN } from '../lib/email-address.ts';
import { PasswordsBusyError, type Passwords } from './password.ts';
import {
  deleteExpiredTokens,
  deleteToken,
  findUserByEmail,
  findUserByTokenHash,
  findUsersByTokenHashes,
  insertToken,
  insertUser,
  normalEmail,
  replacePasswordHash,
} from './users.repository.ts';

export const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export { EMAIL_PATTERN } from '../lib/email-address.ts';

export const presentUser = (user: UserRow): AuthUser => ({
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
});

/**
 * The password of an account the team invited, until the invitee chooses one through the invitation's link: no
 * password matches it, and with its email unconfirmed the account cannot sign in.
 */
export const NO_PASSWORD = '';

/** Invited and not yet accepted: a customer with no password chosen and an unconfirmed email. */
export const isInvited = (user: UserRow) =>
  user.role === 'customer' && user.email_verified_at === null && user.password_hash === NO_PASSWORD;

/** Only a hash of a token is stored: a copy of the database does not let anyone sign in. */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);

export async function createUser(
  db: Executor,
  passwords: Passwords,
  input: { email: string; name: string; password: string; role: UserRole },
): Promise<UserRow> {
  const email = normalEmail(input.email);
  if (!EMAIL_PATTERN.test(email))
    throw new ApiError(400, 'invalid_user', 'email is not a valid email address', [
      { field: 'email', message: 'is not a valid email address' },
    ]);
  if (!input.name.trim())
    throw new ApiError(400, 'invalid_user', 'name must not be empty', [
      { field: 'name', message: 'must not be empty' },
    ]);
  if (input.password.length < 8)
    throw new ApiError(400, 'invalid_user', 'password must be at least 8 characters', [
      { field: 'password', message: 'must be at least 8 characters' },
    ]);
  if (await findUserByEmail(db, email)) {
    throw new ApiError(409, 'user_exists', `a user with email ${email} already exists`, [
      { field: 'email', message: 'is already taken' },
    ]);
  }
  return insertUser(db, {
    email,
    name: input.name,
    password_hash: await passwords.hash(input.password),
    role: input.role,
    // Made by an operator or an admin, who vouch for the address.
    email_verified_at: Date.now(),
  });
}

/** Extra hashing after the password was checked is skipped when every turn is taken: its answer is already known. */
const unlessBusy = (error: unknown) => {
  if (!(error instanceof PasswordsBusyError)) throw error;
  return undefined;
};

/**
 * Checks the password and opens a session. A 503 (PasswordsBusyError) can come only from the check itself, before
 * anything about the password is known. A stored hash cheaper than the configured cost is replaced by one at that
 * cost once the password is right; when it is wrong, a hash at the configured cost is spent anyway, so a wrong
 * password takes about as long for every account and for no account.
 */
export async function login(
  db: Executor,
  passwords: Passwords,
  email: string,
  password: string,
): Promise<LoginResult> {
  const user = await findUserByEmail(db, email);
  // No stored hash to check (an invitation not yet accepted) takes as long as a wrong password for no account.
  if (!user || user.password_hash === NO_PASSWORD) {
    await passwords.burn(password);
    throw unauthorized('Wrong email or password');
  }
  const check = await passwords.verify(password, user.password_hash);
  // An account whose email is not confirmed yet does not sign in, and says no more than a wrong password would: a
  // different answer would tell a stranger which emails were just signed up.
  if (!check.matches || user.email_verified_at === null) {
    if (check.outdated) await passwords.burn(password).catch(unlessBusy);
    throw unauthorized('Wrong email or password');
  }
  if (check.outdated) {
    const upgraded = await passwords.hash(password).catch(unlessBusy);
    // Only over the hash just checked: a password changed meanwhile stays changed.
    if (upgraded) await replacePasswordHash(db, user.id, user.password_hash, upgraded);
  }
  return openSession(db, user);
}

/** A new session for the user: the token is answered once, only its hash kept. */
export async function openSession(db: Executor, user: UserRow): Promise<LoginResult> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  await deleteExpiredTokens(db, now);
  await insertToken(db, hashToken(token), user.id, expiresAt);
  return { token, expires_at: new Date(expiresAt).toISOString(), user: presentUser(user) };
}

export async function authenticate(db: Executor, token: string | undefined): Promise<UserRow> {
  if (!token) throw unauthorized('Sign in first: the x-auth-token header is missing');
  const user = await findUserByTokenHash(db, hashToken(token), Date.now());
  if (!user) throw unauthorized('The token is unknown or has expired; sign in again');
  return user;
}

/**
 * The users of up to a few tokens, looked up together (one query): each valid token's user, by token; an unknown or
 * expired token, or none, is simply absent.
 */
export async function usersOfTokens(
  db: Executor,
  tokens: readonly (string | undefined)[],
): Promise<Map<string, UserRow>> {
  const byHash = new Map(tokens.filter((token) => token).map((token) => [hashToken(token!), token!]));
  if (byHash.size === 0) return new Map();
  const rows = await findUsersByTokenHashes(db, [...byHash.keys()], Date.now());
  return new Map(rows.map(({ token_hash, ...user }) => [byHash.get(token_hash)!, user]));
}

/** The signed-in user, who must be an administrator: 401 without a valid token, 403 for anyone else. */
/** The caller is of the team: an admin or an agent (the inbox's calls). */
export async function requireTeam(db: Executor, token: string | undefined): Promise<UserRow> {
  const user = await authenticate(db, token);
  if (user.role !== 'admin' && user.role !== 'agent') {
    throw new ApiError(403, 'forbidden', 'This needs an agent or administrator account');
  }
  return user;
}

export async function requireAdmin(db: Executor, token: string | undefined): Promise<UserRow> {
  const user = await authenticate(db, token);
  if (user.role !== 'admin') throw new ApiError(403, 'forbidden', 'This needs an administrator account');
  return user;
}

export async function logout(db: Executor, token: string | undefined): Promise<void> {
  if (!token || !(await deleteToken(db, hashToken(token)))) {
    throw unauthorized('The token is unknown or has expired');
  }
}
