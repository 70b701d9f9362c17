import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * PostgreSQL: the search's GIN index split by kind of text, a request's own (negative ids) and a message's
 * (positive), as a search asks for each kind apart. With one index, asking for a request's own texts intersected
 * the matches with a scan of every request's id.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    if (dialect !== 'postgres') return;
    await sql`create index ticket_search_own on ticket_search using gin (doc) where doc_id < 0`.execute(db);
    await sql`create index ticket_search_thread on ticket_search using gin (doc) where doc_id > 0`.execute(
      db,
    );
    await sql`drop index ticket_search_doc`.execute(db);
  };
}
