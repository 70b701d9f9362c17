import type { Kysely } from 'kysely';
import { type Dialect, timeType } from '../schema-helpers.ts';

/**
 * What each content revision changed (content/content-changes.ts): servers read it to drop from their caches only
 * the answers a change affects. Short-lived: old rows are pruned, and a server that finds a gap drops everything.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable('content_changes')
      .addColumn('revision', timeType(dialect), (c) => c.primaryKey())
      .addColumn('scopes', 'varchar(1000)', (c) => c.notNull())
      .addColumn('created_at', timeType(dialect), (c) => c.notNull())
      .execute();
  };
}
