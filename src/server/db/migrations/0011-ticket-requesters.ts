import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * The inbox's own requests by status, and finding a requester's requests: by account (the portal's list, newest activity first) and by email as typed in any
 * case (requests joining an account once its email is confirmed; the requester's other requests in the inbox).
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .createIndex('tickets_user_updated')
      .on('tickets')
      .columns(['user_id', 'updated_at'])
      .execute();
    await sql`create index tickets_email on tickets (lower(email))`.execute(db);
    // The inbox's "given to me", by status, latest activity first.
    await db.schema
      .createIndex('tickets_assignee_status_updated')
      .on('tickets')
      .columns(['assignee_id', 'status', 'updated_at'])
      .execute();
  };
}
