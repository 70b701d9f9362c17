import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';

/**
 * What every public answer depends on, as one string: the content's revision (bumped by every content change) and a
 * digest of the branding. Cached answers carry the value they were made under and are good while it stands.
 *
 * The value is read from the database at most once per `checkMs` (0: on every call), so under load a server asks
 * a few times a second however many requests it answers, and a change made through any server is seen by all of
 * them within `checkMs`. Writes through this server call `invalidate()`, so their author sees them at once.
 */
export interface RevisionWatch {
  current(): Promise<string>;
  /** The value when it is known fresh (read within `checkMs`), else null: the caller then awaits current(). */
  peek(): string | null;
  invalidate(): void;
}

export function createRevisionWatch(db: Executor, checkMs: number): RevisionWatch {
  let value: string | null = null;
  let readAt = 0;
  let reading: Promise<string> | null = null;
  let generation = 0;

  const read = (): Promise<string> => {
    if (reading) return reading;
    const started = generation;
    const promise = db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', ['content_revision', 'branding'])
      .execute()
      .then((rows) => {
        const of = (key: string) => rows.find((row) => row.key === key)?.value ?? '';
        const branding = crypto.createHash('sha1').update(of('branding')).digest('base64url').slice(0, 12);
        const next = `${of('content_revision')}.${branding}`;
        // Kept only if no write came while reading (that value may predate the write).
        if (started === generation) {
          value = next;
          readAt = Date.now();
        }
        return next;
      })
      .finally(() => {
        if (reading === promise) reading = null;
      });
    reading = promise;
    return promise;
  };

  const fresh = () => value !== null && checkMs > 0 && Date.now() - readAt < checkMs;

  return {
    current() {
      if (fresh()) return Promise.resolve(value as string);
      return read();
    },
    peek() {
      return fresh() ? value : null;
    },
    invalidate() {
      generation++;
      value = null;
      reading = null;
    },
  };
}
