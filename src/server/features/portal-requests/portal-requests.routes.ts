import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { deviceUserOf } from '../../accounts/device-cookie.ts';
import { senderCookieOf, visitorKey } from '../../tickets/index.ts';
import {
  getMyRequest,
  pageMyRequests,
  replyToMyRequest,
  requestIssueLinks,
  setMyRequestStatus,
} from './portal-requests.service.ts';

/** The customer portal's calls: a requester's own requests, by account or by private link, and new links by email. */
export function registerPortalRequestRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.listMyIssues, async (request, reply, { user }) => {
    reply.header('cache-control', 'private, no-store');
    return pageMyRequests(ctx, user, request.query.page);
  });
  route(app, endpoints.getMyIssue, async (request, reply, session) => {
    // One requester's conversation: never kept by a shared cache.
    reply.header('cache-control', 'private, no-store');
    return getMyRequest(ctx, request.params.id, {
      user: session?.user ?? null,
      key: request.query.key,
      visitorKey: null,
      senderCookie: senderCookieOf(request, request.params.id),
    });
  });
  route(app, endpoints.replyMyIssue, async (request, reply, session) => {
    reply.header('cache-control', 'private, no-store');
    return replyToMyRequest(
      ctx,
      request.params.id,
      {
        user: session?.user ?? null,
        key: request.body.key,
        visitorKey: visitorKey(request),
        senderCookie: senderCookieOf(request, request.params.id),
      },
      request.body,
    );
  });
  route(app, endpoints.updateMyIssue, async (request, reply, session) => {
    reply.header('cache-control', 'private, no-store');
    return setMyRequestStatus(
      ctx,
      request.params.id,
      {
        user: session?.user ?? null,
        key: request.body.key,
        visitorKey: null,
        senderCookie: senderCookieOf(request, request.params.id),
      },
      request.body,
    );
  });
  route(app, endpoints.requestIssueLinks, async (request) =>
    requestIssueLinks(ctx, request.body, {
      key: clientKey(request),
      deviceUser: await deviceUserOf(ctx.db, request),
    }),
  );
}
