import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { Branding } from '../shared/api/settings.ts';
import type { Api } from './api/client.ts';
import type { LoaderContext } from './api/api-context.ts';
import { createTranslator } from './i18n/i18n.tsx';
import { pageHead, type PageHead } from './routes/head.ts';
import { BASENAME, routes } from './routes.tsx';

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'page'; status: number; html: string; head: PageHead; lang: string; projectId: string | null };

const handler = createStaticHandler(routes, { basename: BASENAME });

/**
 * Renders one public page to HTML with the same routes and loaders the browser uses; the loaders reach the API
 * through `api`, which the server implements in-process.
 */
export async function render(request: Request, api: Api): Promise<RenderResult> {
  const requestContext: LoaderContext = { api };
  const context = await handler.query(request, { requestContext });
  if (context instanceof Response) {
    const location = context.headers.get('Location') ?? BASENAME;
    return {
      kind: 'redirect',
      status: context.status,
      location: location.startsWith('/') ? location : `${BASENAME}/`,
    };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} />
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
  return { kind: 'page', status, html, head, lang, projectId: branding?.project_id ?? null };
}
