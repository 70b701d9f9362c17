import type { RevisionWatch } from './revision-watch.ts';

/**
 * Values worked out from the content, kept while the revision stands: the first call under a new revision drops
 * them all. The revision is read before the value is made, so a value can only be newer than its revision, never
 * older. Keys name what each value depends on besides the content (the reader's audience and language).
 */
export function perRevision(revisions: RevisionWatch) {
  let revision: string | null = null;
  let values = new Map<string, Promise<unknown>>();
  return async function remember<T>(key: string, make: () => Promise<T>): Promise<T> {
    const current = await revisions.current();
    if (current !== revision) {
      revision = current;
      values = new Map();
    }
    const kept = values.get(key) as Promise<T> | undefined;
    if (kept) return kept;
    const made = make();
    const into = values;
    into.set(key, made);
    // A failure is not kept: the next call tries again.
    made.catch(() => {
      if (into.get(key) === made) into.delete(key);
    });
    return made;
  };
}
