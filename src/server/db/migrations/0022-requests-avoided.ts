import type { Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * Articles suggested under a request form: per article and ISO week (its Monday, YYYY-MM-DD, UTC), how often a
 * visitor opened one, and how often a request was sent after opening it. Opened less sent is the requests the
 * article avoided. Counters only: nothing tells one visitor from another.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable('requests_avoided')
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('week', 'varchar(10)', (c) => c.notNull())
      .addColumn('opened', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('requests_avoided_pkey', ['article_id', 'week'])
      .execute();
    await db.schema.createIndex('requests_avoided_week').on('requests_avoided').column('week').execute();
  };
}
