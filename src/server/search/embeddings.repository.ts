import type { Executor } from '../db/database.ts';

/** The stored embeddings of the given articles. */
export function readEmbeddings(db: Executor, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('article_embeddings').selectAll().where('article_id', 'in', ids).execute();
}

/** Stores embeddings, replacing an article's earlier one. */
export async function writeEmbeddings(
  db: Executor,
  rows: { article_id: number; digest: string; vector: string }[],
): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('article_embeddings')
      .values(row)
      .onConflict((oc) => oc.column('article_id').doUpdateSet({ digest: row.digest, vector: row.vector }))
      .execute();
  }
}
