import type { Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * Uploads by time, for the two questions asked of recent uploads only: how much is waiting to be sent (the cap on
 * pending uploads, asked on every upload) and which are a day old (the clean-up). Without it both read every
 * upload ever attached to a request.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema.createIndex('files_kind_created').on('files').columns(['kind', 'created_at']).execute();
  };
}
