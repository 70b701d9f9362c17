import type { AppContext } from '../context.ts';
import { unreferencedKeys } from './files.repository.ts';

/**
 * How long stored bytes that no file row holds are kept after they were last written. Uploads, imports and restores
 * write the bytes first and the rows that hold them after; a day is far longer than any of them takes, so bytes are
 * never removed between the two.
 */
export const UNUSED_BYTES_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * The one place stored bytes are removed while the help centre runs (a restore replaces them all): those no file row
 * holds and nobody has written for a day, and what writes cut off by a crash left, untouched for as long. Deleting a
 * file row never removes bytes itself, so no check-then-remove can race with an upload of the same bytes: such an
 * upload refreshes their time and the removal leaves them. Answers how many were removed.
 */
export async function removeUnusedBytes(ctx: AppContext, now = Date.now()): Promise<number> {
  const writtenBefore = now - UNUSED_BYTES_GRACE_MS;
  // First, so bytes a cut-off removal had set aside are back in place (and judged) before the keys are listed.
  let removed = await ctx.storage.removeAbandoned(writtenBefore);
  for await (const keys of ctx.storage.keysWrittenBefore(writtenBefore)) {
    for (const key of await unreferencedKeys(ctx.db, keys)) {
      if (await ctx.storage.remove(key, { writtenBefore })) removed++;
    }
  }
  return removed;
}
