import { TICKET_STATUSES, type TicketStatus } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import type { OutboxTarget } from '../db/tables.ts';

/** The rows of the requests' outbox as outbox.ts queues them. */

/** One outbox row per target, for the request itself (message 0) or one message of its thread. */
export async function insertDeliveries(
  db: Executor,
  ticketId: number,
  targets: OutboxTarget[],
  now: number,
  messageId = 0,
) {
  await db
    .insertInto('outbox')
    .values(
      targets.map((target) => ({
        ticket_id: ticketId,
        message_id: messageId,
        target,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();
}

/**
 * A change of status as the outbox keeps it: in the row's message id, negative (a message's is positive, the request's
 * own 0), holding the change's number (1 for the request's first) and the status it went to, so the webhook hears
 * the status of that change whenever it is sent. Changes of one request are one at a time (each is written only over
 * the status it read), so two never take one number.
 */
export const statusEventId = (number: number, status: TicketStatus) =>
  -(number * 8 + TICKET_STATUSES.indexOf(status));
export const readStatusEvent = (messageId: number) => ({
  number: Math.floor(-messageId / 8),
  status: TICKET_STATUSES[-messageId % 8] as TicketStatus,
});

/** The webhook's `ticket.status_changed` for a change to `status`, written in the change's own transaction. */
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
    .where('message_id', '<', 0)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('outbox')
    .values({
      ticket_id: ticketId,
      message_id: statusEventId(Number(previous.count) + 1, status),
      target: 'webhook',
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['ticket_id', 'message_id', 'target']).doNothing())
    .execute();
}
