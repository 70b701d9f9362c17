import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import type { Branding, Environments } from '../shared/api/settings.ts';
import type { Api } from './api/client.ts';
import type { LoaderContext } from './api/api-context.ts';
import { createTranslator, loadAllMessages, messagesChunk } from './i18n/i18n.tsx';
import { pageHead, type PageHead } from './routes/head.ts';
import { pageSeo, type PageSeo } from './routes/seo.ts';
import { BASE_PATH } from '../shared/paths.ts';
import { pageLanguageOf } from '../shared/page-language.ts';
import { inertJson } from '../shared/html.ts';
import { routeChunks, routes } from './routes.tsx';
import { loadAllPortalTexts, portalTextsChunk } from './portal/portal-languages.ts';
import { PORTAL_ROUTE_ID } from './portal/portal-routes.tsx';
import { FONT_ICON_MARKER } from './components/font-icon.tsx';

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      status: number;
      html: string;
      /** The router's state for hydration, as JSON safe inside `<script type="application/json">` (see entry-client). */
      hydration: string;
      head: PageHead;
      /** Canonical address, link-preview facts and structured data; null when the site's settings could not load. */
      seo: PageSeo | null;
      lang: string;
      projectId: string | null;
      /** The page shows an icon-font glyph, so its document links the icon font's stylesheet. */
      fontIcons: boolean;
      /** The chunks the browser needs to hydrate this page (its routes' code, its language's texts), by manifest key. */
      chunks: string[];
    };

/**
 * What React Router's own hydration script would carry (errors serialised the same way), but as inert JSON rather
 * than a script: the pages' Content-Security-Policy then needs no hash or nonce for it. `<`, `>`, `&` and the line
 * separators are escaped, so nothing in the data can end the element.
 */
export function hydrationJson(context: StaticHandlerContext): string {
  const errors = context.errors
    ? Object.fromEntries(
        Object.entries(context.errors).map(([id, error]) => [
          id,
          isRouteErrorResponse(error)
            ? { ...error, __type: 'RouteErrorResponse' }
            : error instanceof Error
              ? {
                  message: error.message,
                  __type: 'Error',
                  ...(error.name !== 'Error' ? { __subType: error.name } : {}),
                }
              : error,
        ]),
      )
    : null;
  return inertJson({ loaderData: context.loaderData, actionData: context.actionData, errors });
}

const handler = createStaticHandler(routes);
const ROUTE_CHUNKS = routeChunks();

// A page may be in any language, and its texts must be there when it renders.
await Promise.all([loadAllMessages(), loadAllPortalTexts()]);

/** An element of ours with the icon-font marker (stored HTML keeps only the sanitiser's few content classes). */
const FONT_ICON_USE = new RegExp(`<span class="${FONT_ICON_MARKER}[ "]`);

/**
 * Renders one public page to HTML with the same routes and loaders the browser uses; the loaders reach the API
 * through `api`, which the server implements in-process.
 */
export async function render(
  request: Request,
  api: Api,
  { session = false }: { session?: boolean } = {},
): Promise<RenderResult> {
  const requestContext: LoaderContext = { api, session };
  const context = await handler.query(request, { requestContext });
  if (context instanceof Response) {
    const location = context.headers.get('Location') ?? BASE_PATH;
    return {
      kind: 'redirect',
      status: context.status,
      location: location.startsWith('/') ? location : `${BASE_PATH}/`,
    };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  const rootData = context.loaderData.root as
    { branding?: Branding; environments?: Environments } | undefined;
  const branding = rootData?.branding ?? (await api.branding().catch(() => undefined));
  const pageLang = pageLanguageOf(new URL(request.url).search);
  const lang = pageLang ?? branding?.lang ?? 'en';
  const t = createTranslator(lang);
  const matches = context.matches.map((match) => ({
    handle: match.route.handle,
    data: context.loaderData[match.route.id],
  }));
  const pageHeadOf = pageHead(matches, branding?.site_title ?? '', t);
  const status = pageHeadOf.status ?? context.statusCode;
  const head = { ...pageHeadOf, noindex: pageHeadOf.noindex || status >= 400 };
  const origin = rootData?.environments?.knowledge_portal;
  return {
    kind: 'page',
    status,
    html,
    hydration: hydrationJson(context),
    head,
    seo:
      branding && origin
        ? pageSeo(matches, {
            pathname: new URL(request.url).pathname,
            noindex: head.noindex,
            branding,
            origin,
            t,
            pageLang,
          })
        : null,
    lang,
    projectId: branding?.project_id ?? null,
    fontIcons: FONT_ICON_USE.test(html),
    chunks: [
      ...context.matches.flatMap((match) => ROUTE_CHUNKS[match.route.id] ?? []),
      ...new Set([lang, branding?.lang ?? 'en'].map(messagesChunk)),
      // A portal page's texts are in the site's language.
      ...(context.matches.some((match) => match.route.id === PORTAL_ROUTE_ID)
        ? [portalTextsChunk(branding?.lang ?? 'en')]
        : []),
    ],
  };
}
