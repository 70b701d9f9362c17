import type { Kysely } from 'kysely';
import { type Dialect, timeType } from '../schema-helpers.ts';

/** What visitors search for, without who: one row per normalised query, with counters. */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema
      .createTable('search_queries')
      .addColumn('query', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('searches', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('empty_results', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('opened', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_searched_at', time, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('search_queries_searches').on('search_queries').column('searches').execute();
  };
}
