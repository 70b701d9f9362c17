import type { RouteObject } from 'react-router';
import { BASE_PATH } from '../shared/paths.ts';
import { pageLanguageOf } from '../shared/page-language.ts';
import { portalRoutes } from './portal/portal-routes.tsx';
import { categoryHandle, categoryLoader, CategoryPage } from './routes/category.tsx';
import { homeHandle, homeLoader, HomePage } from './routes/home.tsx';
import { instructionHandle, instructionLoader, InstructionPage } from './routes/instruction.tsx';
import { Layout, LayoutError, PageError } from './routes/layout.tsx';
import { PageNotFound, pageNotFoundHandle } from './routes/page-not-found.tsx';
import { rootLoader } from './routes/root-data.ts';
import { searchHandle, searchLoader, SearchPage, shouldSearchRevalidate } from './routes/search.tsx';
import { standaloneHandle, standaloneLoader, StandaloneNotFound } from './routes/standalone-not-found.tsx';

/**
 * Every public screen: the help centre under /knowledge, and the customer portal's pages at the specification's own
 * paths (/login, /issues, /user/profile...). The server renders these and the browser hydrates the same tree.
 */
export const routes: RouteObject[] = [
  {
    id: 'standalone-not-found',
    path: `${BASE_PATH}/notFound`,
    loader: standaloneLoader,
    Component: StandaloneNotFound,
    handle: standaloneHandle,
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
          { id: 'home', index: true, loader: homeLoader, Component: HomePage, handle: homeHandle },
          {
            id: 'category',
            path: 'category/:id',
            loader: categoryLoader,
            Component: CategoryPage,
            handle: categoryHandle,
          },
          {
            id: 'instruction',
            path: 'instruction/:id',
            loader: instructionLoader,
            Component: InstructionPage,
            handle: instructionHandle,
          },
          {
            id: 'search',
            path: 'search',
            loader: searchLoader,
            shouldRevalidate: shouldSearchRevalidate,
            Component: SearchPage,
            handle: searchHandle,
          },
          { id: 'page-not-found', path: '*', Component: PageNotFound, handle: pageNotFoundHandle },
        ],
      },
    ],
  },
  ...portalRoutes,
];
