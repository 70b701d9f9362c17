import { sql, type SelectQueryBuilder } from 'kysely';
import { isLive } from '../../content/translations.repository.ts';
import type { Visibility } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import type { ArticleRow, Database, FileRow } from '../../db/tables.ts';
import type { Audience, Restrictions } from '../../content/visibility.ts';

/** Who reads, and what of the tree is restricted: the articles a query returns are those this reader may read. */
export interface Readers {
  audience: Audience;
  restrictions: Restrictions;
}

/** Leaves out of an article query what the reader may not read: nothing for a signed-in reader. */
function readableBy<O>(
  query: SelectQueryBuilder<Database, 'articles', O>,
  { audience, restrictions }: Readers,
): SelectQueryBuilder<Database, 'articles', O> {
  if (audience === 'signed_in') return query;
  let readable = query.where('articles.visibility', '=', 'everyone');
  if (restrictions.sectionIds.length)
    readable = readable.where('section_id', 'not in', restrictions.sectionIds);
  if (restrictions.categoryIds.length) {
    const hidden = restrictions.categoryIds;
    readable = readable.where((eb) =>
      eb.or([eb('category_id', 'is', null), eb('category_id', 'not in', hidden)]),
    );
  }
  return readable;
}

export type ArticleSummaryRow = Pick<
  ArticleRow,
  'id' | 'title' | 'section_id' | 'category_id' | 'can_create_issue' | 'position' | 'lang' | 'published'
>;

export interface ArticleCount {
  section_id: number;
  category_id: number | null;
  visibility: Visibility;
  count: number;
}

/** Live articles (isLive) per category (and per section for articles outside any category), by who may read them. */
export async function countPublishedArticles(db: Executor): Promise<ArticleCount[]> {
  const rows = await db
    .selectFrom('articles')
    .select(['section_id', 'category_id', 'visibility', sql<number>`count(*)`.as('count')])
    .where(isLive)
    .groupBy(['section_id', 'category_id', 'visibility'])
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

export function listPublishedArticleSummaries(db: Executor, readers: Readers): Promise<ArticleSummaryRow[]> {
  return readableBy(db.selectFrom('articles').where(isLive), readers)
    .select(['id', 'title', 'section_id', 'category_id', 'can_create_issue', 'position', 'lang', 'published'])
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
  readers: Readers,
  limit: number,
  offset: number,
): Promise<{ rows: ArticleRow[]; total: number }> {
  let query = readableBy(db.selectFrom('articles').where(isLive), readers);
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

/** The article if visitors may read some version of it (isLive). */
export function findLiveArticle(db: Executor, id: number): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('id', '=', id).where(isLive).executeTakeFirst();
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

/** The published articles anyone may read and the team has not hidden from search engines, for the sitemap. */
export function listIndexableArticles(
  db: Executor,
  readers: Readers,
): Promise<Pick<ArticleRow, 'id' | 'section_id' | 'category_id' | 'updated_at'>[]> {
  return readableBy(db.selectFrom('articles').where(isLive).where('noindex', '=', 0), readers)
    .select(['id', 'section_id', 'category_id', 'updated_at'])
    .orderBy('id')
    .execute();
}

/** At least as many addresses as the sitemap lists (every published, unhidden article and every category), cheaply. */
export async function sitemapAddressBound(db: Executor): Promise<number> {
  const [articles, categories] = await Promise.all([
    db
      .selectFrom('articles')
      .select(sql<number>`count(*)`.as('count'))
      .where(isLive)
      .where('noindex', '=', 0)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('categories')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return Number(articles.count) + Number(categories.count) + 1;
}
