import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { SUGGESTIONS_LIMIT } from '../../../shared/api/search.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { audienceOf } from '../../content/visibility.ts';
import { recordSearchEvent, searchReport } from './search-analytics.ts';

export function registerSearchRoutes(app: FastifyInstance, { search, db }: AppContext): void {
  route(app, endpoints.getSuggestions, async (request, reply, session) => {
    const { text, limit, perPage } = request.query;
    const { items, fresh } = await search.suggest(
      text,
      Math.min(limit ?? SUGGESTIONS_LIMIT, perPage ?? SUGGESTIONS_LIMIT),
      audienceOf(session?.user),
    );
    // Answered from an index still being rebuilt after a large change: right for now, not to be kept.
    if (!fresh) reply.header('Cache-Control', 'no-store');
    return { items };
  });
  route(app, endpoints.recordSearchEvent, async (request) => {
    await recordSearchEvent(db, request.body);
    return { ok: true as const };
  });
  route(app, endpoints.getSearchReport, async (request) => {
    return searchReport(db, request.query.limit, request.query.weeks);
  });
}
