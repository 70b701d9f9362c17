import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { Insertable, Updateable } from 'kysely';
import type { FileRow, FileTable } from '../db/tables.ts';
import type { Visibility } from '../../shared/constants.ts';
import { listAllCategories, listAllSections } from '../content/content.repository.ts';
import { restrictionsOf, type Audience } from '../content/visibility.ts';

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
 * Who may download a content file: those who may read a published article (or published translation of one) it is
 * attached to or linked from (`/files/ID/...`), or a category it is the icon of or in the description of (its own,
 * or a published translation's) that visitors can see (a published article they may read sits below it); everyone
 * for the branding's logo or background. Null: nobody but the team (a fresh upload in the admin, an image of a
 * draft, whether uploaded or imported from a content folder).
 */
export async function readersOfContentFile(db: Executor, file: FileRow): Promise<Audience | null> {
  if (file.kind !== 'content') return null;
  const marker = `%/files/${file.id}/%`;
  const [articles, categories, branding, sections, allCategories] = await Promise.all([
    db
      .selectFrom('articles')
      .select(['visibility', 'section_id', 'category_id'])
      .where((eb) =>
        eb.or([
          eb.and([
            eb('published', '=', 1),
            eb.or([
              eb('body_html', 'like', marker),
              eb(
                'id',
                'in',
                eb.selectFrom('article_files').select('article_id').where('file_id', '=', file.id),
              ),
            ]),
          ]),
          // A published translation's body or files: the article is on the site, read in that language.
          eb(
            'id',
            'in',
            eb
              .selectFrom('article_translations as t')
              .select('t.article_id')
              .where('t.published', '=', 1)
              .where((inner) =>
                inner.or([
                  inner('t.body_html', 'like', marker),
                  inner.exists(
                    inner
                      .selectFrom('article_translation_files as f')
                      .select('f.file_id')
                      .whereRef('f.article_id', '=', 't.article_id')
                      .whereRef('f.lang', '=', 't.lang')
                      .where('f.file_id', '=', file.id),
                  ),
                ]),
              ),
          ),
        ]),
      )
      .execute(),
    categoriesUsing(db, file.id, marker),
    db.selectFrom('settings').select('value').where('key', '=', 'branding').executeTakeFirst(),
    listAllSections(db),
    listAllCategories(db),
  ]);
  const { logo_url, background_url } = branding
    ? (JSON.parse(branding.value) as Record<string, unknown>)
    : {};
  const prefix = `/files/${file.id}/`;
  if ([logo_url, background_url].some((url) => typeof url === 'string' && url.startsWith(prefix)))
    return 'everyone';
  const restrictions = restrictionsOf(sections, allCategories);
  const readers = [
    ...articles.map((article) => restrictions.article(article)),
    ...categories.map(({ root, below }) => restrictions.category(root) || below.every(restrictions.article)),
  ];
  if (readers.includes(false)) return 'everyone';
  return readers.length ? 'signed_in' : null;
}

/**
 * The categories that use the file (as their icon or in their description) and that visitors can see, each with the
 * published articles somewhere below it. Union, not union all, so corrupt parent links cannot loop.
 */
async function categoriesUsing(db: Executor, fileId: number, marker: string) {
  const { rows } = await sql<{
    root: number;
    visibility: Visibility;
    section_id: number;
    category_id: number;
  }>`
    with recursive below(root, id) as (
      select id, id from categories where icon_file_id = ${fileId} or description like ${marker}
        or id in (select category_id from category_translations where published = 1 and description like ${marker})
      union
      select below.root, categories.id from categories join below on categories.parent_id = below.id
    )
    select below.root, articles.visibility, articles.section_id, articles.category_id
    from articles join below on articles.category_id = below.id
    where articles.published = 1
      or articles.id in (select article_id from article_translations where published = 1)
  `.execute(db);
  const byRoot = new Map<number, typeof rows>();
  for (const row of rows) byRoot.set(row.root, [...(byRoot.get(row.root) ?? []), row]);
  return [...byRoot].map(([root, below]) => ({ root: Number(root), below }));
}

/** Storage keys that no file row refers to any more, among those given. */
export async function unreferencedKeys(db: Executor, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const used = await db.selectFrom('files').select('storage_key').where('storage_key', 'in', keys).execute();
  const usedSet = new Set(used.map((r) => r.storage_key));
  return [...new Set(keys)].filter((key) => !usedSet.has(key));
}
