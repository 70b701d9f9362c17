import { sql, type Kysely } from 'kysely';
import { idColumn, timeType, type Dialect } from '../schema-helpers.ts';

/**
 * "Was this helpful?": one row per visitor, article and day, keyed by a hash of the day's salt, the visitor's
 * address and the article, so no address is kept and a second answer that day replaces the first. The salts live
 * in a table of their own, one row for the current day, deleted once the day is over, and never backed up: without
 * it, yesterday's keys cannot be made again from an address.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema
      .createTable('article_feedback')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('visitor_key', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('helpful', 'integer', (c) => c.notNull().check(sql`helpful in (0, 1)`))
      .addColumn('reason', 'varchar(32)')
      .addColumn('comment', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('article_feedback_article')
      .on('article_feedback')
      .columns(['article_id', 'updated_at'])
      .execute();
    await db.schema
      .createTable('feedback_salts')
      .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
      .addColumn('salt', 'varchar(64)', (c) => c.notNull())
      .execute();
  };
}
