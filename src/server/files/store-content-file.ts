import { href } from '../../shared/paths.ts';
import type { AppContext } from '../context.ts';
import { contentTypeFor } from '../lib/content-type.ts';
import { insertFile } from './files.repository.ts';

/** Stores bytes as a public content file (a logo, an image) and answers its row id and link. */
export async function storeContentFile(ctx: AppContext, name: string, bytes: Buffer) {
  const blob = await ctx.storage.put(bytes);
  const row = await insertFile(ctx.db, {
    storage_key: blob.key,
    original_name: name,
    mime_type: contentTypeFor(name),
    size: blob.size,
    kind: 'content',
    source_path: null,
    created_at: Date.now(),
  });
  return { id: row.id, link: href.file(row.id, name) };
}
