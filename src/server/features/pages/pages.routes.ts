import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import path from 'node:path';
import { htmlDocument, renderPage } from './render-page.ts';
import { readWebAssets, WEB_DIST } from './web-assets.ts';

export const KNOWLEDGE = '/knowledge';

/** The public site: server-rendered pages under /knowledge, the built client's assets, and redirects to them. */
export async function registerPageRoutes(app: FastifyInstance): Promise<void> {
  const assets = readWebAssets();
  await app.register(fastifyStatic, {
    root: path.join(WEB_DIST, 'assets'),
    prefix: '/assets/',
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
    decorateReply: false,
    index: false,
    wildcard: true,
  });

  const handlePage = async (url: string, reply: FastifyReply) => {
    const page = await renderPage(app, url);
    if (page.kind === 'redirect') return reply.redirect(page.location, page.status);
    return reply
      .status(page.status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(htmlDocument(page, assets));
  };

  app.get('/', async (_request, reply) => reply.redirect(`${KNOWLEDGE}/`, 302));
  app.get(KNOWLEDGE, async (request, reply) => handlePage(request.url, reply));
  app.get(`${KNOWLEDGE}/*`, async (request, reply) => handlePage(request.url, reply));
}
