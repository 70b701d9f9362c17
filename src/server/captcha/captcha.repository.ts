import type { Executor } from '../db/database.ts';

/** Forgets the used answers that expired before `now`. */
export async function deleteExpiredUses(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('captcha_uses').where('expires_at', '<', now).execute();
}

/** Records an answer as used until `expiresAt`; false when it was recorded before (on any server). */
export async function recordUse(db: Executor, key: string, expiresAt: number): Promise<boolean> {
  const result = await db
    .insertInto('captcha_uses')
    .values({ key, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
