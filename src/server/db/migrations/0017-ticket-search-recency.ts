import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';
import { OWN_TEXT_OFFSET, RECENCY_BLOCK } from '../schema-values.ts';
import { parsed, ticketText } from './0012-ticket-search.ts';

/**
 * PostgreSQL: each parsed text also carries a word for where it stands in time, its id's block of RECENCY_BLOCK
 * (`~o12` for a request's own text, `~m40` for a message's; no searched word has a `~`, and a text whose own words
 * hold such a token is kept to its block by its number). A search then asks its GIN index for the matches among the
 * newest blocks first and widens only when they hold too few, so it reads the rows of the newest matches instead of
 * every match's (docs/decisions.md, "Finding requests by words").
 */
const OFFSET = sql.raw(String(OWN_TEXT_OFFSET));
/** The recency word of a text whose id (a request's or a message's) is `id`. */
const recency = (kind: 'o' | 'm', id: string) => `('~${kind}' || (${id} / ${RECENCY_BLOCK}))::tsvector`;

export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    if (dialect !== 'postgres') return;
    await sql`create or replace function ticket_search_ticket() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          delete from ticket_search where doc_id = old.id - ${OFFSET};
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into ticket_search (doc_id, ticket_id, doc) values (new.id - ${OFFSET}, new.id,
            ${sql.raw(parsed(ticketText('new.')))} || ${sql.raw(recency('o', 'new.id'))});
        end if;
        return null;
      end $$`.execute(db);
    await sql`create or replace function ticket_search_message() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from ticket_search where doc_id = old.id;
        else
          insert into ticket_search (doc_id, ticket_id, doc) values (new.id, new.ticket_id,
            ${sql.raw(parsed('new.body_text'))} || ${sql.raw(recency('m', 'new.id'))});
        end if;
        return null;
      end $$`.execute(db);
    await sql`update ticket_search set doc = doc || case when doc_id < 0
      then ${sql.raw(recency('o', 'ticket_id'))} else ${sql.raw(recency('m', 'doc_id'))} end`.execute(db);
  };
}
