import type { TicketMessage, TicketView } from '../../../shared/api/tickets.ts';
import type { FileRow, OutboxRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import { type FileLinks, filesOfPart, isoOf, presentThreadMessage } from '../../tickets/index.ts';

type ThreadFile = FileRow & { message_id: number | null };

export const presentMessage = (
  message: TicketMessageRow,
  files: ThreadFile[],
  links: FileLinks,
): TicketMessage => ({
  ...presentThreadMessage(message, files, links),
  internal: message.internal === 1,
});

/** A request with its thread: `files` are the request's own, each message carries its own. */
export function presentTicket(
  ticket: TicketRow,
  files: ThreadFile[],
  messages: TicketMessageRow[],
  deliveries: OutboxRow[],
  links: FileLinks,
): TicketView {
  return {
    id: ticket.id,
    title: ticket.title,
    description: ticket.description,
    name: ticket.name,
    email: ticket.email,
    channel: ticket.channel,
    user_id: ticket.user_id,
    lang: ticket.lang,
    created_at: isoOf(ticket.created_at),
    status: ticket.status,
    assignee_id: ticket.assignee_id,
    updated_at: isoOf(ticket.updated_at ?? ticket.created_at),
    files: filesOfPart(files, null, links),
    messages: messages.map((message) => presentMessage(message, files, links)),
    // A change of status told to the webhook is no delivery of the request or of a message: left out here.
    deliveries: deliveries
      .filter((delivery) => delivery.kind !== 'status')
      .map((delivery) => ({
        target: delivery.target,
        message_id: delivery.message_id,
        status: delivery.status,
        attempts: delivery.attempts,
        last_error: delivery.last_error,
        delivered_at: delivery.delivered_at === null ? null : isoOf(delivery.delivered_at),
      })),
  };
}
