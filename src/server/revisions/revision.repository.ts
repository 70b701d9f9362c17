import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/**
 * What a content change can affect, for the caches that keep public answers (http/response-cache.ts):
 * - `*`: anything (the tree, names, titles, positions, publication, branding; the default);
 * - `article:ID`: that published article's own page and call (its body, files);
 * - `bodies`: the calls that list whole articles with their bodies;
 * - `search`: suggestions and search pages;
 * - `branding`: every page, and the branding and environments calls;
 * - `draft`: nothing visitors see (an edit of an unpublished article);
 * - `learned`: everything search learned from visitors' votes (search/learning.ts), which no other scope touches,
 *   `*` included: the servers read the votes again only for this, a `learned:KEY`, or an unknown change;
 * - `learned:KEY`: what was learned for that query key (its spaces as `+`, a scope being one word).
 */
export type ChangeScope =
  '*' | `article:${number}` | 'bodies' | 'search' | 'branding' | 'draft' | 'learned' | `learned:${string}`;

/**
 * In changedScopes' answer, beside `*`, when the log cannot say what changed: then anything may have, votes too,
 * where a logged `*` is an edit of the content only.
 */
export const UNKNOWN_CHANGES = 'unknown';

/** The scopes of an edit to one published article's body or files, which shows nowhere else. */
export const articleBodyScopes = (id: number): ChangeScope[] => [`article:${id}`, 'bodies', 'search'];

/**
 * The scopes of a change to what search learned, for one query key or all: `search` (the answers it shapes) and
 * which votes to read again. A query key's words never hold a `+` (it splits words), so it stands for the spaces.
 */
export const learnedScopes = (queryKey?: string): ChangeScope[] => [
  'search',
  queryKey === undefined ? 'learned' : `learned:${queryKey.replaceAll(' ', '+')}`,
];

/**
 * What the changes in `scopes` (changedScopes' answer) did to what was learned: `all` of it may have changed, or
 * only the query keys listed.
 */
export function learnedChanges(scopes: ReadonlySet<string>): 'all' | Set<string> {
  if (scopes.has(UNKNOWN_CHANGES) || scopes.has('learned')) return 'all';
  const keys = new Set<string>();
  for (const scope of scopes)
    if (scope.startsWith('learned:')) keys.add(scope.slice('learned:'.length).replaceAll('+', ' '));
  return keys;
}

/** Change log rows kept: a server further behind than this drops all it keeps. */
const CHANGES_KEPT = 1_000;

/**
 * Marks the content as changed, so caches and search indexes on every server know to refresh, and records what the
 * change can affect. The revision is a counter moved under the settings row's lock, so revisions follow the order
 * in which the changes commit (a timestamp could repeat, or commit out of order on PostgreSQL).
 */
export async function touchContent(db: Executor, scopes: ChangeScope[] = ['*']): Promise<number> {
  const row = await db
    .insertInto('settings')
    .values({ key: 'content_revision', value: '1' })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: sql<string>`cast(cast(settings.value as bigint) + 1 as text)` }),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  const revision = Number(row.value);
  await db
    .insertInto('content_changes')
    .values({ revision, scopes: [...new Set(scopes)].join(' '), created_at: Date.now() })
    .execute();
  if (revision % 100 === 0) {
    await db
      .deleteFrom('content_changes')
      .where('revision', '<=', revision - CHANGES_KEPT)
      .execute();
  }
  return revision;
}

/**
 * The scopes changed after revision `from` up to and including `to`, or `*` and UNKNOWN_CHANGES when the log
 * cannot say (it was pruned, the revision went back after a restore, or a change was made without the log).
 */
export async function changedScopes(db: Executor, from: number, to: number): Promise<Set<string>> {
  const unknown = () => new Set(['*', UNKNOWN_CHANGES]);
  if (to === from) return new Set();
  if (!(to > from) || to - from > CHANGES_KEPT) return unknown();
  const rows = await db
    .selectFrom('content_changes')
    .select('scopes')
    .where('revision', '>', from)
    .where('revision', '<=', to)
    .execute();
  if (rows.length !== to - from) return unknown();
  return new Set(rows.flatMap((r) => r.scopes.split(' ')));
}

/** The rows a server's revision is made of: the content's counter and the branding (see revision-watch.ts). */
export function readRevisionSources(db: Executor): Promise<{ key: string; value: string }[]> {
  return db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', ['content_revision', 'branding'])
    .execute();
}
