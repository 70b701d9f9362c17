import type { TicketMessage, TicketView } from '../../../shared/api/tickets.ts';
import type { FileRow, OutboxRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';

const isoOf = (millis: number) => new Date(Number(millis)).toISOString();

type ThreadFile = FileRow & { message_id: number | null };

/** Signed download paths of a request's files, by file id. */
export type FileLinks = Map<number, string>;

const presentFile = (links: FileLinks) => (file: FileRow) => ({
  id: file.id,
  original_name: file.original_name,
  file_size: Number(file.size),
  link: links.get(file.id) ?? '',
});

export function presentMessage(
  message: TicketMessageRow,
  files: ThreadFile[],
  links: FileLinks,
): TicketMessage {
  return {
    id: message.id,
    author_name: message.author_name,
    from_team: message.from_team === 1,
    internal: message.internal === 1,
    body_text: message.body_text,
    body_html: message.body_html,
    created_at: isoOf(message.created_at),
    files: files.filter((file) => file.message_id === message.id).map(presentFile(links)),
  };
}

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
    files: files.filter((file) => file.message_id === null).map(presentFile(links)),
    messages: messages.map((message) => presentMessage(message, files, links)),
    deliveries: deliveries.map((delivery) => ({
      target: delivery.target,
      message_id: delivery.message_id === 0 ? null : delivery.message_id,
      status: delivery.status,
      attempts: delivery.attempts,
      last_error: delivery.last_error,
      delivered_at: delivery.delivered_at === null ? null : isoOf(delivery.delivered_at),
    })),
  };
}
