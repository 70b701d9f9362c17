import type { Executor } from '../../db/database.ts';
import type { UserRow } from '../../db/tables.ts';

/** An email as accounts are kept and looked up: without surrounding spaces, in lower case. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
}

export async function insertUser(
  db: Executor,
  user: { email: string; name: string; password_hash: string; is_admin: boolean },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      email: normalEmail(user.email),
      name: user.name.trim(),
      password_hash: user.password_hash,
      is_admin: user.is_admin ? 1 : 0,
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

export async function deleteToken(db: Executor, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteExpiredTokens(db: Executor, at: number): Promise<void> {
  await db.deleteFrom('auth_tokens').where('expires_at', '<=', at).execute();
}
