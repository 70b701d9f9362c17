import { sql } from 'kysely';
import type { SearchEvent, SearchReport, SearchReportRow } from '../../../shared/api/search.ts';
import type { Executor } from '../../db/database.ts';
import { fold } from './analysis.ts';

/**
 * A query as the report keeps it: folded, spaced once, and with what could identify a person (email addresses,
 * long numbers such as phone or order numbers) replaced, so the report holds what was asked, never who asked.
 */
export function normaliseQuery(query: string): string {
  return fold(query)
    .replace(/[^\s@]+@[^\s@]+/g, '[email]')
    .replace(/\d[\d\s-]{5,}\d/g, '[number]')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

export async function recordSearchEvent(db: Executor, event: SearchEvent, now = Date.now()): Promise<void> {
  const query = normaliseQuery(event.query);
  if (!query) return;
  const searched = event.type === 'search' ? 1 : 0;
  const empty = event.type === 'search' && event.found === 0 ? 1 : 0;
  const opened = event.type === 'open' ? 1 : 0;
  await db
    .insertInto('search_queries')
    .values({ query, searches: searched, empty_results: empty, opened, last_searched_at: now })
    .onConflict((oc) =>
      oc.column('query').doUpdateSet({
        searches: sql`search_queries.searches + ${searched}`,
        empty_results: sql`search_queries.empty_results + ${empty}`,
        opened: sql`search_queries.opened + ${opened}`,
        last_searched_at: now,
      }),
    )
    .execute();
}

const present = (row: {
  query: string;
  searches: number;
  empty_results: number;
  opened: number;
  last_searched_at: number;
}): SearchReportRow => ({
  query: row.query,
  searches: Number(row.searches),
  empty_results: Number(row.empty_results),
  opened: Number(row.opened),
  last_searched_at: new Date(Number(row.last_searched_at)).toISOString(),
});

export async function searchReport(db: Executor, limit = 20): Promise<SearchReport> {
  const [top, unanswered] = await Promise.all([
    db
      .selectFrom('search_queries')
      .selectAll()
      .where('searches', '>', 0)
      .orderBy('searches', 'desc')
      .orderBy('query')
      .limit(limit)
      .execute(),
    db
      .selectFrom('search_queries')
      .selectAll()
      .where('empty_results', '>', 0)
      .orderBy('empty_results', 'desc')
      .orderBy('query')
      .limit(limit)
      .execute(),
  ]);
  return { top: top.map(present), unanswered: unanswered.map(present) };
}
