import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { SUGGESTIONS_LIMIT } from '../../../shared/api/search.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../rate-limit/client-address.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';
import { recordSearchEvent, searchReport } from './search-analytics.ts';

/** Enough for a person searching all day; a flood from one address cannot skew the report. */
const EVENTS_PER_HOUR = 600;

export function registerSearchRoutes(app: FastifyInstance, { search, db }: AppContext): void {
  route(app, endpoints.getSuggestions, async (request, reply) => {
    const { text, limit, perPage } = request.query;
    const { items, fresh } = await search.suggest(
      text,
      Math.min(limit ?? SUGGESTIONS_LIMIT, perPage ?? SUGGESTIONS_LIMIT),
    );
    // Answered from an index still being rebuilt after a large change: right for now, not to be kept.
    if (!fresh) reply.header('Cache-Control', 'no-store');
    return { items };
  });
  route(app, endpoints.recordSearchEvent, async (request) => {
    await hitRateLimit(db, 'search-event', clientKey(request), EVENTS_PER_HOUR);
    await recordSearchEvent(db, request.body);
    return { ok: true as const };
  });
  route(app, endpoints.getSearchReport, async (request) => {
    return searchReport(db, request.query.limit);
  });
}
