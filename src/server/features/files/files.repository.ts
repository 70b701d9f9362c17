import type { Executor } from '../../db/database.ts';
import type { FileRow } from '../../db/tables.ts';

export function findFile(db: Executor, id: number): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether anyone may download a content file: it is attached to a published article or linked from one's body
 * (`/files/ID/...`), it is a category's icon or in a description, the branding's logo or background, or it came from
 * a content folder without being attached only to drafts. Anything else (a fresh upload in the admin, an image of a
 * draft) answers only to admins.
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
  if (file.source_path !== null && attached.length === 0) return true;
  const marker = `%/files/${file.id}/%`;
  const [article, category, branding] = await Promise.all([
    db
      .selectFrom('articles')
      .select('id')
      .where('published', '=', 1)
      .where('body_html', 'like', marker)
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('categories')
      .select('id')
      .where((eb) => eb.or([eb('icon_file_id', '=', file.id), eb('description', 'like', marker)]))
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom('settings').select('value').where('key', '=', 'branding').executeTakeFirst(),
  ]);
  if (article || category) return true;
  const { logo_url, background_url } = branding
    ? (JSON.parse(branding.value) as Record<string, unknown>)
    : {};
  const prefix = `/files/${file.id}/`;
  return [logo_url, background_url].some((url) => typeof url === 'string' && url.startsWith(prefix));
}
