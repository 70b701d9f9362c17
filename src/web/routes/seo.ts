import type { UIMatch } from 'react-router';
import type { Branding } from '../../shared/api/settings.ts';
import { BASE_PATH, href } from '../../shared/paths.ts';
import type { Language } from '../../shared/constants.ts';
import { withLang } from '../../shared/page-language.ts';
import type { Translate } from '../i18n/i18n.tsx';
import type { TrailStep } from '../lib/trail.ts';
import type { RouteHandle } from './head.ts';

/** What a page says about itself to search engines and link previews, beyond its title and description. */
export interface PageSeo {
  /** The page's one address, built from PUBLIC_URL (never the request's host); null for pages not to be indexed. */
  canonical: string | null;
  type: 'website' | 'article';
  siteName: string;
  /** An absolute image for link previews: the branding's background, else its logo. */
  image: string | null;
  /** Structured data (schema.org), each written as its own `application/ld+json` block. */
  jsonLd: Record<string, unknown>[];
  /** The same page in each of the help centre's languages, and `x-default`; empty with one language. */
  alternates: { hreflang: string; href: string }[];
}

/** The help centre as the structured data describes it. */
export interface SiteFacts {
  /** PUBLIC_URL, without a trailing slash (the environments' knowledge_portal). */
  origin: string;
  name: string;
  /** The page's language (the visitor's). */
  lang: string;
  /** Absolute, or null. */
  logo: string | null;
  t: Translate;
  /** A page's absolute address in the page's language (the site's own: without `?lang=`). */
  address: (path: string) => string;
}

/**
 * What a route adds, from its loader's data: its kind, its structured data, and its own address (`path`), which
 * the canonical link takes rather than the address asked for (`/instruction/05` is `/instruction/5`).
 */
export type RouteSeo = (
  data: unknown,
  site: SiteFacts,
) => { type?: PageSeo['type']; jsonLd?: Record<string, unknown>[]; path?: string };

/** A site-relative address (a page, an uploaded image) made absolute on PUBLIC_URL; absolute ones stay. */
export function absoluteUrl(origin: string, url: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/** The one address of a page: its path (a trailing slash dropped, the home's kept), without its query. */
export function canonicalPath(pathname: string): string {
  if (pathname === BASE_PATH || pathname === `${BASE_PATH}/`) return href.home();
  return pathname.replace(/\/+$/, '');
}

export const publisher = (site: SiteFacts) => ({
  '@type': 'Organization',
  name: site.name,
  ...(site.logo && { logo: { '@type': 'ImageObject', url: site.logo } }),
});

/** schema.org BreadcrumbList of a trail: the home, then each step that is a page (sections have none). */
export function breadcrumbList(site: SiteFacts, steps: TrailStep[]): Record<string, unknown> {
  const pages = [
    { name: site.t('main'), path: href.home() },
    ...steps
      .filter((step) => step.kind !== 'section')
      .map((step) => ({
        name: step.name,
        path: step.kind === 'category' ? href.category(step.id) : href.instruction(step.id),
      })),
  ];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: pages.map((page, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: page.name,
      item: site.address(page.path),
    })),
  };
}

/**
 * The page's canonical address, link-preview facts and structured data. Pages not to be indexed (search results,
 * errors, hidden articles, the portal's) get no canonical and no structured data: nothing points a crawler at them.
 */
export function pageSeo(
  matches: Pick<UIMatch, 'handle' | 'data'>[],
  {
    pathname,
    noindex,
    branding,
    origin,
    t,
    pageLang = null,
  }: {
    pathname: string;
    noindex: boolean;
    branding: Branding;
    origin: string;
    t: Translate;
    /** The language the page's address names (`?lang=`), or null. */
    pageLang?: Language | null;
  },
): PageSeo {
  const lang = pageLang ?? branding.lang;
  const addressIn = (path: string, language: Language) =>
    absoluteUrl(origin, withLang(path, language === branding.lang ? null : language));
  const site: SiteFacts = {
    origin,
    name: branding.site_title,
    lang,
    logo: branding.logo_url ? absoluteUrl(origin, branding.logo_url) : null,
    t,
    address: (path) => addressIn(path, lang),
  };
  const image = branding.background_url ?? branding.logo_url;
  // The help centre's pages; the portal's (sign-in, a visitor's requests) are nobody's search result.
  const indexable = !noindex && (pathname === BASE_PATH || pathname.startsWith(`${BASE_PATH}/`));
  const seo: PageSeo = {
    canonical: indexable ? site.address(canonicalPath(pathname)) : null,
    type: 'website',
    siteName: site.name,
    image: image ? absoluteUrl(origin, image) : null,
    jsonLd: [],
    alternates: [],
  };
  if (!indexable) return seo;
  let path = canonicalPath(pathname);
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    const said = handle?.seo?.(match.data, site);
    if (said?.type) seo.type = said.type;
    if (said?.jsonLd) seo.jsonLd = said.jsonLd;
    if (said?.path) path = said.path;
  }
  seo.canonical = site.address(path);
  // Each language's address is its canonical one: the site's own without `?lang=`, the same as x-default.
  const languages = branding.languages ?? [];
  if (languages.length > 1)
    seo.alternates = [
      ...languages.map((language) => ({ hreflang: language, href: addressIn(path, language) })),
      { hreflang: 'x-default', href: absoluteUrl(origin, path) },
    ];
  return seo;
}
