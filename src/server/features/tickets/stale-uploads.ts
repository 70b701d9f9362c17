import type { AppContext } from '../../context.ts';
import { removeUnusedBytes } from '../../files/unused-bytes.ts';
import { deleteFiles } from '../../files/files.repository.ts';
import { findStaleUploads } from '../../tickets/index.ts';

export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Deletes visitors' uploads that no request took within a day; their bytes go with the sweep of unused bytes. */
export async function deleteStaleUploads(ctx: AppContext, now = Date.now()): Promise<number> {
  const stale = await findStaleUploads(ctx.db, now - UPLOAD_LIFETIME_MS);
  if (stale.length === 0) return 0;
  await deleteFiles(ctx.db, stale);
  return stale.length;
}

/**
 * Deletes stale uploads, then removes the bytes nothing holds: a minute after the server starts (deploys may come
 * more often than every hour), then every hour. Several servers doing it at once is harmless.
 */
export function startFileCleanup(
  ctx: AppContext,
  log: { warn(details: object, message: string): void },
): { stop(): void } {
  const run = () =>
    void deleteStaleUploads(ctx)
      .then(() => removeUnusedBytes(ctx))
      .catch((error: unknown) => log.warn({ err: error }, 'file clean-up failed; it runs again in an hour'));
  const first = setTimeout(run, 60 * 1000);
  const timer = setInterval(run, 60 * 60 * 1000);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
