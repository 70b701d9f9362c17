import type { LoaderFunction, RouteObject } from 'react-router';
import { BASE_PATH, portalPagePaths } from '../shared/paths.ts';
import { pageLanguageOf } from '../shared/page-language.ts';
import { PORTAL_CHUNK, portalRoutes } from './portal/portal-routes.tsx';
import { Layout, LayoutError, PageError } from './routes/layout.tsx';
import { PageNotFound, pageNotFoundHandle } from './routes/page-not-found.tsx';
import { rootLoader } from './routes/root-data.ts';

/**
 * The module of each route whose page is a chunk of its own, as Vite's manifest names it. The browser fetches a
 * page's chunk when the page is first shown; the server links the matched routes' chunks into the page it sends
 * (modulepreload), so the browser has them before it hydrates. Built when asked, so that the browser's first script,
 * which never asks, leaves it out.
 */
export function routeChunks(): Record<string, string> {
  return {
    'standalone-not-found': 'src/web/routes/standalone-not-found.tsx',
    home: 'src/web/routes/home.tsx',
    category: 'src/web/routes/category.tsx',
    instruction: 'src/web/routes/instruction.tsx',
    search: 'src/web/routes/search.tsx',
    ...Object.fromEntries(portalRouteIds(portalRoutes).map((id) => [id, PORTAL_CHUNK])),
  };
}

function portalRouteIds(routes: RouteObject[]): string[] {
  return routes.flatMap((route) => [
    ...(route.lazy && route.id ? [route.id] : []),
    ...portalRouteIds(route.children ?? []),
  ]);
}

/**
 * Every public screen: the help centre under /knowledge, and the customer portal's pages at the specification's own
 * paths (/login, /issues, /user/profile...). The server renders these and the browser hydrates the same tree; each
 * page's own code arrives with the page (routeChunks), the layout they share with the first script.
 */
const helpCentreRoutes: RouteObject[] = [
  {
    id: 'standalone-not-found',
    path: `${BASE_PATH}/notFound`,
    lazy: async () => {
      const page = await import('./routes/standalone-not-found.tsx');
      return {
        loader: page.standaloneLoader,
        Component: page.StandaloneNotFound,
        handle: page.standaloneHandle,
      };
    },
  },
  {
    id: 'root',
    path: BASE_PATH,
    loader: rootLoader,
    Component: Layout,
    ErrorBoundary: LayoutError,
    // Branding and the bundle stay as they were while the visitor moves around, unless the language changes.
    shouldRevalidate: ({ currentUrl, nextUrl }) =>
      pageLanguageOf(currentUrl.search) !== pageLanguageOf(nextUrl.search),
    children: [
      {
        ErrorBoundary: PageError,
        children: [
          {
            id: 'home',
            index: true,
            lazy: async () => {
              const page = await import('./routes/home.tsx');
              return { loader: page.homeLoader, Component: page.HomePage, handle: page.homeHandle };
            },
          },
          {
            id: 'category',
            path: 'category/:id',
            lazy: async () => {
              const page = await import('./routes/category.tsx');
              return {
                loader: page.categoryLoader,
                Component: page.CategoryPage,
                handle: page.categoryHandle,
              };
            },
          },
          {
            id: 'instruction',
            path: 'instruction/:id',
            lazy: async () => {
              const page = await import('./routes/instruction.tsx');
              return {
                loader: page.instructionLoader,
                Component: page.InstructionPage,
                handle: page.instructionHandle,
              };
            },
          },
          {
            id: 'search',
            path: 'search',
            lazy: async () => {
              const page = await import('./routes/search.tsx');
              return {
                loader: page.searchLoader,
                shouldRevalidate: page.shouldSearchRevalidate,
                Component: page.SearchPage,
                handle: page.searchHandle,
              };
            },
          },
          { id: 'page-not-found', path: '*', Component: PageNotFound, handle: pageNotFoundHandle },
        ],
      },
    ],
  },
];

export const routes: RouteObject[] = [...helpCentreRoutes, ...portalRoutes];

/** Leaves for the address asked: the browser loads it as a new document, and this router never shows it. */
const loadDocument: LoaderFunction = ({ request }) => {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
};

/**
 * The routes a document shows in the browser: those of its own side of the line between the help centre and the
 * portal; an address on the other side loads a new document. A document keeps the scripts its first page came with:
 * the operator's analytics snippet on the help centre's pages, none on the portal's. The snippet reads every change
 * of address, so a portal page (an account, a visitor's requests, a private link's key) shown by a route change
 * would reach the analytics provider.
 */
export function documentRoutes(portalDocument: boolean): RouteObject[] {
  if (portalDocument)
    return [...portalRoutes, { id: 'help-centre-document', path: `${BASE_PATH}/*`, loader: loadDocument }];
  return [
    ...helpCentreRoutes,
    ...portalPagePaths.map((path) => ({ id: `portal-document:${path}`, path, loader: loadDocument })),
  ];
}
