import { sql, type Kysely } from 'kysely';
import { type Dialect, timeType } from '../schema-helpers.ts';
import { LEGACY_REPLY_TOKEN_DAYS, LEGACY_REPLY_TOKENS_UNTIL } from '../schema-values.ts';

/**
 * Requests sent for an address nobody proved (decisions.md, "A request for someone else's address"):
 * `sender_access_until` is when the sender's browser cookie (or account) stops opening it; 0 once the address's
 * owner took it up (answered by mail, opened a mailed link); null for a proved address, and for every request before.
 *
 * Replies by email are signed per mail and recipient from now on; the day this migration runs is the release, and
 * the request's old token is still accepted for LEGACY_REPLY_TOKEN_DAYS after it.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema.alterTable('tickets').addColumn('sender_access_until', timeType(dialect)).execute();
    const until = Date.now() + LEGACY_REPLY_TOKEN_DAYS * 24 * 60 * 60 * 1000;
    await sql`insert into settings (key, value) values (${LEGACY_REPLY_TOKENS_UNTIL}, ${JSON.stringify(until)})`.execute(
      db,
    );
  };
}
