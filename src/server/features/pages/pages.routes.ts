import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { AnalyticsConfig, CaptchaConfig } from '../../config/config.ts';
import { cookieHeaderOf } from '../../http/cookies.ts';
import { publicPagePolicy, snippetSources, styleAttributeHashes } from '../../http/csp.ts';
import { carriesSession, servedHost } from '../../http/response-cache.ts';
import fastifyStatic from '@fastify/static';
import path from 'node:path';
import { escapeHtml } from '../../../shared/html.ts';
import { BASE_PATH, portalPagePaths } from '../../../shared/paths.ts';
import { htmlDocument, renderPage, type RenderedPage } from '../../render/render-page.ts';
import { readWebAssets, WEB_DIST } from '../../render/web-assets.ts';
import { registerAdminPageRoutes } from './admin-page.routes.ts';
import { registerFaviconRoutes } from './favicon.routes.ts';
import { askedLanguage, languageRedirect, namesNoLanguage, type PageLanguages } from './page-language.ts';
import { withLang } from '../../../shared/page-language.ts';

export interface PageOptions {
  analytics: AnalyticsConfig | null;
  captcha: Pick<CaptchaConfig, 'provider'>;
  /** Whether X-Forwarded-Host names the host (TRUST_PROXY), as the answer cache reads it. */
  forwardedHost: boolean;
  /** Who may frame the pages (FRAME_ANCESTORS). */
  frameAncestors: readonly string[];
  /** Whether this server is the customer portal (no PORTAL_URL): then it renders the portal's pages too. */
  portal: boolean;
  /** The help centre's languages, for negotiating a page's language (see page-language.ts). */
  languages: PageLanguages;
}

/**
 * The operator's snippet, on the hosts it is meant for, with the branding's project id filled in. The host is
 * read as the answer cache keys it (servedHost), so a page kept for one host is the page that host gets.
 */
function analyticsFor(
  { analytics, forwardedHost }: PageOptions,
  request: FastifyRequest,
  projectId: string | null,
): string {
  if (!analytics) return '';
  if (analytics.hosts && !servedHost(request.raw, analytics.hosts, forwardedHost)) return '';
  return analytics.snippet.replaceAll('{{project_id}}', escapeHtml(projectId ?? ''));
}

/**
 * Renders the page a request asks for, read as its request resolves once: the language its address asks for, the
 * visitor of its session cookie and the revision, which the page and every read it makes take.
 */
async function renderPageFor(app: FastifyInstance, request: FastifyRequest): Promise<RenderedPage> {
  const readers = await app.readers.pageReadersOf(askedLanguage(request.url), await app.pageVisitor(request));
  return renderPage(app, request.url, {
    readers,
    cookie: carriesSession(request) ? cookieHeaderOf(request) : undefined,
  });
}

/** The public site: server-rendered pages under /knowledge, the built client's assets, and redirects to them. */
export async function registerPageRoutes(app: FastifyInstance, options: PageOptions): Promise<void> {
  const { analytics, captcha } = options;
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

  // Before the answers kept in memory are looked up (the cache's hook is added last): a visitor to be sent to their
  // language never gets the page kept for the address without one.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const redirect = await languageRedirect(request, options.languages);
    if (!redirect) return;
    const location = withLang(request.url, redirect.language);
    if (redirect.status === 301) return reply.redirect(location, 301);
    // This answer is the visitor's: their cookie or Accept-Language chose it.
    return reply
      .header('Vary', 'Accept-Language, Cookie')
      .header('Cache-Control', 'private, no-cache')
      .redirect(location, 302);
  });

  /** A page asked for without `?lang=` on a help centre in several languages answers by the visitor's headers. */
  const negotiated = async (request: FastifyRequest) =>
    namesNoLanguage(request.url) && (await options.languages.load()).languages.length > 1;

  const handlePage = async (request: FastifyRequest, reply: FastifyReply, portalPage = false) => {
    // Rendered for the signed-in visitor whose session cookie it carries: theirs alone, kept by nobody.
    const personal = portalPage || carriesSession(request);
    const { page, cacheTags, cacheable } = await renderPageFor(app, request);
    request.cacheTags = cacheTags;
    if (!cacheable) reply.header('Cache-Control', 'no-store');
    if (await negotiated(request)) reply.header('Vary', 'Accept-Language, Cookie');
    if (page.kind === 'redirect') return reply.redirect(page.location, page.status);
    // Never on a portal page: its address (a private link's key), the visitor's account and requests are theirs.
    const snippet = portalPage ? '' : analyticsFor(options, request, page.projectId);
    // Hashed as rendered (the snippet carries the project id), so a page kept in memory keeps a valid policy.
    const policy = publicPagePolicy(
      { scripts: snippetSources(snippet).hashes, styleAttributes: styleAttributeHashes(page.html) },
      {
        captchaProvider: captcha.provider,
        analyticsOrigins: snippet ? analyticsOrigins : [],
        frameAncestors: options.frameAncestors,
      },
    );
    return (
      reply
        .status(page.status)
        .header('Content-Type', 'text/html; charset=utf-8')
        // A portal page is one visitor's (their requests, their account): never kept by anyone but them.
        .header('Cache-Control', personal ? 'private, no-store' : cacheable ? 'no-cache' : 'no-store')
        .header('Content-Security-Policy', policy)
        .send(htmlDocument(page, assets, snippet))
    );
  };

  registerAdminPageRoutes(app);
  registerFaviconRoutes(app);
  app.get('/', async (_request, reply) => reply.redirect(`${BASE_PATH}/`, 302));
  app.get(BASE_PATH, async (request, reply) => handlePage(request, reply));
  app.get(`${BASE_PATH}/*`, async (request, reply) => handlePage(request, reply));
  if (options.portal) {
    for (const path of portalPagePaths)
      app.get(path, async (request, reply) => handlePage(request, reply, true));
    void app.register(registerPortalFormReturns);
  }
}

/**
 * The portal's forms post (method="post"), so one sent by the browser itself, before the page's scripts ran, never
 * puts its fields (a password) in the address, the history or a log as a GET's query would. Such a post is not read:
 * it comes back to its page (303), whose scripts then send the form as the page does. Its own scope, so only these
 * routes take any body without parsing it.
 */
async function registerPortalFormReturns(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null);
  });
  for (const path of portalPagePaths)
    scope.post(path, async (request, reply) => reply.redirect(request.url, 303));
}
