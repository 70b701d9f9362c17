import type { Executor } from '../db/database.ts';

export const findSalt = (db: Executor, day: string) =>
  db.selectFrom('feedback_salts').select('salt').where('day', '=', day).executeTakeFirst();

/** Stores the day's salt unless another server stored one first (theirs is then the day's). */
export async function insertSaltIfAbsent(db: Executor, day: string, salt: string): Promise<void> {
  await db
    .insertInto('feedback_salts')
    .values({ day, salt })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
}

/** Forgets the salts of the days before `day` (YYYY-MM-DD sorts as text). */
export async function deleteSaltsBefore(db: Executor, day: string): Promise<number> {
  const result = await db.deleteFrom('feedback_salts').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}
