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

/** Queries that found articles (not every search of them found nothing) of which none was ever opened. */
export function unopenedQueries(db: Executor, limit: number) {
  return db
    .selectFrom('search_queries')
    .selectAll()
    .where('opened', '=', 0)
    .where(sql<boolean>`searches > empty_results`)
    .orderBy(sql`searches - empty_results`, 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
}

/**
 * Adds to a published article's counts for the week, creating its row the first time; an id that is not a published
 * article counts nothing (the client is anyone's).
 */
export async function countSuggestedArticle(
  db: Executor,
  articleIds: number[],
  week: string,
  counts: { opened: number; sent: number },
): Promise<void> {
  if (articleIds.length === 0) return;
  await db
    .insertInto('requests_avoided')
    .columns(['article_id', 'week', 'opened', 'sent'])
    .expression(
      db
        .selectFrom('articles')
        .select([
          'id',
          // Typed, as PostgreSQL takes an untyped parameter for text.
          sql<string>`cast(${week} as varchar(10))`.as('week'),
          sql<number>`cast(${counts.opened} as integer)`.as('opened'),
          sql<number>`cast(${counts.sent} as integer)`.as('sent'),
        ])
        .where('id', 'in', articleIds)
        .where('published', '=', 1),
    )
    .onConflict((oc) =>
      oc.columns(['article_id', 'week']).doUpdateSet({
        opened: sql`requests_avoided.opened + ${counts.opened}`,
        sent: sql`requests_avoided.sent + ${counts.sent}`,
      }),
    )
    .execute();
}

/** Each article's counts per week from `fromWeek` (a Monday, YYYY-MM-DD) on, newest week and most avoided first. */
export async function avoidedRequestsSince(db: Executor, fromWeek: string) {
  const rows = await db
    .selectFrom('requests_avoided')
    .innerJoin('articles', 'articles.id', 'requests_avoided.article_id')
    .select([
      'requests_avoided.article_id',
      'requests_avoided.week',
      'requests_avoided.opened',
      'requests_avoided.sent',
      'articles.title',
      'articles.published',
    ])
    .where('requests_avoided.week', '>=', fromWeek)
    .orderBy('requests_avoided.week', 'desc')
    .orderBy(sql`requests_avoided.opened - requests_avoided.sent`, 'desc')
    .orderBy('requests_avoided.article_id')
    .execute();
  return rows.map((row) => ({ ...row, opened: Number(row.opened), sent: Number(row.sent) }));
}

/** Articles with at least one "No" to "Was this helpful?", most "No" first, then the lowest share of "Yes". */
export async function unhelpfulArticles(db: Executor, limit: number) {
  const yes = sql<number>`sum(article_feedback.helpful)`;
  const no = sql<number>`count(*) - sum(article_feedback.helpful)`;
  const rows = await db
    .selectFrom('article_feedback')
    .innerJoin('articles', 'articles.id', 'article_feedback.article_id')
    .select(['article_feedback.article_id', 'articles.title', 'articles.published'])
    .select([yes.as('yes'), no.as('no')])
    .groupBy(['article_feedback.article_id', 'articles.title', 'articles.published'])
    .having(no, '>', 0)
    .orderBy(no, 'desc')
    .orderBy(sql`${yes} * 1.0 / count(*)`)
    .orderBy('article_feedback.article_id')
    .limit(limit)
    .execute();
  // PostgreSQL answers count and sum as text (bigint).
  return rows.map((row) => ({ ...row, yes: Number(row.yes), no: Number(row.no) }));
}

export async function countRatedArticles(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('article_feedback')
    .select(sql<number>`count(distinct article_id)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
