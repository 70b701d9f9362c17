import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Adds to a query's counts in the search report, creating its row the first time it is asked. */
export async function countSearchQuery(
  db: Executor,
  query: string,
  counts: { searches: number; empty_results: number; opened: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('search_queries')
    .values({ query, ...counts, last_searched_at: now })
    .onConflict((oc) =>
      oc.column('query').doUpdateSet({
        searches: sql`search_queries.searches + ${counts.searches}`,
        empty_results: sql`search_queries.empty_results + ${counts.empty_results}`,
        opened: sql`search_queries.opened + ${counts.opened}`,
        last_searched_at: now,
      }),
    )
    .execute();
}

/** The queries searched most often (`searches`), or that most often found nothing (`empty_results`). */
export function topQueries(db: Executor, by: 'searches' | 'empty_results', limit: number) {
  return db
    .selectFrom('search_queries')
    .selectAll()
    .where(by, '>', 0)
    .orderBy(by, 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
}
