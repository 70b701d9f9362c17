import type { AppContext } from '../../context.ts';
import { unreferencedKeys } from '../content/content.repository.ts';

export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Deletes visitors' uploads that no request took within a day, and their bytes when nothing else holds them. */
export async function deleteStaleUploads(ctx: AppContext, now = Date.now()): Promise<number> {
  const stale = await ctx.db
    .selectFrom('files')
    .leftJoin('ticket_files', 'ticket_files.file_id', 'files.id')
    .select(['files.id', 'files.storage_key'])
    .where('files.kind', '=', 'upload')
    .where('files.created_at', '<', now - UPLOAD_LIFETIME_MS)
    .where('ticket_files.ticket_id', 'is', null)
    .execute();
  if (stale.length === 0) return 0;
  await ctx.db
    .deleteFrom('files')
    .where(
      'id',
      'in',
      stale.map((f) => f.id),
    )
    .execute();
  for (const key of await unreferencedKeys(
    ctx.db,
    stale.map((f) => f.storage_key),
  ))
    await ctx.storage.remove(key);
  return stale.length;
}

/** Runs the clean-up every hour in a server process; several servers doing it at once is harmless. */
export function startUploadCleanup(ctx: AppContext): { stop(): void } {
  const timer = setInterval(() => void deleteStaleUploads(ctx).catch(() => {}), 60 * 60 * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
