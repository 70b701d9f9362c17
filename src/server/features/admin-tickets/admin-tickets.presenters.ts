import type { TicketView } from '../../../shared/api/tickets.ts';
import type { FileRow, OutboxRow, TicketRow } from '../../db/tables.ts';

const isoOf = (millis: number) => new Date(Number(millis)).toISOString();

export function presentTicket(ticket: TicketRow, files: FileRow[], deliveries: OutboxRow[]): TicketView {
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
    files: files.map((file) => ({
      id: file.id,
      original_name: file.original_name,
      file_size: Number(file.size),
    })),
    deliveries: deliveries.map((delivery) => ({
      target: delivery.target,
      status: delivery.status,
      attempts: delivery.attempts,
      last_error: delivery.last_error,
      delivered_at: delivery.delivered_at === null ? null : isoOf(delivery.delivered_at),
    })),
  };
}
