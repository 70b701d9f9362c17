import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * Who may read a section, a category or an article (see VISIBILITIES): everyone, as every row stored before this,
 * or signed-in visitors with a confirmed email. One column each, checked by the database on both dialects.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    for (const table of ['sections', 'categories', 'articles']) {
      await sql`alter table ${sql.table(table)} add column visibility text not null default 'everyone'
        check (visibility in ('everyone', 'signed_in'))`.execute(db);
    }
  };
}
