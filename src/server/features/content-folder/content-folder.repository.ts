import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Dialect } from '../../db/schema-helpers.ts';

/** Every section, category, article and content file, for an import to find what each item of a folder is. */
export async function contentRows(db: Executor) {
  const [sections, categories, articles, files] = await Promise.all([
    db.selectFrom('sections').selectAll().orderBy('id').execute(),
    db.selectFrom('categories').selectAll().orderBy('id').execute(),
    db.selectFrom('articles').selectAll().orderBy('id').execute(),
    db.selectFrom('files').selectAll().where('kind', '=', 'content').orderBy('id').execute(),
  ]);
  return { sections, categories, articles, files };
}

/** The whole content, as an export writes it: the tree in position order, content files, attachment links. */
export async function readAllContent(db: Executor) {
  const [sections, categories, articles, files, links] = await Promise.all([
    db.selectFrom('sections').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('categories').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('articles').selectAll().orderBy('position').orderBy('id').execute(),
    db.selectFrom('files').selectAll().where('kind', '=', 'content').execute(),
    db.selectFrom('article_files').selectAll().orderBy('position').execute(),
  ]);
  return { sections, categories, articles, files, links };
}

export async function deleteAttachmentsOf(db: Executor, articleIds: number[]): Promise<void> {
  await db.deleteFrom('article_files').where('article_id', 'in', articleIds).execute();
}

export async function insertAttachments(
  db: Executor,
  rows: { article_id: number; file_id: number; position: number }[],
): Promise<void> {
  await db.insertInto('article_files').values(rows).execute();
}

/** Every section, category, article and content file by id and source path (null: made in the admin). */
export async function allContentKeys(db: Executor) {
  const [sections, categories, articles, files] = await Promise.all([
    db.selectFrom('sections').select(['id', 'source_path']).execute(),
    db.selectFrom('categories').select(['id', 'source_path']).execute(),
    db.selectFrom('articles').select(['id', 'source_path', 'title']).orderBy('id').execute(),
    db.selectFrom('files').select(['id', 'source_path']).where('kind', '=', 'content').execute(),
  ]);
  return { sections, categories, articles, files };
}

/** Takes the categories out of their parents, so they can go in any order. */
export async function detachCategories(db: Executor, ids: number[]): Promise<void> {
  if (ids.length)
    await db.updateTable('categories').set({ parent_id: null }).where('id', 'in', ids).execute();
}

/** The translations of items an import brought in (a source path), each kind whole, and their files in order. */
export async function importedTranslations(db: Executor) {
  const [sections, categories, articles, files] = await Promise.all([
    db
      .selectFrom('section_translations')
      .innerJoin('sections', 'sections.id', 'section_translations.section_id')
      .selectAll('section_translations')
      .where('sections.source_path', 'is not', null)
      .execute(),
    db
      .selectFrom('category_translations')
      .innerJoin('categories', 'categories.id', 'category_translations.category_id')
      .selectAll('category_translations')
      .where('categories.source_path', 'is not', null)
      .execute(),
    db
      .selectFrom('article_translations')
      .innerJoin('articles', 'articles.id', 'article_translations.article_id')
      .selectAll('article_translations')
      .where('articles.source_path', 'is not', null)
      .execute(),
    db
      .selectFrom('article_translation_files')
      .innerJoin('articles', 'articles.id', 'article_translation_files.article_id')
      .selectAll('article_translation_files')
      .where('articles.source_path', 'is not', null)
      .orderBy('article_translation_files.position')
      .execute(),
  ]);
  return { sections, categories, articles, files };
}

/** Every translation and translation's file, as an export writes them. */
export async function readAllTranslations(db: Executor) {
  const [sections, categories, articles, files] = await Promise.all([
    db.selectFrom('section_translations').selectAll().execute(),
    db.selectFrom('category_translations').selectAll().execute(),
    db.selectFrom('article_translations').selectAll().execute(),
    db.selectFrom('article_translation_files').selectAll().orderBy('position').execute(),
  ]);
  return { sections, categories, articles, files };
}

/** Where every category and article sits, to find what an import left in another section than its parent. */
export async function readPlacement(db: Executor) {
  const [categories, articles] = await Promise.all([
    db.selectFrom('categories').select(['id', 'section_id', 'parent_id']).execute(),
    db.selectFrom('articles').select(['id', 'section_id', 'category_id']).execute(),
  ]);
  return { categories, articles };
}

/**
 * PostgreSQL: new rows of the table get ids after `id`, which an import gave a row itself (SQLite's AUTOINCREMENT
 * does so on its own). The sequence never goes back, so an id once given is never given again.
 */
export async function continueIdsAfter(
  db: Executor,
  table: 'sections' | 'categories' | 'articles',
  id: number,
): Promise<void> {
  await sql`
    select setval(pg_get_serial_sequence(${table}, 'id'), ${id})
    where ${id} > coalesce(pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass), 0)
  `.execute(db);
}

/**
 * The highest id each table has given: its sequence (SQLite's AUTOINCREMENT counter, PostgreSQL's identity sequence),
 * which deleted rows moved too, or its highest row where the sequence says less (PostgreSQL's right after a restore).
 */
export async function highestIds(db: Executor, dialect: Dialect) {
  const tables = ['sections', 'categories', 'articles'] as const;
  const highest = { sections: 0, categories: 0, articles: 0 };
  for (const table of tables) {
    const sequence =
      dialect === 'postgres'
        ? sql<{ value: number | string | null }>`
            select pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass) as value`
        : sql<{
            value: number | string | null;
          }>`select seq as value from sqlite_sequence where name = ${table}`;
    const [given] = (await sequence.execute(db)).rows;
    const top = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max('id').as('value'))
      .executeTakeFirst();
    highest[table] = Math.max(Number(given?.value ?? 0), Number(top?.value ?? 0));
  }
  return highest;
}
