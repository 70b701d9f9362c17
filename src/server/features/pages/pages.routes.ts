import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { AnalyticsConfig, CaptchaConfig } from '../../config/config.ts';
import { publicPagePolicy, snippetSources, styleAttributeHashes } from '../../http/csp.ts';
import fastifyStatic from '@fastify/static';
import path from 'node:path';
import { escapeHtml, htmlDocument, renderPage } from './render-page.ts';
import { readWebAssets, WEB_DIST } from './web-assets.ts';
import { registerAdminPageRoutes } from './admin-page.routes.ts';

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
  captcha: Pick<CaptchaConfig, 'provider'> = { provider: 'altcha' },
): Promise<void> {
  const assets = readWebAssets();
  const analyticsOrigins = analytics
    ? [...snippetSources(analytics.snippet).origins, ...(analytics.cspSources ?? [])]
    : [];
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
    const { page, cacheTags, cacheable } = await renderPage(app, request.url);
    request.cacheTags = cacheTags;
    if (!cacheable) reply.header('Cache-Control', 'no-store');
    if (page.kind === 'redirect') return reply.redirect(page.location, page.status);
    const snippet = analyticsFor(analytics, request, page.projectId);
    // Hashed as rendered (the snippet carries the project id), so a page kept in memory keeps a valid policy.
    const policy = publicPagePolicy(
      { scripts: snippetSources(snippet).hashes, styleAttributes: styleAttributeHashes(page.html) },
      { captchaProvider: captcha.provider, analyticsOrigins: snippet ? analyticsOrigins : [] },
    );
    return reply
      .status(page.status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', cacheable ? 'no-cache' : 'no-store')
      .header('Content-Security-Policy', policy)
      .send(htmlDocument(page, assets, snippet));
  };

  registerAdminPageRoutes(app);
  app.get('/', async (_request, reply) => reply.redirect(`${KNOWLEDGE}/`, 302));
  app.get(KNOWLEDGE, async (request, reply) => handlePage(request, reply));
  app.get(`${KNOWLEDGE}/*`, async (request, reply) => handlePage(request, reply));
}
