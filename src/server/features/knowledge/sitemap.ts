import type { Executor } from '../../db/database.ts';
import { escapeHtml } from '../../../shared/html.ts';
import { ADMIN_BASE_PATH, BASE_PATH, href, portalPagePaths } from '../../../shared/paths.ts';
import { getBranding } from '../../settings/branding.ts';
import type { CategoryRow } from '../../db/tables.ts';
import { loadCatalog, type Catalog } from './catalog.ts';
import { listIndexableArticles } from './knowledge.repository.ts';
import type { Language } from '../../../shared/constants.ts';
import { withLang } from '../../../shared/page-language.ts';
import { readSiteLanguages, readingOf } from '../../languages/index.ts';

/** The sitemap protocol's limit of addresses in one file; past it, /sitemap.xml is an index of numbered parts. */
export const SITEMAP_URLS_MAX = 50_000;

interface SitemapEntry {
  path: string;
  lastmod: number | null;
  /** The same page in each of the help centre's languages and `x-default`, when it has several. */
  alternates?: { hreflang: string; path: string }[];
}

/**
 * Every page an anonymous visitor can read and a search engine may list: the home, each visible category and each
 * published article, less what is for signed-in visitors and what the team hid from search engines. A page's
 * lastmod is its newest article's change (for a category, of any article below it).
 */
export async function sitemapEntries(db: Executor): Promise<SitemapEntry[]> {
  const branding = await getBranding(db);
  if (!branding.knowledge_enabled) return [];
  const { site, languages } = await readSiteLanguages(db);
  const catalog = await loadCatalog(db, 'everyone', readingOf(null, site));
  const articles = await listIndexableArticles(db, catalog);
  const newest = new Map<number, number>();
  let home: number | null = null;
  for (const article of articles) {
    const changed = Number(article.updated_at);
    home = Math.max(home ?? 0, changed);
    // Up the chain of categories, guarding against a corrupt loop of parents.
    const seen = new Set<number>();
    for (
      let category = article.category_id === null ? undefined : catalog.category(article.category_id);
      category && !seen.has(category.id);
      category = category.parent_id === null ? undefined : catalog.category(category.parent_id)
    ) {
      seen.add(category.id);
      newest.set(category.id, Math.max(newest.get(category.id) ?? 0, changed));
    }
  }
  const pages: SitemapEntry[] = [
    { path: href.home(), lastmod: home },
    ...catalog.categories
      .filter((category) => catalog.isCategoryVisible(category.id) && !leadsOn(catalog, category))
      .map((category) => ({ path: href.category(category.id), lastmod: newest.get(category.id) ?? null })),
    ...articles.map((article) => ({
      path: href.instruction(article.id),
      lastmod: Number(article.updated_at),
    })),
  ];
  return languages.length > 1 ? pages.flatMap((page) => inEveryLanguage(page, site, languages)) : pages;
}

/**
 * A page once in each language, each naming all of them: every page reads in every language (what has no version
 * in one falls back, marked), so every language's address is listed, as each page's own hreflang links list them.
 */
function inEveryLanguage(page: SitemapEntry, site: Language, languages: Language[]): SitemapEntry[] {
  const addressIn = (lang: Language) => withLang(page.path, lang === site ? null : lang);
  const alternates = [
    ...languages.map((lang) => ({ hreflang: lang, path: addressIn(lang) })),
    { hreflang: 'x-default', path: page.path },
  ];
  return languages.map((lang) => ({ path: addressIn(lang), lastmod: page.lastmod, alternates }));
}

/**
 * Whether the site leads on from this category to one below it (the specification's auto-redirect, as
 * src/web/lib/auto-redirect.ts applies it): in a section with one category, a category holding one category and
 * nothing else, as is every category above it. Such an address answers a redirect, which a sitemap does not list.
 */
function leadsOn(catalog: Catalog, category: CategoryRow): boolean {
  if (catalog.sectionCounts(category.section_id).count_category !== 1) return false;
  const seen = new Set<number>();
  for (
    let current: CategoryRow | undefined = category;
    current && !seen.has(current.id);
    current = current.parent_id === null ? undefined : catalog.category(current.parent_id)
  ) {
    seen.add(current.id);
    const counts = catalog.categoryCounts(current.id);
    if (counts.count_category !== 1 || counts.count_instruction !== 0) return false;
  }
  return true;
}

const lastmodOf = (millis: number | null) =>
  millis === null ? '' : `<lastmod>${new Date(millis).toISOString()}</lastmod>`;

/** One sitemap file: the addresses of a part of the entries. */
export function urlSet(origin: string, entries: SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `<url><loc>${escapeHtml(`${origin}${entry.path}`)}</loc>${lastmodOf(entry.lastmod)}${(
        entry.alternates ?? []
      )
        .map(
          (link) =>
            `<xhtml:link rel="alternate" hreflang="${escapeHtml(link.hreflang)}" href="${escapeHtml(`${origin}${link.path}`)}"/>`,
        )
        .join('')}</url>`,
  );
  const xhtml = entries.some((entry) => entry.alternates)
    ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join('\n')}\n</urlset>\n`;
}

/** The index of the numbered parts, when the entries are too many for one file. */
export function sitemapIndex(origin: string, parts: SitemapEntry[][]): string {
  const items = parts.map((part, index) => {
    const lastmod = part.reduce<number | null>(
      (max, e) => (e.lastmod === null ? max : Math.max(max ?? 0, e.lastmod)),
      null,
    );
    return `<sitemap><loc>${escapeHtml(`${origin}${sitemapPartPath(index + 1)}`)}</loc>${lastmodOf(lastmod)}</sitemap>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

export const sitemapPartPath = (part: number) => `/sitemaps/${part}.xml`;

export function chunk<T>(items: T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

/**
 * Where crawlers may go: the help centre and its files; not the admin app, the calls, the portal's pages (a
 * visitor's own) nor search results (endless and thin). Names the sitemap, on PUBLIC_URL.
 */
export function robotsTxt(origin: string): string {
  const paths = portalPagePaths.map((path) => path.replace(/\/:.*$/, ''));
  // A rule covers every path it starts: /issues covers /issues/create.
  const portal = [...new Set(paths)].filter((path) => !paths.some((other) => path.startsWith(`${other}/`)));
  return [
    'User-agent: *',
    `Disallow: ${ADMIN_BASE_PATH}`,
    'Disallow: /api/',
    'Disallow: /panel/',
    `Disallow: ${BASE_PATH}/search`,
    ...portal.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
