import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { SUGGESTIONS_LIMIT } from '../../../shared/api/search.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

export function registerSearchRoutes(app: FastifyInstance, { search }: AppContext): void {
  route(app, endpoints.getSuggestions, async (request) => {
    const { text, limit, perPage } = request.query;
    return {
      items: await search.suggest(text, Math.min(limit ?? SUGGESTIONS_LIMIT, perPage ?? SUGGESTIONS_LIMIT)),
    };
  });
}
