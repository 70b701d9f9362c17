import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { AnalyticsConfig } from '../../config/config.ts';
import fastifyStatic from '@fastify/static';
import path from 'node:path';
import { escapeHtml, htmlDocument, renderPage } from './render-page.ts';
import { readWebAssets, WEB_DIST } from './web-assets.ts';

export const KNOWLEDGE = '/knowledge';

/** The public site: server-rendered pages under /knowledge, the built client's assets, and redirects to them. */
/** The operator's snippet, on the hosts it is meant for, with the branding's project id filled in. */
function analyticsFor(
  analytics: AnalyticsConfig | null,
  request: FastifyRequest,
  projectId: string | null,
): string {
  if (!analytics) return '';
  if (analytics.hosts && !analytics.hosts.includes(request.hostname.toLowerCase())) return '';
  return analytics.snippet.replaceAll('{{project_id}}', escapeHtml(projectId ?? ''));
}

export async function registerPageRoutes(
  app: FastifyInstance,
  analytics: AnalyticsConfig | null,
): Promise<void> {
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

  const handlePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await renderPage(app, request.url);
    if (page.kind === 'redirect') return reply.redirect(page.location, page.status);
    return reply
      .status(page.status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(htmlDocument(page, assets, analyticsFor(analytics, request, page.projectId)));
  };

  app.get('/', async (_request, reply) => reply.redirect(`${KNOWLEDGE}/`, 302));
  app.get(KNOWLEDGE, async (request, reply) => handlePage(request, reply));
  app.get(`${KNOWLEDGE}/*`, async (request, reply) => handlePage(request, reply));
}
