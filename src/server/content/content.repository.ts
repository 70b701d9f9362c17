import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor, Tx } from '../db/database.ts';
import { chunks } from '../lib/chunks.ts';
import type { Dialect } from '../db/schema-helpers.ts';
import type {
  ArticleRow,
  ArticleTable,
  CategoryRow,
  CategoryTable,
  FileRow,
  SectionRow,
  SectionTable,
} from '../db/tables.ts';

export type ItemKind = 'section' | 'category' | 'article';

export interface Sibling {
  id: number;
  position: number;
}

export function listAllSections(db: Executor): Promise<SectionRow[]> {
  return db.selectFrom('sections').selectAll().orderBy('position').orderBy('id').execute();
}

export function listAllCategories(db: Executor): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().orderBy('position').orderBy('id').execute();
}

export function listAllArticleSummaries(db: Executor) {
  return db
    .selectFrom('articles')
    .select([
      'id',
      'section_id',
      'category_id',
      'title',
      'position',
      'published',
      'can_create_issue',
      'visibility',
      'updated_at',
    ])
    .orderBy('section_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export const findSection = (db: Executor, id: number): Promise<SectionRow | undefined> =>
  db.selectFrom('sections').selectAll().where('id', '=', id).executeTakeFirst();

export const findCategory = (db: Executor, id: number): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();

export const findArticle = (db: Executor, id: number): Promise<ArticleRow | undefined> =>
  db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirst();

export const findFile = (db: Executor, id: number): Promise<FileRow | undefined> =>
  db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();

export async function filesByIds(db: Executor, ids: number[]): Promise<Map<number, FileRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export function attachedFileRows(db: Executor, articleId: number): Promise<FileRow[]> {
  return db
    .selectFrom('article_files')
    .innerJoin('files', 'files.id', 'article_files.file_id')
    .selectAll('files')
    .where('article_files.article_id', '=', articleId)
    .orderBy('article_files.position')
    .execute();
}

export async function replaceAttachments(db: Executor, articleId: number, fileIds: number[]): Promise<void> {
  await db.deleteFrom('article_files').where('article_id', '=', articleId).execute();
  if (fileIds.length === 0) return;
  await db
    .insertInto('article_files')
    .values(fileIds.map((file_id, position) => ({ article_id: articleId, file_id, position })))
    .execute();
}

/** Siblings in their order: every section; a container's categories; a container's articles. */
export function listSiblings(
  db: Executor,
  kind: ItemKind,
  sectionId: number,
  parentId: number | null,
): Promise<Sibling[]> {
  if (kind === 'section') {
    return db.selectFrom('sections').select(['id', 'position']).orderBy('position').orderBy('id').execute();
  }
  if (kind === 'category') {
    let query = db.selectFrom('categories').select(['id', 'position']).where('section_id', '=', sectionId);
    query =
      parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
    return query.orderBy('position').orderBy('id').execute();
  }
  let query = db.selectFrom('articles').select(['id', 'position']).where('section_id', '=', sectionId);
  query =
    parentId === null ? query.where('category_id', 'is', null) : query.where('category_id', '=', parentId);
  return query.orderBy('position').orderBy('id').execute();
}

export async function setPosition(
  db: Executor,
  kind: ItemKind,
  id: number,
  position: number,
  now: number,
): Promise<void> {
  const values = { position, updated_at: now };
  if (kind === 'section') await db.updateTable('sections').set(values).where('id', '=', id).execute();
  else if (kind === 'category') await db.updateTable('categories').set(values).where('id', '=', id).execute();
  else await db.updateTable('articles').set(values).where('id', '=', id).execute();
}

/** A category and every category below it, from the categories of its section. */
export async function subtreeIds(db: Executor, category: CategoryRow): Promise<number[]> {
  const all = await db
    .selectFrom('categories')
    .select(['id', 'parent_id'])
    .where('section_id', '=', category.section_id)
    .execute();
  const children = new Map<number, number[]>();
  for (const row of all) {
    if (row.parent_id !== null) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row.id]);
  }
  const result: number[] = [];
  const queue = [category.id];
  while (queue.length) {
    const id = queue.shift() as number;
    result.push(id);
    queue.push(...(children.get(id) ?? []));
  }
  return result;
}

export async function articleIdsIn(
  db: Executor,
  where: { sectionId: number } | { categoryIds: number[] },
): Promise<number[]> {
  if ('categoryIds' in where) {
    if (where.categoryIds.length === 0) return [];
    const rows = await db
      .selectFrom('articles')
      .select('id')
      .where('category_id', 'in', where.categoryIds)
      .execute();
    return rows.map((row) => row.id);
  }
  const rows = await db
    .selectFrom('articles')
    .select('id')
    .where('section_id', '=', where.sectionId)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Makes the transactions that may re-parent categories (moves, and deletes that move what is inside) run one at a
 * time. Each checks that a category does not go below itself, but two that run side by side can each pass that
 * check and together close a loop (A into B while B goes into A). SQLite transactions already run one at a time
 * (they begin IMMEDIATE); PostgreSQL at READ COMMITTED needs the lock. It is an advisory lock, not row locks: the
 * rows that make a loop are not known before the tree is read, and a loop can run through rows neither move
 * touches. Named per schema, so help centres sharing a database do not wait for each other.
 */
export async function lockCategoryTree(trx: Tx, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.category_tree'))`.execute(trx);
}

/** Adds a section row; answers its id. */
export async function insertSection(db: Executor, values: Insertable<SectionTable>): Promise<number> {
  const row = await db.insertInto('sections').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function writeSection(
  db: Executor,
  id: number,
  changes: Updateable<SectionTable>,
): Promise<void> {
  await db.updateTable('sections').set(changes).where('id', '=', id).execute();
}

/** Deletes the section's row alone (its content has been moved or deleted). */
export async function deleteSectionRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('sections').where('id', '=', id).execute();
}

/** Every category of a section, at any depth. */
export const categoriesInSection = (db: Executor, sectionId: number): Promise<CategoryRow[]> =>
  db.selectFrom('categories').selectAll().where('section_id', '=', sectionId).execute();

/** Every article of a section, in a category or not. */
export const articlesInSection = (db: Executor, sectionId: number): Promise<ArticleRow[]> =>
  db.selectFrom('articles').selectAll().where('section_id', '=', sectionId).execute();

/** Deletes every article and category of a section. */
export async function deleteSectionContent(db: Executor, sectionId: number): Promise<void> {
  await db.deleteFrom('articles').where('section_id', '=', sectionId).execute();
  await db.deleteFrom('categories').where('section_id', '=', sectionId).execute();
}

/** Adds a category row; answers its id. */
export async function insertCategory(db: Executor, values: Insertable<CategoryTable>): Promise<number> {
  const row = await db.insertInto('categories').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function writeCategory(
  db: Executor,
  id: number,
  changes: Updateable<CategoryTable>,
): Promise<void> {
  await db.updateTable('categories').set(changes).where('id', '=', id).execute();
}

/** The categories directly inside a category. */
export const childCategories = (db: Executor, parentId: number): Promise<CategoryRow[]> =>
  db.selectFrom('categories').selectAll().where('parent_id', '=', parentId).execute();

/** The articles directly inside a category. */
export const articlesInCategory = (db: Executor, categoryId: number): Promise<ArticleRow[]> =>
  db.selectFrom('articles').selectAll().where('category_id', '=', categoryId).execute();

export async function deleteCategories(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('categories').where('id', 'in', ids).execute();
}

export async function deleteArticles(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('articles').where('id', 'in', ids).execute();
}

export async function writeArticle(
  db: Executor,
  id: number,
  changes: Updateable<ArticleTable>,
): Promise<void> {
  await db.updateTable('articles').set(changes).where('id', '=', id).execute();
}

/** Adds an article row; answers its id. */
export async function insertArticle(db: Executor, values: Insertable<ArticleTable>): Promise<number> {
  const row = await db.insertInto('articles').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Takes the article's row lock for the rest of the transaction (a no-op write); false when there is no such row. */
export async function lockArticleRow(trx: Tx, id: number): Promise<boolean> {
  const locked = await trx
    .updateTable('articles')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) > 0;
}

/** Which of `ids` are stored content files. */
export async function storedContentFileIds(db: Executor, ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('id', 'in', ids)
    .where('kind', '=', 'content')
    .execute();
  return rows.map((row) => row.id);
}

/** Moves categories (a subtree) or articles (in the categories they are in) to another section. */
export async function moveToSection(
  db: Executor,
  table: 'categories' | 'articles',
  ids: number[],
  sectionId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ section_id: sectionId, updated_at: now })
    .where('id', 'in', ids)
    .execute();
}

/** Whether a category still holds an article or a subcategory. */
export async function categoryHoldsContent(db: Executor, id: number): Promise<boolean> {
  const [article, child] = await Promise.all([
    db.selectFrom('articles').select('id').where('category_id', '=', id).executeTakeFirst(),
    db.selectFrom('categories').select('id').where('parent_id', '=', id).executeTakeFirst(),
  ]);
  return Boolean(article || child);
}

/** Whether a section still holds an article or a category. */
export async function sectionHoldsContent(db: Executor, id: number): Promise<boolean> {
  const [article, category] = await Promise.all([
    db.selectFrom('articles').select('id').where('section_id', '=', id).executeTakeFirst(),
    db.selectFrom('categories').select('id').where('section_id', '=', id).executeTakeFirst(),
  ]);
  return Boolean(article || category);
}

/** Takes the given files away from the categories that use them as icons. */
export async function clearCategoryIcons(db: Executor, fileIds: number[]): Promise<void> {
  await db
    .updateTable('categories')
    .set({ icon_file_id: null, icon_type: null })
    .where('icon_file_id', 'in', fileIds)
    .execute();
}

/** Whether any article is published (visitors may still need to sign in to read it). */
export async function hasPublishedArticle(db: Executor): Promise<boolean> {
  return Boolean(
    await db.selectFrom('articles').select('id').where('published', '=', 1).limit(1).executeTakeFirst(),
  );
}

/** Whether the help centre has any section at all. */
export async function hasAnySection(db: Executor): Promise<boolean> {
  return Boolean(await db.selectFrom('sections').select('id').limit(1).executeTakeFirst());
}

/** The files attached to each of the articles, in their order. */
export async function attachedFiles(db: Executor, articleIds: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  for (const ids of chunks(articleIds)) {
    const rows = await db
      .selectFrom('article_files')
      .select(['article_id', 'file_id'])
      .where('article_id', 'in', ids)
      .orderBy('article_id')
      .orderBy('position')
      .execute();
    for (const row of rows) result.set(row.article_id, [...(result.get(row.article_id) ?? []), row.file_id]);
  }
  return result;
}
