import type { FastifyInstance } from 'fastify';
import { AUTH_HEADER } from '../../../shared/api/auth.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { authenticate, login, logout, presentUser } from './auth.service.ts';

export function registerAuthRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.getMe, async (request) =>
    presentUser(await authenticate(db, request.headers[AUTH_HEADER])),
  );
  route(app, endpoints.login, async (request) => login(db, request.body.email, request.body.password));
  route(app, endpoints.logout, async (request) => {
    await logout(db, request.headers[AUTH_HEADER]);
    return { ok: true as const };
  });
}
