import type { FastifyInstance } from 'fastify';
import { FAVICON_PATH, logoMarkSvg } from '../../../shared/logo-mark.ts';

/**
 * The default favicon, Signpost's mark in the accent colour, served by the site itself: an address outside
 * /knowledge would otherwise go to the not-found page. A file rather than a data: URL in the head, so browsers
 * keep it between pages and every page's head stays short.
 */
export function registerFaviconRoutes(app: FastifyInstance): void {
  const svg = logoMarkSvg();
  app.get(FAVICON_PATH, async (_request, reply) =>
    reply
      .header('Content-Type', 'image/svg+xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(svg),
  );
}
