import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * Full-text search of the inbox over a request's title, text, name and email and every message of its thread.
 * Words are split at punctuation, so an email address is found by any of its parts. PostgreSQL: expression indexes
 * (GIN) that the inbox's query repeats exactly (TICKET_DOCUMENT, MESSAGE_DOCUMENT). SQLite:
 * an FTS5 table kept by triggers; a request's own text has rowid -id, a message's its id.
 */
/** The characters PostgreSQL's parser would keep inside one token (an email, a host, a path): split there. */
const SPLIT = `translate(%s, '@./:-_', '      ')`;
/** A request's own text and a message's, as PostgreSQL indexes and the inbox searches them: never change these. */
export const TICKET_DOCUMENT = `to_tsvector('simple', ${SPLIT.replace('%s', "title || ' ' || description || ' ' || name || ' ' || email")})`;
export const MESSAGE_DOCUMENT = `to_tsvector('simple', ${SPLIT.replace('%s', 'body_text')})`;

export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    if (dialect === 'postgres') {
      await sql`create index tickets_search on tickets using gin (${sql.raw(TICKET_DOCUMENT)})`.execute(db);
      await sql`create index ticket_messages_search on ticket_messages using gin (${sql.raw(MESSAGE_DOCUMENT)})`.execute(
        db,
      );
      return;
    }
    await sql`create virtual table ticket_search using fts5(ticket_id unindexed, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger ticket_search_insert after insert on tickets begin
      insert into ticket_search (rowid, ticket_id, body)
      values (-new.id, new.id, new.title || ' ' || new.description || ' ' || new.name || ' ' || new.email);
    end`.execute(db);
    await sql`create trigger ticket_search_update after update of title, description, name, email on tickets begin
      delete from ticket_search where rowid = -old.id;
      insert into ticket_search (rowid, ticket_id, body)
      values (-new.id, new.id, new.title || ' ' || new.description || ' ' || new.name || ' ' || new.email);
    end`.execute(db);
    await sql`create trigger ticket_search_delete after delete on tickets begin
      delete from ticket_search where rowid = -old.id;
    end`.execute(db);
    await sql`create trigger ticket_search_message after insert on ticket_messages begin
      insert into ticket_search (rowid, ticket_id, body) values (new.id, new.ticket_id, new.body_text);
    end`.execute(db);
    await sql`create trigger ticket_search_message_delete after delete on ticket_messages begin
      delete from ticket_search where rowid = old.id;
    end`.execute(db);
    await sql`insert into ticket_search (rowid, ticket_id, body)
      select -id, id, title || ' ' || description || ' ' || name || ' ' || email from tickets`.execute(db);
    await sql`insert into ticket_search (rowid, ticket_id, body)
      select id, ticket_id, body_text from ticket_messages`.execute(db);
  };
}
