import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { getStoredBranding } from '../../settings/branding.ts';
import { changeBranding } from './admin-branding.service.ts';

export function registerAdminBrandingRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.getAdminBranding, async () => getStoredBranding(db));
  route(app, endpoints.updateBranding, async (request) => changeBranding(db, request.body));
}
