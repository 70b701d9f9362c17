import type { Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * What visitors chose from a search: one vote per visitor, query and day for the article they opened first, keyed by
 * an HMAC of the client under the day's salt (the feedback's, deleted once the day is over), so no address is kept
 * and a client repeating itself adds nothing that day. `query_key` is the query's counted words, stemmed and sorted,
 * so close variants ('reset password', 'password resets') share their votes.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable('search_votes')
      .addColumn('query_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('voter', 'varchar(64)', (c) => c.notNull())
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('search_votes_pk', ['query_key', 'day', 'voter'])
      .execute();
    await db.schema.createIndex('search_votes_day').on('search_votes').column('day').execute();
    await db.schema.createIndex('search_votes_article').on('search_votes').column('article_id').execute();
  };
}
