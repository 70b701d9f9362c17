import type { Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * Each published article's embedding, when semantic matching is on (EMBEDDINGS_URL): kept so a restarted server or
 * another one asks the endpoint only for what changed. `digest` is a hash of the model and the text embedded: a new
 * model or an edited article no longer matches it, and is embedded again. The vector is little-endian float32, base64.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createTable('article_embeddings')
      .addColumn('article_id', 'integer', (c) => c.primaryKey().references('articles.id').onDelete('cascade'))
      .addColumn('digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('vector', 'text', (c) => c.notNull())
      .execute();
  };
}
