import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TicketRow } from '../../db/tables.ts';

export async function countTicketsOfUser(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A requester's requests, latest activity first (the index on user_id keeps this to their own rows). */
export function ticketsOfUser(
  db: Executor,
  userId: number,
  limit: number,
  offset: number,
): Promise<TicketRow[]> {
  return db
    .selectFrom('tickets')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The requests an email sent without an account, newest first (the index on lower(email) finds them). */
export function anonymousTicketsOfEmail(db: Executor, email: string, limit: number): Promise<TicketRow[]> {
  return db
    .selectFrom('tickets')
    .selectAll()
    .where('user_id', 'is', null)
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
