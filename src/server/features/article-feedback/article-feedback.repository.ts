import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Flag } from '../../db/tables.ts';

export interface FeedbackValues {
  article_id: number;
  visitor_key: string;
  helpful: Flag;
  reason: string | null;
  comment: string | null;
}

/** The visitor's answer of the day: a new row the first time, the same row replaced after. */
export async function saveFeedback(db: Executor, values: FeedbackValues, now: number): Promise<void> {
  const { helpful, reason, comment } = values;
  await db
    .insertInto('article_feedback')
    .values({ ...values, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('visitor_key').doUpdateSet({ helpful, reason, comment, updated_at: now }))
    .execute();
}

export async function countArticlesWithFeedback(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('article_feedback')
    .select(sql<number>`count(distinct article_id)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface FeedbackTotals {
  article_id: number;
  title: string;
  published: Flag;
  yes: number;
  total: number;
}

/**
 * One page of the articles with answers, worst first: those with at least `minVotes` answers by their share of yes
 * (lowest first), then those with fewer; within each, most "no" first, then by id so pages never overlap.
 */
export async function pageFeedbackTotals(
  db: Executor,
  minVotes: number,
  limit: number,
  offset: number,
): Promise<FeedbackTotals[]> {
  const total = sql<number>`count(*)`;
  const yes = sql<number>`sum(article_feedback.helpful)`;
  const rows = await db
    .selectFrom('article_feedback')
    .innerJoin('articles', 'articles.id', 'article_feedback.article_id')
    .select(['article_feedback.article_id', 'articles.title', 'articles.published'])
    .select([yes.as('yes'), total.as('total')])
    .groupBy(['article_feedback.article_id', 'articles.title', 'articles.published'])
    .orderBy(sql`case when count(*) >= ${minVotes} then 0 else 1 end`)
    .orderBy(sql`case when count(*) >= ${minVotes} then ${yes} * 1.0 / count(*) else 0 end`)
    .orderBy(sql`count(*) - ${yes}`, 'desc')
    .orderBy('article_feedback.article_id')
    .limit(limit)
    .offset(offset)
    .execute();
  // PostgreSQL answers count and sum as text (bigint).
  return rows.map((row) => ({ ...row, yes: Number(row.yes), total: Number(row.total) }));
}

export async function countReasons(db: Executor, articleIds: number[]) {
  if (articleIds.length === 0) return [];
  const rows = await db
    .selectFrom('article_feedback')
    .select(['article_id', 'reason', sql<number>`count(*)`.as('count')])
    .where('article_id', 'in', articleIds)
    .where('reason', 'is not', null)
    .groupBy(['article_id', 'reason'])
    .execute();
  return rows.map((row) => ({
    article_id: row.article_id,
    reason: row.reason ?? '',
    count: Number(row.count),
  }));
}

/** The newest `perArticle` comments of each article, newest first. */
export async function recentComments(db: Executor, articleIds: number[], perArticle: number) {
  if (articleIds.length === 0) return [];
  const ranked = db
    .selectFrom('article_feedback')
    .select(['id', 'article_id', 'helpful', 'reason', 'comment', 'updated_at'])
    .select(
      sql<number>`row_number() over (partition by article_id order by updated_at desc, id desc)`.as('place'),
    )
    .where('article_id', 'in', articleIds)
    .where('comment', 'is not', null)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['article_id', 'helpful', 'reason', 'comment', 'updated_at'])
    .where('place', '<=', perArticle)
    .orderBy('article_id')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
