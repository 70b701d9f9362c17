import type { UserRole } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import type { UserRow } from '../db/tables.ts';

/** An email as accounts are kept and looked up: without surrounding spaces, in lower case. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
}

export async function insertUser(
  db: Executor,
  user: {
    email: string;
    name: string;
    password_hash: string;
    role: UserRole;
    email_verified_at: number | null;
  },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      email: normalEmail(user.email),
      name: user.name.trim(),
      password_hash: user.password_hash,
      role: user.role,
      email_verified_at: user.email_verified_at,
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a user's password hash, unless it is no longer `from`; answers whether it did. */
export async function replacePasswordHash(
  db: Executor,
  userId: number,
  from: string,
  to: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: to })
    .where('id', '=', userId)
    .where('password_hash', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertToken(db: Executor, tokenHash: string, userId: number, expiresAt: number) {
  await db
    .insertInto('auth_tokens')
    .values({ token_hash: tokenHash, user_id: userId, created_at: Date.now(), expires_at: expiresAt })
    .execute();
}

export function findUserByTokenHash(
  db: Executor,
  tokenHash: string,
  at: number,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .selectAll('users')
    .where('auth_tokens.token_hash', '=', tokenHash)
    .where('auth_tokens.expires_at', '>', at)
    .executeTakeFirst();
}

/** The users of several token hashes, by one query: each row a valid token's user and the hash it was found by. */
export function findUsersByTokenHashes(
  db: Executor,
  tokenHashes: readonly string[],
  at: number,
): Promise<(UserRow & { token_hash: string })[]> {
  return db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .selectAll('users')
    .select('auth_tokens.token_hash')
    .where('auth_tokens.token_hash', 'in', tokenHashes)
    .where('auth_tokens.expires_at', '>', at)
    .execute();
}

export async function deleteToken(db: Executor, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteExpiredTokens(db: Executor, at: number): Promise<void> {
  await db.deleteFrom('auth_tokens').where('expires_at', '<=', at).execute();
}

export const findUser = (db: Executor, id: number): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** A page of the users with one of these roles, oldest first, and how many there are in all. */
export async function pageUsers(
  db: Executor,
  roles: readonly UserRole[],
  limit: number,
  offset: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .selectAll()
      .where('role', 'in', roles)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('role', 'in', roles)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

export async function adminCount(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Takes the users' row locks for the rest of the transaction (a no-op write), in one statement. */
export async function lockUsers(trx: Executor, ids: number[]): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('id', 'in', ids)
    .execute();
}

export async function updateUser(
  db: Executor,
  id: number,
  changes: Partial<Pick<UserRow, 'name' | 'password_hash' | 'role' | 'email_verified_at'>>,
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Signs a user out everywhere, or everywhere but the session whose token hash is `keepTokenHash`. */
export async function deleteTokensOfUser(
  db: Executor,
  userId: number,
  keepTokenHash?: string,
): Promise<void> {
  let query = db.deleteFrom('auth_tokens').where('user_id', '=', userId);
  if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
  await query.execute();
}

/** Keeps a user's requests without the link to them. */
export async function unlinkTicketsOfUser(db: Executor, userId: number): Promise<void> {
  await db.updateTable('tickets').set({ user_id: null }).where('user_id', '=', userId).execute();
}

export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** The members of the team (administrators and agents), by name. */
export function listTeam(db: Executor): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('role', 'in', ['admin', 'agent']).orderBy('name').execute();
}

/** Sets a user's email, or a new name and password hash, as a verified or pending account. */
export async function updateAccount(
  db: Executor,
  id: number,
  changes: Partial<Pick<UserRow, 'email' | 'name' | 'password_hash' | 'email_verified_at'>>,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, ...(changes.email !== undefined && { email: normalEmail(changes.email) }) })
    .where('id', '=', id)
    .execute();
}
