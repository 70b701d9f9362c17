import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { SUGGESTIONS_LIMIT } from '../../../shared/api/search.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { readerRoute } from '../../content/reader.ts';
import { recordSearchEvent, searchReport } from './search-analytics.ts';
import { listLearned, recordVote, resetLearned } from './search-learning.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { siteLanguage } from '../../languages/index.ts';
import { readSynonyms, writeSynonyms } from '../../search/synonyms.ts';
import { touchContent } from '../../revisions/revision.repository.ts';

export function registerSearchRoutes(app: FastifyInstance, { search, db }: AppContext): void {
  readerRoute(app, endpoints.getSuggestions, async (reader, request, reply) => {
    const { text, limit, perPage } = request.query;
    const { items, fresh } = await search.suggest(
      text,
      Math.min(limit ?? SUGGESTIONS_LIMIT, perPage ?? SUGGESTIONS_LIMIT),
      reader.audience,
      reader.lang,
    );
    // Answered from an index still being rebuilt after a large change: right for now, not to be kept.
    if (!fresh) reply.header('Cache-Control', 'no-store');
    return { items };
  });
  route(app, endpoints.recordSearchEvent, async (request) => {
    const event = request.body;
    await recordSearchEvent(db, event);
    // An article opened from a search is a vote for it, for that query (search-learning.ts).
    if (event.type === 'open') {
      await recordVote(db, {
        query: event.query,
        id: event.id,
        client: clientKey(request),
        lang: await siteLanguage(db),
      });
    }
    return { ok: true as const };
  });
  route(app, endpoints.getSearchReport, async (request) => {
    return searchReport(db, request.query.limit, request.query.weeks);
  });
  route(app, endpoints.getSynonyms, async () => readSynonyms(db));
  route(app, endpoints.updateSynonyms, async (request) => {
    const sets = await db.transaction().execute(async (trx) => {
      const tidy = await writeSynonyms(trx, request.body.sets);
      await touchContent(trx, ['search']);
      return tidy;
    });
    return { sets, defaults: false };
  });
  route(app, endpoints.getSearchLearning, async (request) => ({
    items: await listLearned(db, request.query.limit ?? 100),
  }));
  route(app, endpoints.resetSearchLearning, async (request) => {
    await resetLearned(db, request.query.query);
    return { ok: true as const };
  });
}
