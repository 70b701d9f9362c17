import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { RevisionWatch } from './revision-watch.ts';

/** After a failed read, how long the last revision is used without asking the database again. */
const RETRY_MS = 1_000;

/**
 * While the database cannot be reached, the last revision read stands, so the public answers kept in memory
 * (response-cache.ts) go on being served during a database restart or outage; whatever is not kept fails with 503
 * as it must. Stale if need be, rather than no answer: the content cannot change meanwhile (every change needs the
 * database), but a change made just before the outage may not show until the database is back.
 */
export function outlastOutages(watch: RevisionWatch): RevisionWatch {
  let last: string | null = null;
  let downUntil = 0;
  return {
    async current() {
      if (last !== null && Date.now() < downUntil) return last;
      try {
        last = await watch.current();
        return last;
      } catch (error) {
        if (last === null || !isDatabaseUnavailable(error)) throw error;
        downUntil = Date.now() + RETRY_MS;
        return last;
      }
    },
    peek: () => watch.peek(),
    invalidate: () => watch.invalidate(),
    onChange: (listener) => watch.onChange(listener),
  };
}
