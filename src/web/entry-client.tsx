import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type HydrationState } from 'react-router';
import { LANGUAGES, type Language } from '../shared/constants.ts';
import { loadMessages } from './i18n/i18n.tsx';
import { loadPortalTexts } from './portal/portal-languages.ts';
import { PORTAL_ROUTE_ID } from './portal/portal-routes.tsx';
import { documentRoutes, routes } from './routes.tsx';
import './styles/app.css';

/**
 * The server's router state, from inert JSON at the end of <body> (not a script: the Content-Security-Policy
 * allows no inline script for it). Looked up as a direct child of <body>, where stored content cannot put anything.
 */
const hydrationElement = document.querySelector('body > script#signpost-hydration[type="application/json"]');
const hydrationData: HydrationState | undefined = hydrationElement?.textContent
  ? JSON.parse(hydrationElement.textContent)
  : undefined;

/**
 * The matched pages' own code, before the router starts: the first render must be the page the server sent, not a
 * fallback. The server preloaded these chunks, so this waits on no new request.
 */
const matches = matchRoutes(routes, window.location) ?? [];

async function loadMatchedRoutes() {
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

/** The languages the page is shown in: the document's, and the site's that a portal page or a fallback uses. */
function pageLanguages(): Language[] {
  const named = [
    document.documentElement.lang,
    ...Object.values(hydrationData?.loaderData ?? {}).flatMap((data) => {
      const loaded = data as { lang?: string; branding?: { lang?: string } } | null;
      return [loaded?.lang, loaded?.branding?.lang];
    }),
  ];
  return LANGUAGES.filter((lang) => named.includes(lang));
}

// A portal page shows the portal's texts too, a chunk of each language of their own (also preloaded).
const portalPage = matches.some(({ route }) => route.id === PORTAL_ROUTE_ID);
await Promise.all([
  loadMatchedRoutes(),
  ...pageLanguages().flatMap((lang) => [loadMessages(lang), ...(portalPage ? [loadPortalTexts(lang)] : [])]),
]);

// A route change never crosses between the help centre and the portal: the other side's pages load a new document.
const router = createBrowserRouter(documentRoutes(portalPage), { hydrationData });

hydrateRoot(
  document.getElementById('root') as HTMLElement,
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
