import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { changedScopes, readRevisionSources } from './revision.repository.ts';

/** Told, before a new revision is given out, what changed since the one before (scopes as in touchContent). */
export type RevisionListener = (from: string, to: string, scopes: ReadonlySet<string>) => void;

/**
 * What every public answer depends on, as one string: the content's revision (a counter moved by every content
 * change) and a digest of the branding. Cached answers carry the value they were made under and are good while it
 * stands; when it moves, listeners learn which scopes the changes in between touched (the content change log, plus
 * `branding` and `search` when the branding changed), so they keep what those changes cannot affect.
 *
 * The value is read from the database at most once per `checkMs` (0: on every call, waiting for it), so under load
 * a server asks a few times a second however many requests it answers, and a change made through any server is
 * seen by all of them within `checkMs` and one read. Writes through this server call `invalidate()`, so their
 * author sees them at once.
 */
export interface RevisionWatch {
  current(): Promise<string>;
  /** The value when it is known fresh (read within `checkMs`), else null: the caller then awaits current(). */
  peek(): string | null;
  invalidate(): void;
  onChange(listener: RevisionListener): void;
}

export function createRevisionWatch(db: Executor, checkMs: number): RevisionWatch {
  let value: string | null = null;
  let counter = 0;
  let brandingDigest = '';
  let readAt = 0;
  let reading: Promise<string> | null = null;
  /** Moved by invalidate(): a read that began before a write may have missed it, so it does not count as fresh. */
  let generation = 0;
  /** Reads are numbered; an older read that ends after a newer one applies nothing. */
  let started = 0;
  let applied = 0;
  const listeners: RevisionListener[] = [];

  const read = (): Promise<string> => {
    if (reading) return reading;
    const sequence = ++started;
    const generationAtStart = generation;
    const base = value === null ? null : { counter, brandingDigest };
    const promise = (async () => {
      const rows = await readRevisionSources(db);
      const of = (key: string) => rows.find((row) => row.key === key)?.value ?? '';
      const nextCounter = Number(of('content_revision')) || 0;
      const nextDigest = crypto.createHash('sha1').update(of('branding')).digest('base64url').slice(0, 12);
      const next = `${nextCounter}.${nextDigest}`;
      let scopes: Set<string> = new Set(['*']);
      if (base) {
        scopes =
          base.counter === nextCounter ? new Set() : await changedScopes(db, base.counter, nextCounter);
        if (base.brandingDigest !== nextDigest) scopes.add('branding').add('search');
      }
      if (sequence > applied) {
        applied = sequence;
        if (value !== null && value !== next) {
          // Against `base`, which may be older than `value` if another read applied meanwhile: a superset, safe.
          for (const listener of listeners) listener(value, next, scopes);
        }
        value = next;
        counter = nextCounter;
        brandingDigest = nextDigest;
        if (generationAtStart === generation) readAt = Date.now();
      }
      return next;
    })().finally(() => {
      if (reading === promise) reading = null;
    });
    reading = promise;
    return promise;
  };

  const fresh = () => value !== null && checkMs > 0 && readAt > 0 && Date.now() - readAt < checkMs;
  /**
   * Stale only by time (no write through this server since): the value stands while one read, in the background,
   * brings it up to date, so no request waits for the database, and a frozen one never holds up what is cached.
   */
  const staleByTime = () => value !== null && checkMs > 0 && readAt > 0;
  const readInBackground = () => {
    // A failure is the next waiting caller's to see (and revision-outage.ts's to outlast).
    read().catch(() => undefined);
  };

  return {
    current() {
      if (fresh()) return Promise.resolve(value as string);
      if (staleByTime()) {
        readInBackground();
        return Promise.resolve(value as string);
      }
      return read();
    },
    peek() {
      if (fresh()) return value;
      if (staleByTime()) {
        readInBackground();
        return value;
      }
      return null;
    },
    invalidate() {
      generation++;
      readAt = 0;
      reading = null;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
