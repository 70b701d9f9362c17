import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import type { Branding } from '../shared/api/settings.ts';
import type { Api } from './api/client.ts';
import type { LoaderContext } from './api/api-context.ts';
import { createTranslator } from './i18n/i18n.tsx';
import { pageHead, type PageHead } from './routes/head.ts';
import { BASE_PATH } from '../shared/paths.ts';
import { routes } from './routes.tsx';
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
      lang: string;
      projectId: string | null;
      /** The page shows an icon-font glyph, so its document links the icon font's stylesheet. */
      fontIcons: boolean;
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
  return JSON.stringify({ loaderData: context.loaderData, actionData: context.actionData, errors }).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const handler = createStaticHandler(routes);

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
  const rootData = context.loaderData.root as { branding?: Branding } | undefined;
  const branding = rootData?.branding ?? (await api.branding().catch(() => undefined));
  const lang = branding?.lang ?? 'en';
  const head = pageHead(
    context.matches.map((match) => ({
      handle: match.route.handle,
      data: context.loaderData[match.route.id],
    })),
    branding?.site_title ?? '',
    createTranslator(lang),
  );
  const status = head.status ?? context.statusCode;
  return {
    kind: 'page',
    status,
    html,
    hydration: hydrationJson(context),
    head: { ...head, noindex: head.noindex || status >= 400 },
    lang,
    projectId: branding?.project_id ?? null,
    fontIcons: FONT_ICON_USE.test(html),
  };
}
