import {
  SEARCH_REPORT_WEEKS,
  type AvoidedRequestsRow,
  type SearchEvent,
  type SearchReport,
  type SearchReportRow,
} from '../../../shared/api/search.ts';
import { SEARCH_TEXT_MAX } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import { fold } from '../../search/analysis.ts';
import {
  avoidedRequestsSince,
  countRatedArticles,
  countSearchQuery,
  countSuggestedArticle,
  topQueries,
  unhelpfulArticles,
  unopenedQueries,
} from './search-analytics.repository.ts';

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
    .slice(0, SEARCH_TEXT_MAX);
}

export async function recordSearchEvent(db: Executor, event: SearchEvent, now = Date.now()): Promise<void> {
  if (event.type === 'suggestion_open' || event.type === 'request_sent') {
    await recordSuggestionEvent(db, event, now);
    return;
  }
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

const DAY_MS = 86_400_000;

/** The Monday (UTC) of the ISO week a moment falls in, as YYYY-MM-DD. */
export function weekOf(now: number): string {
  const day = Math.floor(now / DAY_MS);
  // 1 January 1970 was a Thursday: day 0 is the fourth day of its week.
  const monday = day - ((day + 3) % 7);
  return new Date(monday * DAY_MS).toISOString().slice(0, 10);
}

/** A week's ISO name (2025-W03) from its Monday: the week belongs to the year its Thursday is in. */
export function isoWeekName(monday: string): string {
  const thursday = new Date(Date.parse(`${monday}T00:00:00Z`) + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstThursday = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS);
  return `${year}-W${String(Math.floor(firstThursday / 7) + 1).padStart(2, '0')}`;
}

/**
 * Articles suggested under a request form: an opened one counts once for the week; a request sent afterwards
 * counts once for each article opened before it, so opened − sent is the requests the article made unnecessary.
 */
async function recordSuggestionEvent(
  db: Executor,
  event: Extract<SearchEvent, { type: 'suggestion_open' | 'request_sent' }>,
  now: number,
): Promise<void> {
  const week = weekOf(now);
  if (event.type === 'suggestion_open')
    await countSuggestedArticle(db, [event.id], week, { opened: 1, sent: 0 });
  else await countSuggestedArticle(db, [...new Set(event.opened)], week, { opened: 0, sent: 1 });
}

const presentAvoided = (row: {
  article_id: number;
  title: string;
  published: number;
  week: string;
  opened: number;
  sent: number;
}): AvoidedRequestsRow => ({
  article_id: row.article_id,
  title: row.title,
  published: row.published === 1,
  week: isoWeekName(row.week),
  week_start: row.week,
  opened: row.opened,
  sent: row.sent,
  avoided: Math.max(0, row.opened - row.sent),
});

export async function searchReport(
  db: Executor,
  limit = 20,
  weeks = SEARCH_REPORT_WEEKS,
  now = Date.now(),
): Promise<SearchReport> {
  const fromWeek = weekOf(now - (weeks - 1) * 7 * DAY_MS);
  const [top, unanswered, unopened, unhelpful, ratedArticles, avoided] = await Promise.all([
    topQueries(db, 'searches', limit),
    topQueries(db, 'empty_results', limit),
    unopenedQueries(db, limit),
    unhelpfulArticles(db, limit),
    countRatedArticles(db),
    avoidedRequestsSince(db, fromWeek),
  ]);
  return {
    top: top.map(present),
    unanswered: unanswered.map(present),
    unopened: unopened.map(present),
    unhelpful: unhelpful.map((row) => ({ ...row, published: row.published === 1 })),
    rated_articles: ratedArticles,
    avoided: avoided.map(presentAvoided),
    weeks,
  };
}
