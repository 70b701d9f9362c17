import type { FastifyInstance } from 'fastify';
import { AUTH_HEADER } from '../../../shared/api/auth.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { requireAdmin } from '../auth/auth.service.ts';
import { getTicket, pageTickets } from './admin.service.ts';

export function registerAdminRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.listAdminTickets, async (request) => {
    await requireAdmin(db, request.headers[AUTH_HEADER]);
    return pageTickets(db, request.query.page, request.query.per_page);
  });
  route(app, endpoints.getAdminTicket, async (request) => {
    await requireAdmin(db, request.headers[AUTH_HEADER]);
    return getTicket(db, request.params.id);
  });
}
