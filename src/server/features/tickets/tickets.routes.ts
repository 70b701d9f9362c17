import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { authenticate } from '../auth/auth.service.ts';
import { openIssue } from './tickets.service.ts';
import { visitorKey } from './visitor.ts';

export function registerTicketRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.issueOpen, async (request) => {
    const token = request.headers[AUTH_HEADER];
    // A stale token does not stop a request: the visitor is simply treated as anonymous.
    const user = token ? await authenticate(ctx.db, token).catch(() => null) : null;
    return openIssue(ctx, request.body, { visitorKey: visitorKey(request), user });
  });
}
