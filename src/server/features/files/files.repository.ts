import type { Executor } from '../../db/database.ts';
import type { FileRow } from '../../db/tables.ts';

export function findFile(db: Executor, id: number): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A content file attached to articles is public only while one of those articles is published. */
export async function isAttachedOnlyToDrafts(db: Executor, fileId: number): Promise<boolean> {
  const rows = await db
    .selectFrom('article_files')
    .innerJoin('articles', 'articles.id', 'article_files.article_id')
    .select('articles.published')
    .where('article_files.file_id', '=', fileId)
    .execute();
  return rows.length > 0 && rows.every((r) => r.published === 0);
}
