import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type {
  Database,
  ArticleTranslationRow,
  ArticleTranslationTable,
  CategoryTranslationRow,
  CategoryTranslationTable,
  FileRow,
  SectionTranslationRow,
  SectionTranslationTable,
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

// ---- the team's side: every translation, drafts included ----

export function listSectionTranslations(db: Executor, sectionIds?: number[]): Promise<SectionTranslationRow[]> {
  if (sectionIds?.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('section_translations').selectAll();
  if (sectionIds) query = query.where('section_id', 'in', sectionIds);
  return query.execute();
}

export function listCategoryTranslations(
  db: Executor,
  categoryIds?: number[],
): Promise<CategoryTranslationRow[]> {
  if (categoryIds?.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('category_translations').selectAll();
  if (categoryIds) query = query.where('category_id', 'in', categoryIds);
  return query.execute();
}

export function listArticleTranslations(db: Executor, articleIds?: number[]): Promise<ArticleTranslationRow[]> {
  if (articleIds?.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('article_translations').selectAll();
  if (articleIds) query = query.where('article_id', 'in', articleIds);
  return query.execute();
}

type TranslationTable = 'section_translations' | 'category_translations' | 'article_translations';
const itemColumn = {
  section_translations: 'section_id',
  category_translations: 'category_id',
  article_translations: 'article_id',
} as const;

export async function upsertSectionTranslation(
  db: Executor,
  row: Insertable<SectionTranslationTable>,
): Promise<void> {
  const { section_id: _id, lang: _lang, created_at: _created, ...changes } = row;
  await db
    .insertInto('section_translations')
    .values(row)
    .onConflict((oc) => oc.columns(['section_id', 'lang']).doUpdateSet(changes))
    .execute();
}

export async function upsertCategoryTranslation(
  db: Executor,
  row: Insertable<CategoryTranslationTable>,
): Promise<void> {
  const { category_id: _id, lang: _lang, created_at: _created, ...changes } = row;
  await db
    .insertInto('category_translations')
    .values(row)
    .onConflict((oc) => oc.columns(['category_id', 'lang']).doUpdateSet(changes))
    .execute();
}

export async function upsertArticleTranslation(
  db: Executor,
  row: Insertable<ArticleTranslationTable>,
): Promise<void> {
  const { article_id: _id, lang: _lang, created_at: _created, ...changes } = row;
  await db
    .insertInto('article_translations')
    .values(row)
    .onConflict((oc) => oc.columns(['article_id', 'lang']).doUpdateSet(changes))
    .execute();
}

/** Answers whether there was one to change. */
export async function setTranslationPublished(
  db: Executor,
  table: TranslationTable,
  itemId: number,
  lang: string,
  published: 0 | 1,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ published, updated_at: Date.now() })
    .where(itemColumn[table], '=', itemId)
    .where('lang', '=', lang)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Answers whether there was one to delete; an article translation's file links go with it (cascade). */
export async function deleteTranslation(
  db: Executor,
  table: TranslationTable,
  itemId: number,
  lang: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where(itemColumn[table], '=', itemId)
    .where('lang', '=', lang)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function translationFileRows(db: Executor, articleId: number, lang: string): Promise<FileRow[]> {
  return db
    .selectFrom('article_translation_files')
    .innerJoin('files', 'files.id', 'article_translation_files.file_id')
    .selectAll('files')
    .where('article_translation_files.article_id', '=', articleId)
    .where('article_translation_files.lang', '=', lang)
    .orderBy('article_translation_files.position')
    .execute();
}

export async function replaceTranslationFiles(
  db: Executor,
  articleId: number,
  lang: string,
  fileIds: number[],
): Promise<void> {
  await db
    .deleteFrom('article_translation_files')
    .where('article_id', '=', articleId)
    .where('lang', '=', lang)
    .execute();
  if (fileIds.length === 0) return;
  await db
    .insertInto('article_translation_files')
    .values(fileIds.map((file_id, position) => ({ article_id: articleId, lang, file_id, position })))
    .execute();
}
