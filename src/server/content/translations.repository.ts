import { sql, type ExpressionBuilder } from 'kysely';
import type { Executor } from '../db/database.ts';
import type {
  Database,
  ArticleTranslationRow,
  CategoryTranslationRow,
  FileRow,
  SectionTranslationRow,
} from '../db/tables.ts';

/**
 * An article visitors may read: its own version or a translation is published (which one they read is chosen in
 * translations.ts).
 */
export const isLive = (eb: ExpressionBuilder<Database, 'articles'>) =>
  eb.or([
    eb('articles.published', '=', 1),
    eb.exists(
      eb
        .selectFrom('article_translations')
        .select(sql`1`.as('one'))
        .whereRef('article_translations.article_id', '=', 'articles.id')
        .where('article_translations.published', '=', 1),
    ),
  ]);

/** Every published translation of sections and of categories: few rows, read whole like the tree itself. */
export function listPublishedSectionTranslations(db: Executor): Promise<SectionTranslationRow[]> {
  return db.selectFrom('section_translations').selectAll().where('published', '=', 1).execute();
}

export function listPublishedCategoryTranslations(db: Executor): Promise<CategoryTranslationRow[]> {
  return db.selectFrom('category_translations').selectAll().where('published', '=', 1).execute();
}

export type ArticleTranslationTitle = Pick<ArticleTranslationRow, 'article_id' | 'lang' | 'title'>;

/** The published translations' titles in these languages, of these articles or (none given) of all. */
export function listPublishedArticleTitles(
  db: Executor,
  langs: string[],
  articleIds?: number[],
): Promise<ArticleTranslationTitle[]> {
  if (langs.length === 0 || articleIds?.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('article_translations')
    .select(['article_id', 'lang', 'title'])
    .where('published', '=', 1)
    .where('lang', 'in', langs);
  if (articleIds) query = query.where('article_id', 'in', articleIds);
  return query.execute();
}

/** Whole published translations (bodies too) of these articles in these languages. */
export function listPublishedArticleTranslations(
  db: Executor,
  articleIds: number[],
  langs: string[],
): Promise<ArticleTranslationRow[]> {
  if (langs.length === 0 || articleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('article_translations')
    .selectAll()
    .where('published', '=', 1)
    .where('article_id', 'in', articleIds)
    .where('lang', 'in', langs)
    .execute();
}

/** Every published translation's language, with the articles' (pinned or own) languages of published articles. */
export async function listContentLanguages(db: Executor): Promise<string[]> {
  const rows = await sql<{ lang: string }>`
    select lang from article_translations where published = 1
    union select lang from section_translations where published = 1
    union select lang from category_translations where published = 1
    union select lang from articles where published = 1 and lang is not null
  `.execute(db);
  return rows.rows.map((row) => row.lang);
}

/** The files of these articles' translations, per `article_id:lang`, in their order. */
export async function filesOfArticleTranslations(
  db: Executor,
  articleIds: number[],
  langs: string[],
): Promise<Map<string, FileRow[]>> {
  const byVersion = new Map<string, FileRow[]>();
  if (articleIds.length === 0 || langs.length === 0) return byVersion;
  const rows = await db
    .selectFrom('article_translation_files')
    .innerJoin('files', 'files.id', 'article_translation_files.file_id')
    .selectAll('files')
    .select(['article_translation_files.article_id', 'article_translation_files.lang'])
    .where('article_translation_files.article_id', 'in', articleIds)
    .where('article_translation_files.lang', 'in', langs)
    .orderBy('article_translation_files.article_id')
    .orderBy('article_translation_files.position')
    .execute();
  for (const { article_id, lang, ...file } of rows) {
    const key = `${article_id}:${lang}`;
    const list = byVersion.get(key) ?? [];
    list.push(file);
    byVersion.set(key, list);
  }
  return byVersion;
}

/** When each article's published translations last changed, and how many there are: part of what search indexes. */
export async function articleTranslationStamps(db: Executor): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('article_translations')
    .select([
      'article_id',
      sql<number>`max(updated_at)`.as('changed'),
      sql<number>`count(*)`.as('count'),
    ])
    .where('published', '=', 1)
    .groupBy('article_id')
    .execute();
  return new Map(rows.map((row) => [row.article_id, `${Number(row.changed)}/${Number(row.count)}`]));
}

/** When the translations of sections and categories last changed, and how many there are, as one stamp. */
export async function treeTranslationStamp(db: Executor): Promise<string> {
  const [sections, categories] = await Promise.all(
    (['section_translations', 'category_translations'] as const).map((table) =>
      db
        .selectFrom(table)
        .select([sql<number>`max(updated_at)`.as('changed'), sql<number>`count(*)`.as('count')])
        .executeTakeFirstOrThrow(),
    ),
  );
  return [sections, categories].map((row) => `${Number(row?.changed ?? 0)}/${Number(row?.count ?? 0)}`).join(',');
}
