import type { Executor } from '../db/database.ts';
import type { TicketLinkTable } from '../db/tables.ts';

/** Stores a link's hash; the same link saved again changes nothing. */
export async function insertTicketLink(db: Executor, link: TicketLinkTable): Promise<void> {
  await db
    .insertInto('ticket_links')
    .values(link)
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

export function findLinkedTicket(db: Executor, tokenHash: string) {
  return db
    .selectFrom('ticket_links')
    .select(['ticket_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}
