import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { setCookie } from '../../http/cookies.ts';
import { route } from '../../http/route.ts';
import { openIssue } from './tickets.service.ts';
import { visitorKey } from '../../tickets/index.ts';

export function registerTicketRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A stale token does not stop a request: the visitor is simply treated as anonymous.
  route(app, endpoints.issueOpen, async (request, reply, session) => {
    const { answer, cookies } = await openIssue(ctx, request.body, {
      visitorKey: visitorKey(request),
      user: session?.user ?? null,
    });
    for (const cookie of cookies) setCookie(reply, cookie);
    return answer;
  });
}
