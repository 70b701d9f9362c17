import type { Language } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import { dayOf } from '../privacy/daily-key.ts';
import { analyse, isStopword, words } from './analysis.ts';
import { yieldToEventLoop } from './search-index.ts';
import { votePageEnd, voteTallies, type VotePlace } from './learning.repository.ts';

/** Votes older than this are forgotten; within it, each counts half as much every HALF_LIFE_DAYS. */
export const LEARNING_WINDOW_DAYS = 90;
const HALF_LIFE_DAYS = 14;
/** The most an article's score is multiplied by for a query, however many chose it. */
const MAX_FACTOR = 2.5;
/** Weighted votes at which an article gets half of the most it can. */
const HALF_AT = 6;
/** Below this weight of votes nothing is learned: two or three visitors, or one for several days, are not a pattern. */
const MIN_WEIGHT = 2.5;
/**
 * Counts of votes at which what is learned for a query moves enough to tell the servers (a new content revision in
 * the scopes `search` and `learned:KEY`, revision.repository.ts learnedScopes), which then read that query's votes
 * again; between them a vote is stored but changes no answer until the query's next tell or the next day.
 */
export const TELL_AT = new Set([3, 5, 8, 12, 18, 27, 40, 60, 90]);

/**
 * A query as what visitors chose is kept under: its counted words, stemmed in the help centre's language, without
 * repeats, sorted, so 'Reset password', 'password reset' and 'how to reset passwords' are one query.
 */
export function learningKey(query: string, lang: Language): string {
  const stems = new Set<string>();
  for (const { word } of words(query)) if (!isStopword(word)) stems.add(analyse(word, lang));
  return [...stems].sort().join(' ').slice(0, 200);
}

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
export const cutoffDay = (now: number) => dayOf(now - LEARNING_WINDOW_DAYS * 86_400_000);

/** What visitors taught search: per query key, each chosen article's score factor. */
export type Learned = Map<string, Map<number, number>>;

export interface Tally {
  query_key: string;
  article_id: number;
  day: string;
  votes: number | string;
}

/**
 * Votes read at a time when all are read: reading and weighing a page holds the event loop for a few milliseconds
 * (node:sqlite reads synchronously), where reading 250,000 votes at once held it for a second (bench:learning:
 * pages of 2,500 hold it at most 6-13 ms, 5,000 twice that; the whole read takes no longer on SQLite, twice as
 * long on PostgreSQL, in the background).
 */
export const VOTE_PAGE_ROWS = 2_500;

/**
 * All votes within the window, weighed (as `weigh`), read a page of about `pageRows` votes at a time in the order
 * of their primary key, with the event loop free between pages. The sums are those of one read: a query's votes
 * for an article are added day after day in both.
 */
export async function weighAll(
  db: Executor,
  now: number,
  pageRows = VOTE_PAGE_ROWS,
): Promise<Map<string, Map<number, number>>> {
  const since = cutoffDay(now);
  const weights = new Map<string, Map<number, number>>();
  for (let after: VotePlace | undefined; ;) {
    const upTo = await votePageEnd(db, since, after, pageRows);
    weigh(await voteTallies(db, since, { after, upTo }), now, weights);
    if (!upTo) return weights;
    after = upTo;
    await yieldToEventLoop();
  }
}

/** Votes weighed by age: a vote today counts 1, one HALF_LIFE_DAYS old counts 1/2. Added to `into` when given. */
export function weigh(
  rows: Tally[],
  now: number,
  into = new Map<string, Map<number, number>>(),
): Map<string, Map<number, number>> {
  const today = dayNumber(dayOf(now));
  // A page holds thousands of rows over at most LEARNING_WINDOW_DAYS days: each day's date is parsed once.
  const ages = new Map<string, number>();
  for (const row of rows) {
    let age = ages.get(row.day);
    if (age === undefined) ages.set(row.day, (age = Math.max(0, today - dayNumber(row.day))));
    const weight = Number(row.votes) * 0.5 ** (age / HALF_LIFE_DAYS);
    const articles = into.get(row.query_key) ?? new Map<number, number>();
    articles.set(row.article_id, (articles.get(row.article_id) ?? 0) + weight);
    into.set(row.query_key, articles);
  }
  return into;
}

/** The factor a weight of votes gives: none below MIN_WEIGHT, then rising towards MAX_FACTOR. */
export const factorOf = (weight: number) =>
  weight < MIN_WEIGHT ? 1 : 1 + ((MAX_FACTOR - 1) * weight) / (weight + HALF_AT);

/** A query's weighed articles as search applies them: articles whose votes are too few are left out. */
function factorsOf(articles: Map<number, number>): Map<number, number> {
  const factors = new Map<number, number>();
  for (const [id, weight] of articles) if (factorOf(weight) > 1) factors.set(id, factorOf(weight));
  return factors;
}

/** Everything learned, as search applies it, read a page at a time (weighAll). */
export async function loadLearned(db: Executor, now = Date.now(), pageRows?: number): Promise<Learned> {
  const learned: Learned = new Map();
  for (const [key, articles] of await weighAll(db, now, pageRows)) {
    const factors = factorsOf(articles);
    if (factors.size) learned.set(key, factors);
  }
  return learned;
}

/** What was learned for one query key, as loadLearned has it: its factors, or undefined when nothing is. */
export async function loadLearnedKey(
  db: Executor,
  queryKey: string,
  now = Date.now(),
): Promise<Map<number, number> | undefined> {
  const articles = weigh(await voteTallies(db, cutoffDay(now), { queryKey }), now).get(queryKey);
  const factors = articles && factorsOf(articles);
  return factors?.size ? factors : undefined;
}
