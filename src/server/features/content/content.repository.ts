import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/**
 * What a content change can affect, for the caches that keep public answers (http/response-cache.ts):
 * - `*`: anything (the tree, names, titles, positions, publication, branding; the default);
 * - `article:ID`: that published article's own page and call (its body, files);
 * - `bodies`: the calls that list whole articles with their bodies;
 * - `search`: suggestions and search pages;
 * - `branding`: every page, and the branding and environments calls;
 * - `draft`: nothing visitors see (an edit of an unpublished article).
 */
export type ChangeScope = '*' | `article:${number}` | 'bodies' | 'search' | 'branding' | 'draft';

/** The scopes of an edit to one published article's body or files, which shows nowhere else. */
export const articleBodyScopes = (id: number): ChangeScope[] => [`article:${id}`, 'bodies', 'search'];

/** Change log rows kept: a server further behind than this drops all it keeps. */
const CHANGES_KEPT = 1_000;

/**
 * Marks the content as changed, so caches and search indexes on every server know to refresh, and records what the
 * change can affect. The revision is a counter moved under the settings row's lock, so revisions follow the order
 * in which the changes commit (a timestamp could repeat, or commit out of order on PostgreSQL).
 */
export async function touchContent(db: Executor, scopes: ChangeScope[] = ['*']): Promise<number> {
  const row = await db
    .insertInto('settings')
    .values({ key: 'content_revision', value: '1' })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: sql<string>`cast(cast(settings.value as bigint) + 1 as text)` }),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  const revision = Number(row.value);
  await db
    .insertInto('content_changes')
    .values({ revision, scopes: [...new Set(scopes)].join(' '), created_at: Date.now() })
    .execute();
  if (revision % 100 === 0) {
    await db.deleteFrom('content_changes').where('revision', '<=', revision - CHANGES_KEPT).execute();
  }
  return revision;
}

/**
 * The scopes changed after revision `from` up to and including `to`, or `*` when the log cannot say (it was pruned,
 * the revision went back after a restore, or a change was made without the log).
 */
export async function changedScopes(db: Executor, from: number, to: number): Promise<Set<string>> {
  if (!(to > from) || to - from > CHANGES_KEPT) return new Set(['*']);
  const rows = await db
    .selectFrom('content_changes')
    .select('scopes')
    .where('revision', '>', from)
    .where('revision', '<=', to)
    .execute();
  if (rows.length !== to - from) return new Set(['*']);
  return new Set(rows.flatMap((r) => r.scopes.split(' ')));
}

export async function importedKeys(db: Executor) {
  const [sections, categories, articles, files] = await Promise.all([
    db.selectFrom('sections').selectAll().where('source_path', 'is not', null).execute(),
    db.selectFrom('categories').selectAll().where('source_path', 'is not', null).execute(),
    db.selectFrom('articles').selectAll().where('source_path', 'is not', null).execute(),
    db
      .selectFrom('files')
      .selectAll()
      .where('source_path', 'is not', null)
      .where('kind', '=', 'content')
      .execute(),
  ]);
  const byPath = <T extends { source_path: string | null }>(rows: T[]) => new Map(rows.map((r) => [r.source_path as string, r]));
  return { sections: byPath(sections), categories: byPath(categories), articles: byPath(articles), files: byPath(files) };
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

/** Storage keys that no file row refers to any more, among those given. */
export async function unreferencedKeys(db: Executor, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const used = await db.selectFrom('files').select('storage_key').where('storage_key', 'in', keys).execute();
  const usedSet = new Set(used.map((r) => r.storage_key));
  return [...new Set(keys)].filter((key) => !usedSet.has(key));
}

export function chunks<T>(items: T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
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
