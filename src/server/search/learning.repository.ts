import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/** A place in the votes' order (their primary key's first two columns): a query key and a day. */
export interface VotePlace {
  query_key: string;
  day: string;
}

/**
 * Votes per query, article and day from `since` (YYYY-MM-DD) on: for one query key when given, or after and up to
 * the given places in the votes' order. In that order and then by article, so that what is summed from them is summed
 * alike however they were read.
 */
export function voteTallies(
  db: Executor,
  since: string,
  which: { queryKey?: string; after?: VotePlace; upTo?: VotePlace } = {},
) {
  const { queryKey, after, upTo } = which;
  let query = db
    .selectFrom('search_votes')
    .select(['query_key', 'article_id', 'day', sql<number | string>`count(*)`.as('votes')])
    .where('day', '>=', since)
    .groupBy(['query_key', 'article_id', 'day'])
    .orderBy('query_key')
    .orderBy('day')
    .orderBy('article_id');
  if (queryKey !== undefined) query = query.where('query_key', '=', queryKey);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('query_key', 'day'), '>', eb.tuple(after.query_key, after.day)),
    );
  if (upTo)
    query = query.where((eb) =>
      eb(eb.refTuple('query_key', 'day'), '<=', eb.tuple(upTo.query_key, upTo.day)),
    );
  return query.execute();
}

/**
 * Where a page of about `rows` votes from `since` on, after `after`, ends: the place of its last vote (the page
 * takes the rest of that query's votes that day with it, so a day's votes for a query are never split), or
 * undefined when fewer are left. Walks the primary key's index, reading no row.
 */
export async function votePageEnd(
  db: Executor,
  since: string,
  after: VotePlace | undefined,
  rows: number,
): Promise<VotePlace | undefined> {
  let query = db
    .selectFrom('search_votes')
    .select(['query_key', 'day'])
    .where('day', '>=', since)
    .orderBy('query_key')
    .orderBy('day')
    .limit(1)
    .offset(rows - 1);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('query_key', 'day'), '>', eb.tuple(after.query_key, after.day)),
    );
  return query.executeTakeFirst();
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
