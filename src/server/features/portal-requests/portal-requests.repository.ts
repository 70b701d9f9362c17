import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TicketRow } from '../../db/tables.ts';

/** An account's requests that it opens: its own address's, proved, and those it sent for another while it may. */
export interface AccountRequests {
  userId: number;
  /** The account's email if confirmed: requests naming it are the account's whatever their sender's access. */
  provedEmail: string | null;
  now: number;
}

const ofAccount = (db: Executor, { userId, provedEmail, now }: AccountRequests) =>
  db
    .selectFrom('tickets')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('sender_access_until', 'is', null),
        eb('sender_access_until', '>', now),
        ...(provedEmail === null
          ? []
          : [eb(sql<string>`lower(email)`, '=', provedEmail.trim().toLowerCase())]),
      ]),
    );

export async function countTicketsOfUser(db: Executor, account: AccountRequests): Promise<number> {
  const row = await ofAccount(db, account)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A requester's requests, latest activity first (the index on user_id keeps this to their own rows). */
export function ticketsOfUser(
  db: Executor,
  account: AccountRequests,
  limit: number,
  offset: number,
): Promise<TicketRow[]> {
  return ofAccount(db, account)
    .selectAll()
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
