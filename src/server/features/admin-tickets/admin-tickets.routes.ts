import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  getTicket,
  relatedTickets,
  pageTickets,
  replyToTicket,
  teamList,
  ticketCounts,
  ticketRouting,
  updateTicket,
} from './admin-tickets.service.ts';

export function registerAdminTicketRoutes(app: FastifyInstance, { db, config, database }: AppContext): void {
  route(app, endpoints.listAdminTickets, async (request, _reply, { user }) =>
    pageTickets(db, request.query, user.id, database.dialect),
  );
  route(app, endpoints.getTicketCounts, async () => ticketCounts(db));
  route(app, endpoints.getAdminTicket, async (request) => getTicket(db, request.params.id));
  route(app, endpoints.updateAdminTicket, async (request) =>
    updateTicket(db, request.params.id, request.body, config.tickets.webhookUrl !== null),
  );
  route(app, endpoints.replyAdminTicket, async (request, _reply, { user }) =>
    replyToTicket(db, config.tickets, request.params.id, user, request.body),
  );
  route(app, endpoints.listRelatedTickets, async (request) => relatedTickets(db, request.params.id));
  route(app, endpoints.listTeam, async () => teamList(db));
  route(app, endpoints.getTicketRouting, async () => ticketRouting(db, config.tickets));
}
