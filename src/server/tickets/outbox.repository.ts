import type { TicketStatus } from '../../shared/constants.ts';
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { OutboxTarget } from '../db/tables.ts';

/** The rows of the requests' outbox as outbox.ts queues them (each kind in its own columns, migration 0027). */

const pending = (now: number) => ({
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: now,
  created_at: now,
});

/** One outbox row per target, for the request itself or, given `messageId`, one message of its thread. */
export async function insertDeliveries(
  db: Executor,
  ticketId: number,
  targets: OutboxTarget[],
  now: number,
  messageId: number | null = null,
) {
  await db
    .insertInto('outbox')
    .values(
      targets.map((target) => ({
        ticket_id: ticketId,
        kind: messageId === null ? ('request' as const) : ('message' as const),
        message_id: messageId,
        target,
        ...pending(now),
      })),
    )
    .execute();
}

/**
 * The webhook's `ticket.status_changed` for a change to `status`, written in the change's own transaction, with the
 * change's number (1 for the request's first), so the webhook hears the status of that change whenever it is sent.
 * Changes of one request are one at a time (each is written only over the status it read), so two never take one
 * number.
 */
export async function insertStatusEvent(
  db: Executor,
  ticketId: number,
  status: TicketStatus,
  now: number,
): Promise<void> {
  const previous = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('ticket_id', '=', ticketId)
    .where('kind', '=', 'status')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('outbox')
    .values({
      ticket_id: ticketId,
      kind: 'status',
      message_id: null,
      status_number: Number(previous.count) + 1,
      status_to: status,
      target: 'webhook',
      ...pending(now),
    })
    // The index's own predicate, written out: SQLite matches a partial index only by the same literal text.
    .onConflict((oc) =>
      oc.columns(['ticket_id', 'status_number']).where('kind', '=', sql.lit('status')).doNothing(),
    )
    .execute();
}
