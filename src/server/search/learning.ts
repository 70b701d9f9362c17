import type { Language } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import { dayOf } from '../privacy/daily-key.ts';
import { analyse, isStopword, words } from './analysis.ts';
import { voteTallies } from './learning.repository.ts';

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

/** Votes within the window, per query, article and day. */
export const tallies = (db: Executor, now: number, queryKey?: string): Promise<Tally[]> =>
  voteTallies(db, cutoffDay(now), queryKey);

/** Votes weighed by age: a vote today counts 1, one HALF_LIFE_DAYS old counts 1/2. */
export function weigh(rows: Tally[], now: number): Map<string, Map<number, number>> {
  const today = dayNumber(dayOf(now));
  const weights = new Map<string, Map<number, number>>();
  for (const row of rows) {
    const age = Math.max(0, today - dayNumber(row.day));
    const weight = Number(row.votes) * 0.5 ** (age / HALF_LIFE_DAYS);
    const articles = weights.get(row.query_key) ?? new Map<number, number>();
    articles.set(row.article_id, (articles.get(row.article_id) ?? 0) + weight);
    weights.set(row.query_key, articles);
  }
  return weights;
}

/** The factor a weight of votes gives: none below MIN_WEIGHT, then rising towards MAX_FACTOR. */
export const factorOf = (weight: number) =>
  weight < MIN_WEIGHT ? 1 : 1 + ((MAX_FACTOR - 1) * weight) / (weight + HALF_AT);

/** Everything learned, as search applies it (articles whose votes are too few are left out). */
export async function loadLearned(db: Executor, now = Date.now()): Promise<Learned> {
  const learned: Learned = new Map();
  for (const [key, articles] of weigh(await tallies(db, now), now)) {
    const factors = new Map<number, number>();
    for (const [id, weight] of articles) if (factorOf(weight) > 1) factors.set(id, factorOf(weight));
    if (factors.size) learned.set(key, factors);
  }
  return learned;
}
