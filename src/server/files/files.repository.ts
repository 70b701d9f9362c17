import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { Insertable, Updateable } from 'kysely';
import type { FileRow, FileTable } from '../db/tables.ts';

/** Records a stored file (an upload, an admin's content file, an imported asset) and answers its row. */
export function insertFile(db: Executor, file: Insertable<FileTable>): Promise<FileRow> {
  return db.insertInto('files').values(file).returningAll().executeTakeFirstOrThrow();
}

export async function writeFile(db: Executor, id: number, changes: Updateable<FileTable>): Promise<void> {
  await db.updateTable('files').set(changes).where('id', '=', id).execute();
}

/** Deletes file rows (the bytes stay until the sweep of unused bytes). */
export async function deleteFiles(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('files').where('id', 'in', ids).execute();
}

export function findFile(db: Executor, id: number): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether anyone may download a content file: it is attached to a published article or linked from one's body
 * (`/files/ID/...`), it is the icon of a category visitors can see or in its description, or the branding's logo or
 * background. Anything else (a fresh upload in the admin, an image of a draft, whether uploaded or imported from a
 * content folder) answers only to admins.
 */
export async function isPublicContentFile(db: Executor, file: FileRow): Promise<boolean> {
  if (file.kind !== 'content') return false;
  const attached = await db
    .selectFrom('article_files')
    .innerJoin('articles', 'articles.id', 'article_files.article_id')
    .select('articles.published')
    .where('article_files.file_id', '=', file.id)
    .execute();
  if (attached.some((row) => row.published === 1)) return true;
  const marker = `%/files/${file.id}/%`;
  const [article, category, branding] = await Promise.all([
    db
      .selectFrom('articles')
      .select('id')
      .where('published', '=', 1)
      .where('body_html', 'like', marker)
      .limit(1)
      .executeTakeFirst(),
    visibleCategoryUsing(db, file.id, marker),
    db.selectFrom('settings').select('value').where('key', '=', 'branding').executeTakeFirst(),
  ]);
  if (article || category) return true;
  const { logo_url, background_url } = branding
    ? (JSON.parse(branding.value) as Record<string, unknown>)
    : {};
  const prefix = `/files/${file.id}/`;
  return [logo_url, background_url].some((url) => typeof url === 'string' && url.startsWith(prefix));
}

/**
 * A category that uses the file (as its icon or in its description) and that visitors can see: a published article
 * sits somewhere below it. Union, not union all, so corrupt parent links cannot loop.
 */
async function visibleCategoryUsing(db: Executor, fileId: number, marker: string): Promise<unknown> {
  const { rows } = await sql`
    with recursive below(id) as (
      select id from categories where icon_file_id = ${fileId} or description like ${marker}
      union
      select categories.id from categories join below on categories.parent_id = below.id
    )
    select 1 as found from articles where published = 1 and category_id in (select id from below) limit 1
  `.execute(db);
  return rows[0];
}

/** Storage keys that no file row refers to any more, among those given. */
export async function unreferencedKeys(db: Executor, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const used = await db.selectFrom('files').select('storage_key').where('storage_key', 'in', keys).execute();
  const usedSet = new Set(used.map((r) => r.storage_key));
  return [...new Set(keys)].filter((key) => !usedSet.has(key));
}
