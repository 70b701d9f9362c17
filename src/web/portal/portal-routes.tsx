import type { RouteObject } from 'react-router';
import { portalPagePaths, type PortalPagePath } from '../../shared/paths.ts';
import { LayoutError, PageError } from '../routes/layout.tsx';

/** The route of the portal's layout, whose loader has the portal's data; a page under it shows the portal's texts. */
export const PORTAL_ROUTE_ID = 'portal';

/** The chunk with the portal's layout, pages and texts (Vite's manifest key), which the server preloads. */
export const PORTAL_CHUNK = 'src/web/portal/portal-pages.tsx';

const page = (path: PortalPagePath): RouteObject => ({
  id: `portal:${path}`,
  path,
  lazy: async () => (await import('./portal-pages.tsx')).portalPage(path),
});

/**
 * The customer portal's pages (src/shared/paths.ts, portalPagePaths), served when no external portal is named.
 * A visitor known by their session cookie gets their requests and conversations rendered by the server (pages sent
 * `private, no-store`, never kept); without it, the page asks for them in the browser with the token it keeps.
 * Only the paths are in the first script: the portal's code and texts are one chunk of their own (PORTAL_CHUNK).
 */
export const portalRoutes: RouteObject[] = [
  {
    id: PORTAL_ROUTE_ID,
    lazy: async () => (await import('./portal-pages.tsx')).portalLayout,
    ErrorBoundary: LayoutError,
    shouldRevalidate: () => false,
    children: [{ ErrorBoundary: PageError, children: portalPagePaths.map(page) }],
  },
];
