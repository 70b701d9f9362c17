import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/** Votes per query, article and day from `since` (YYYY-MM-DD) on; for one query key when given. */
export function voteTallies(db: Executor, since: string, queryKey?: string) {
  let query = db
    .selectFrom('search_votes')
    .select(['query_key', 'article_id', 'day', sql<number | string>`count(*)`.as('votes')])
    .where('day', '>=', since)
    .groupBy(['query_key', 'article_id', 'day']);
  if (queryKey !== undefined) query = query.where('query_key', '=', queryKey);
  return query.execute();
}

/** Stores a vote unless the voter has one for the query that day; whether it was stored. */
export async function insertVote(
  db: Executor,
  vote: { query_key: string; day: string; voter: string; article_id: number },
): Promise<boolean> {
  const result = await db
    .insertInto('search_votes')
    .values(vote)
    .onConflict((oc) => oc.columns(['query_key', 'day', 'voter']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Votes for an article under a query from `since` on. */
export async function countVotes(db: Executor, queryKey: string, articleId: number, since: string) {
  const row = await db
    .selectFrom('search_votes')
    .select((eb) => eb.fn.countAll<number | string>().as('votes'))
    .where('query_key', '=', queryKey)
    .where('article_id', '=', articleId)
    .where('day', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.votes);
}

/** Deletes the votes of one query key, or all; the number deleted. */
export async function deleteVotes(db: Executor, queryKey?: string): Promise<number> {
  let query = db.deleteFrom('search_votes');
  if (queryKey !== undefined) query = query.where('query_key', '=', queryKey);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The titles of the given articles. */
export async function titlesOf(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('articles').select(['id', 'title']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.title]));
}
