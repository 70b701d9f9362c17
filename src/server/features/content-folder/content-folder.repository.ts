import type { Executor } from '../../db/database.ts';

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
  const byPath = <T extends { source_path: string | null }>(rows: T[]) =>
    new Map(rows.map((r) => [r.source_path as string, r]));
  return {
    sections: byPath(sections),
    categories: byPath(categories),
    articles: byPath(articles),
    files: byPath(files),
  };
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
