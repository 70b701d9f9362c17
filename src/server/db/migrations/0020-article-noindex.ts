import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * The team's per-article "hide from search engines" switch: a hidden article is still read by everyone it is
 * visible to, but its page asks search engines to leave it out and the sitemap does not list it. Off for every row
 * stored before this.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await sql`alter table articles add column noindex integer not null default 0 check (noindex in (0, 1))`.execute(
      db,
    );
  };
}
