import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { readerRoute } from '../../content/reader.ts';
import {
  getInstruction,
  getInstructionNearby,
  getSections,
  knowledgeSource,
  listCategories,
  listInstructions,
} from './knowledge.service.ts';
import { sitemapAddressBound } from './knowledge.repository.ts';
import { ApiError } from '../../http/errors.ts';
import { chunk, robotsTxt, sitemapEntries, sitemapIndex, SITEMAP_URLS_MAX, urlSet } from './sitemap.ts';

export function registerKnowledgeRoutes(
  app: FastifyInstance,
  { db, config, revisions, search }: AppContext,
): void {
  const source = knowledgeSource(db, revisions);
  // Each answers for its reader (content/reader.ts): what is for signed-in visitors only reaches a signed-in one (see
  // visibility.ts), in the language asked for, falling back where the content has no version in it (languages/).
  readerRoute(app, endpoints.listSections, async (reader) => getSections(source, reader));
  readerRoute(app, endpoints.listCategories, async (reader, request) =>
    listCategories(source, request.query, reader),
  );
  readerRoute(app, endpoints.listInstructions, async (reader, request) =>
    listInstructions(source, request.query, reader),
  );
  readerRoute(app, endpoints.getInstruction, async (reader, request) =>
    getInstruction(source, request.params.id, reader),
  );
  readerRoute(app, endpoints.getInstructionNearby, async (reader, request, reply) => {
    const { nearby, fresh } = await getInstructionNearby(
      source,
      request.params.id,
      reader,
      // Looked for as written: a title is the index's own text, not a visitor's typing.
      (title, limit) => search.suggest(title, limit, reader.audience, reader.lang, 'related'),
    );
    // From an index still catching up with the content: answered, not kept.
    if (!fresh) reply.header('Cache-Control', 'no-store');
    return nearby;
  });

  registerCrawlerRoutes(app, db, config.publicUrl);
}

/**
 * For search engines, at the site's root where they look (the one exception to "outside /knowledge is not found"):
 * robots.txt, and the sitemap of what anonymous visitors can read, on PUBLIC_URL whatever host was asked. Past
 * SITEMAP_URLS_MAX addresses the sitemap is an index of numbered parts (part 1 is the whole sitemap until then).
 * Kept in memory like the pages.
 */
function registerCrawlerRoutes(app: FastifyInstance, db: AppContext['db'], origin: string): void {
  const xml = 'application/xml; charset=utf-8';
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .header('Content-Type', 'text/plain; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(robotsTxt(origin)),
  );
  app.get('/sitemap.xml', async (_request, reply) => {
    const parts = chunk(await sitemapEntries(db), SITEMAP_URLS_MAX);
    const body = parts.length > 1 ? sitemapIndex(origin, parts) : urlSet(origin, parts[0] ?? []);
    return reply.header('Content-Type', xml).header('Cache-Control', 'no-cache').send(body);
  });
  app.get<{ Params: { part: string } }>('/sitemaps/:part', async (request, reply) => {
    const number = /^([1-9]\d{0,5})\.xml$/.exec(request.params.part)?.[1];
    // A part past every address there could be answers 404 from two counts, before the sitemap is built.
    const possible =
      number && (number === '1' || (await sitemapAddressBound(db)) > SITEMAP_URLS_MAX * (Number(number) - 1));
    const parts = possible ? chunk(await sitemapEntries(db), SITEMAP_URLS_MAX) : [];
    // Part 1 always exists: the whole sitemap while it fits in one file.
    const part = possible ? (parts[Number(number) - 1] ?? (number === '1' ? [] : undefined)) : undefined;
    if (!part) throw new ApiError(404, 'not_found', `No sitemap ${request.params.part}`);
    return reply.header('Content-Type', xml).header('Cache-Control', 'no-cache').send(urlSet(origin, part));
  });
}
