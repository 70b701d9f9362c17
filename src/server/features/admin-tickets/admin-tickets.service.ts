import type { PagedList } from '../../../shared/api/common.ts';
import type { TicketRouting, TicketView } from '../../../shared/api/tickets.ts';
import type { TicketsConfig } from '../../config/config.ts';
import type { Executor } from '../../db/database.ts';
import type { TicketRow } from '../../db/tables.ts';
import { notFound } from '../../http/errors.ts';
import { findTicket, listTickets } from '../../tickets/tickets.repository.ts';
import { countTickets, deliveriesOfTickets, filesOfTickets } from './admin-tickets.repository.ts';
import { presentTicket } from './admin-tickets.presenters.ts';

export const TICKET_PAGE_SIZE = 20;

/** Two queries for a whole page, whatever its size, rather than two per ticket. */
async function presentTickets(db: Executor, tickets: TicketRow[]): Promise<TicketView[]> {
  const ids = tickets.map((t) => t.id);
  const [files, deliveries] = await Promise.all([filesOfTickets(db, ids), deliveriesOfTickets(db, ids)]);
  return tickets.map((ticket) =>
    presentTicket(
      ticket,
      files.filter((f) => f.ticket_id === ticket.id),
      deliveries.filter((d) => d.ticket_id === ticket.id),
    ),
  );
}

export async function pageTickets(
  db: Executor,
  page = 1,
  perPage = TICKET_PAGE_SIZE,
): Promise<PagedList<TicketView>> {
  const total = await countTickets(db);
  const offset = (page - 1) * perPage;
  // Past the end there is nothing to read, and an absurd page number never reaches the database as an offset.
  const rows = offset < total ? await listTickets(db, perPage, offset) : [];
  return {
    items: await presentTickets(db, rows),
    _meta: { pageCount: Math.ceil(total / perPage), totalCount: total, currentPage: page, perPage },
  };
}

export async function getTicket(db: Executor, id: number): Promise<TicketView> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const [view] = await presentTickets(db, [ticket]);
  if (!view) throw notFound(`Ticket ${id}`);
  return view;
}

/** Whether the team hears of new requests: by email, by webhook, or (neither) only by looking. */
export async function ticketRouting(
  db: Executor,
  config: Pick<TicketsConfig, 'supportEmail' | 'webhookUrl'>,
): Promise<TicketRouting> {
  return {
    email: config.supportEmail !== null,
    webhook: config.webhookUrl !== null,
    stored: await countTickets(db),
  };
}
