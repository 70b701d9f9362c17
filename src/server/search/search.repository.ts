import type { Executor } from '../db/database.ts';
import { isLive } from '../content/translations.repository.ts';

/**
 * Articles visitors may read (their own version or a translation published), with their section and category,
 * which the index reads names and versions from.
 */
const publishedArticles = (db: Executor) =>
  db
    .selectFrom('articles')
    .innerJoin('sections', 'sections.id', 'articles.section_id')
    .leftJoin('categories', 'categories.id', 'articles.category_id')
    .where(isLive);

const indexedArticles = (db: Executor) =>
  publishedArticles(db)
    .select([
      'articles.id',
      'articles.title',
      'articles.body_html',
      'articles.lang',
      'articles.published',
      'articles.visibility',
      'articles.category_id',
      'articles.section_id',
      'sections.name as section',
      'categories.name as category',
    ])
    .orderBy('articles.id');

export type IndexedArticleRow = Awaited<ReturnType<typeof indexedArticlesAfter>>[number];

/** The published articles among `ids`, as the index reads them. */
export function indexedArticlesWithIds(db: Executor, ids: number[]) {
  return indexedArticles(db).where('articles.id', 'in', ids).execute();
}

/** Up to `limit` published articles with ids above `after`, in id order, as the index reads them. */
export function indexedArticlesAfter(db: Executor, after: number, limit: number) {
  return indexedArticles(db).where('articles.id', '>', after).limit(limit).execute();
}

/** When each published article, its section and its category last changed (an indexed article's version). */
export function indexedArticleChanges(db: Executor) {
  return publishedArticles(db)
    .select([
      'articles.id',
      'articles.updated_at',
      'articles.published',
      'articles.visibility',
      'articles.section_id',
      'articles.category_id',
      'sections.updated_at as s',
      'categories.updated_at as c',
    ])
    .execute();
}

/** The published translations of these articles, as the index reads them. */
export function indexedTranslations(db: Executor, articleIds: number[]) {
  return db
    .selectFrom('article_translations')
    .select(['article_id', 'lang', 'title', 'body_html'])
    .where('published', '=', 1)
    .where('article_id', 'in', articleIds)
    .execute();
}
