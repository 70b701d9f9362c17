import type { UIMatch } from 'react-router';
import type { Translate } from '../i18n/i18n.tsx';
import type { RouteSeo } from './seo.ts';

export interface PageHead {
  title: string;
  description: string;
  status?: number;
  /** Search engines are asked to leave the page out: search results, and pages that answer an error. */
  noindex: boolean;
}

export interface RouteHandle {
  /**
   * Title and description for the document head, from the route's loader data; `noindex` when this page is to be
   * left out of search engines (an article the team hid from them).
   */
  head?: (data: unknown, t: Translate) => { title?: string; description?: string; noindex?: boolean };
  /** The page's kind and structured data for search engines (see seo.ts). */
  seo?: RouteSeo;
  /** HTTP status to answer with when this route renders (the not-found screens). */
  status?: number;
  /** Not for search engines' indexes (the search results page). */
  noindex?: boolean;
  /** The spec hides the request hint on home when any article offers the request form. */
  hideRequestHint?: (data: unknown) => boolean;
}

/** The deepest route that says something about the head wins; the site title always follows. */
export function pageHead(
  matches: Pick<UIMatch, 'handle' | 'data'>[],
  siteTitle: string,
  t: Translate,
): PageHead {
  let head: { title?: string; description?: string; noindex?: boolean } = {};
  let status: number | undefined;
  let noindex = false;
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.head) {
      const said = handle.head(match.data, t);
      head = { ...head, ...said };
      if (said.noindex) noindex = true;
    }
    if (handle?.status) status = handle.status;
    if (handle?.noindex) noindex = true;
  }
  const title = head.title && head.title !== siteTitle ? `${head.title} | ${siteTitle}` : siteTitle;
  // Every page gets a description for search engines; without a better one, the page's own title says it.
  return {
    title,
    description: head.description || title,
    status,
    noindex: noindex || (status ?? 200) >= 400,
  };
}
