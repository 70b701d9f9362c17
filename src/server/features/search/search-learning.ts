import type { LearnedRow } from '../../../shared/api/synonyms.ts';
import type { Language } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import { learnedScopes, touchContent } from '../../revisions/revision.repository.ts';
import { cutoffDay, factorOf, learningKey, TELL_AT, weighAll } from '../../search/learning.ts';
import { findArticle } from '../../content/content.repository.ts';
import { countVotes, deleteVotes, insertVote, titlesOf } from '../../search/learning.repository.ts';
import { dailyClientKey, dayOf } from '../../privacy/daily-key.ts';

/**
 * Records that a visitor who searched `query` opened article `id`: their first choice for that query today counts,
 * once. Returns whether it was counted. When the article's votes for the query reach the next of TELL_AT, the
 * servers are told, so their suggestions and kept answers follow within the revision interval: they read that
 * query's votes again, and no other's.
 */
export async function recordVote(
  db: Executor,
  vote: { query: string; id: number; client: string; lang: Language },
  now = Date.now(),
): Promise<boolean> {
  const key = learningKey(vote.query, vote.lang);
  if (!key) return false;
  if ((await findArticle(db, vote.id))?.published !== 1) return false;
  const voter = await dailyClientKey(db, vote.client, `search\n${key}`, now);
  const stored = await insertVote(db, { query_key: key, day: dayOf(now), voter, article_id: vote.id });
  if (!stored) return false;
  if (TELL_AT.has(await countVotes(db, key, vote.id, cutoffDay(now))))
    await touchContent(db, learnedScopes(key));
  return true;
}

/** What was learned, for the team: each query's chosen articles with their weighed votes, strongest first. */
export async function listLearned(db: Executor, limit: number, now = Date.now()): Promise<LearnedRow[]> {
  const rows: Omit<LearnedRow, 'title'>[] = [];
  for (const [key, articles] of await weighAll(db, now)) {
    for (const [id, weight] of articles) {
      rows.push({
        query: key,
        article_id: id,
        votes: Math.round(weight * 10) / 10,
        factor: Math.round(factorOf(weight) * 100) / 100,
      });
    }
  }
  const shown = rows.sort((a, b) => b.votes - a.votes || a.query.localeCompare(b.query)).slice(0, limit);
  const titles = await titlesOf(db, [...new Set(shown.map((row) => row.article_id))]);
  return shown.map((row) => ({ ...row, title: titles.get(row.article_id) ?? '' }));
}

/** Forgets what was learned, for one query key or all, and tells the servers. Returns the votes deleted. */
export async function resetLearned(db: Executor, queryKey?: string): Promise<number> {
  const deleted = await deleteVotes(db, queryKey);
  await touchContent(db, learnedScopes(queryKey));
  return deleted;
}
