import type { SearchEvent, SearchReport, SearchReportRow } from '../../../shared/api/search.ts';
import type { Executor } from '../../db/database.ts';
import { fold } from '../../search/analysis.ts';
import { countSearchQuery, topQueries } from './search-analytics.repository.ts';

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
  await countSearchQuery(db, query, { searches: searched, empty_results: empty, opened }, now);
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
    topQueries(db, 'searches', limit),
    topQueries(db, 'empty_results', limit),
  ]);
  return { top: top.map(present), unanswered: unanswered.map(present) };
}
