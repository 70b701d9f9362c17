import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';
import { OWN_TEXT_OFFSET } from '../schema-values.ts';

/**
 * Full-text search of the inbox over a request's title, text, name and email and every message of its thread.
 * Words are split at punctuation, so an email address is found by any of its parts. PostgreSQL: a table of parsed
 * texts (tsvector, GIN-indexed) kept by triggers, each text numbered as in SQLite's. SQLite:
 * an FTS5 table kept by triggers; a message's text has its id as rowid, a request's own text its id less 2^40, so
 * both kinds read newest first by rowid, apart (OFFSET).
 */
/** A request's own text, of the row `row` ('new.' in a trigger, '' in a query): its title, text, name and email. */
export const ticketText = (row: string) =>
  `${row}title || ' ' || ${row}description || ' ' || ${row}name || ' ' || ${row}email`;
/** PostgreSQL's parse of a text; the characters its parser keeps inside one token (an email, a host) split it. */
export const parsed = (text: string) => `to_tsvector('simple', translate(${text}, '@./:-_', '      '))`;

const OFFSET = sql.raw(String(OWN_TEXT_OFFSET));

export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    if (dialect === 'postgres') {
      // The same table as SQLite's, with the parsed text stored: checking a row against a query is then cheap
      // whichever way PostgreSQL reads them (its GIN index, or the newest first).
      await sql`create table ticket_search (doc_id bigint primary key, ticket_id integer not null, doc tsvector not null)`.execute(
        db,
      );
      await sql`create index ticket_search_doc on ticket_search using gin (doc)`.execute(db);
      await sql`create function ticket_search_ticket() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then
            delete from ticket_search where doc_id = old.id - ${OFFSET};
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            insert into ticket_search (doc_id, ticket_id, doc) values (new.id - ${OFFSET}, new.id,
              ${sql.raw(parsed(ticketText('new.')))});
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger ticket_search_ticket after insert or update of title, description, name, email or delete
        on tickets for each row execute function ticket_search_ticket()`.execute(db);
      await sql`create function ticket_search_message() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            delete from ticket_search where doc_id = old.id;
          else
            insert into ticket_search (doc_id, ticket_id, doc) values (new.id, new.ticket_id,
              ${sql.raw(parsed('new.body_text'))});
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger ticket_search_message after insert or delete on ticket_messages
        for each row execute function ticket_search_message()`.execute(db);
      await sql`insert into ticket_search (doc_id, ticket_id, doc)
        select id - ${OFFSET}, id, ${sql.raw(parsed(ticketText('')))} from tickets`.execute(db);
      await sql`insert into ticket_search (doc_id, ticket_id, doc)
        select id, ticket_id, ${sql.raw(parsed('body_text'))} from ticket_messages`.execute(db);
      return;
    }
    await sql`create virtual table ticket_search using fts5(ticket_id unindexed, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger ticket_search_insert after insert on tickets begin
      insert into ticket_search (rowid, ticket_id, body)
      values (new.id - ${OFFSET}, new.id, ${sql.raw(ticketText('new.'))});
    end`.execute(db);
    await sql`create trigger ticket_search_update after update of title, description, name, email on tickets begin
      delete from ticket_search where rowid = old.id - ${OFFSET};
      insert into ticket_search (rowid, ticket_id, body)
      values (new.id - ${OFFSET}, new.id, ${sql.raw(ticketText('new.'))});
    end`.execute(db);
    await sql`create trigger ticket_search_delete after delete on tickets begin
      delete from ticket_search where rowid = old.id - ${OFFSET};
    end`.execute(db);
    await sql`create trigger ticket_search_message after insert on ticket_messages begin
      insert into ticket_search (rowid, ticket_id, body) values (new.id, new.ticket_id, new.body_text);
    end`.execute(db);
    await sql`create trigger ticket_search_message_delete after delete on ticket_messages begin
      delete from ticket_search where rowid = old.id;
    end`.execute(db);
    await sql`insert into ticket_search (rowid, ticket_id, body)
      select id - ${OFFSET}, id, ${sql.raw(ticketText(''))} from tickets`.execute(db);
    await sql`insert into ticket_search (rowid, ticket_id, body)
      select id, ticket_id, body_text from ticket_messages`.execute(db);
  };
}
