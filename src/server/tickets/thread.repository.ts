import type { Insertable } from 'kysely';
import type { TicketStatus } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import type { FileRow, TicketMessageRow, TicketMessageTable, TicketRow } from '../db/tables.ts';
import { attachedTicketFiles } from './tickets.repository.ts';

/** Moves a request to `status` and marks it active now, only if its status is still the one read (false if not). */
export async function moveTicket(
  db: Executor,
  ticket: Pick<TicketRow, 'id' | 'status'>,
  status: TicketStatus,
  now: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('tickets')
    .set({ status, updated_at: now })
    .where('id', '=', ticket.id)
    .where('status', '=', ticket.status)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

export function insertMessage(
  db: Executor,
  ticketId: number,
  message: Omit<Insertable<TicketMessageTable>, 'id' | 'ticket_id'>,
): Promise<TicketMessageRow> {
  return db
    .insertInto('ticket_messages')
    .values({ ...message, ticket_id: ticketId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function attachMessageFiles(
  db: Executor,
  ticketId: number,
  messageId: number,
  fileIds: number[],
): Promise<void> {
  if (fileIds.length === 0) return;
  await db
    .insertInto('ticket_files')
    .values(
      fileIds.map((file_id, position) => ({ ticket_id: ticketId, file_id, position, message_id: messageId })),
    )
    .execute();
}

/** The messages of a request in order; the requester's view leaves the team's internal notes out. */
export function messagesOf(
  db: Executor,
  ticketId: number,
  options: { internal: boolean },
): Promise<TicketMessageRow[]> {
  let query = db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId);
  if (!options.internal) query = query.where('internal', '=', 0);
  return query.orderBy('id').execute();
}

/** Every file of a request, the request's own (message_id null) and each message's, in order. */
export function threadFiles(
  db: Executor,
  ticketId: number,
): Promise<(FileRow & { message_id: number | null })[]> {
  return attachedTicketFiles(db)
    .select('ticket_files.message_id')
    .where('ticket_files.ticket_id', '=', ticketId)
    .execute();
}

export function findMessage(db: Executor, id: number): Promise<TicketMessageRow | undefined> {
  return db.selectFrom('ticket_messages').selectAll().where('id', '=', id).executeTakeFirst();
}
