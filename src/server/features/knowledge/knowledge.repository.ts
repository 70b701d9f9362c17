import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ArticleRow, FileRow } from '../../db/tables.ts';

export type ArticleSummaryRow = Pick<
  ArticleRow,
  'id' | 'title' | 'section_id' | 'category_id' | 'can_create_issue' | 'position'
>;

/** Published articles per category (and per section for articles outside any category). */
export async function countPublishedArticles(
  db: Executor,
): Promise<{ section_id: number; category_id: number | null; count: number }[]> {
  const rows = await db
    .selectFrom('articles')
    .select(['section_id', 'category_id', sql<number>`count(*)`.as('count')])
    .where('published', '=', 1)
    .groupBy(['section_id', 'category_id'])
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

export function listPublishedArticleSummaries(db: Executor): Promise<ArticleSummaryRow[]> {
  return db
    .selectFrom('articles')
    .select(['id', 'title', 'section_id', 'category_id', 'can_create_issue', 'position'])
    .where('published', '=', 1)
    .orderBy('section_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export interface ArticlePageFilter {
  categoryId?: number;
  /** With no category: the articles directly in this section. */
  sectionId?: number;
}

export async function pagePublishedArticles(
  db: Executor,
  filter: ArticlePageFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ArticleRow[]; total: number }> {
  let query = db.selectFrom('articles').where('published', '=', 1);
  if (filter.categoryId !== undefined) query = query.where('category_id', '=', filter.categoryId);
  else if (filter.sectionId !== undefined) {
    query = query.where('section_id', '=', filter.sectionId).where('category_id', 'is', null);
  }
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy('position').orderBy('id').limit(limit).offset(offset).execute(),
    query.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

export function findPublishedArticle(db: Executor, id: number): Promise<ArticleRow | undefined> {
  return db
    .selectFrom('articles')
    .selectAll()
    .where('id', '=', id)
    .where('published', '=', 1)
    .executeTakeFirst();
}

export async function filesOfArticles(db: Executor, articleIds: number[]): Promise<Map<number, FileRow[]>> {
  const byArticle = new Map<number, FileRow[]>();
  if (articleIds.length === 0) return byArticle;
  const rows = await db
    .selectFrom('article_files')
    .innerJoin('files', 'files.id', 'article_files.file_id')
    .selectAll('files')
    .select('article_files.article_id')
    .where('article_files.article_id', 'in', articleIds)
    .orderBy('article_files.article_id')
    .orderBy('article_files.position')
    .execute();
  for (const { article_id, ...file } of rows) {
    const list = byArticle.get(article_id) ?? [];
    list.push(file);
    byArticle.set(article_id, list);
  }
  return byArticle;
}

export async function filesById(db: Executor, ids: number[]): Promise<Map<number, FileRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
