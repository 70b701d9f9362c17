import type { FastifyInstance } from 'fastify';
import { escapeHtml, inertJson } from '../../shared/html.ts';
import type { RenderResult } from '../../web/entry-server.tsx';
import { createApi } from '../../web/api/client.ts';
import type { WebAssets } from './web-assets.ts';
import { DatabaseUnavailableError } from '../http/errors.ts';
import { cacheTagsOf } from '../http/response-cache.ts';
import type { PageReaders } from '../content/reader.ts';
import { createPageCalls, type CallOverride } from './page-calls.ts';

export interface RenderedPage {
  page: RenderResult;
  /** What the page depends on: its own URL's tags and those of every call it was rendered from. */
  cacheTags: string[];
  /**
   * False when a call it was rendered from failed (an error page is not the content) or answered from a search
   * index still catching up with the content: such a page is sent but not kept.
   */
  cacheable: boolean;
}

/** Renders a public page with the web client's own routes and loaders, its calls answered by this very server. */
export async function renderPage(
  app: FastifyInstance,
  url: string,
  {
    readers,
    override = (_path, answer) => answer(),
    cookie,
  }: {
    /** What the page reads as (language, audience, revision), resolved once as its request came in. */
    readers: PageReaders;
    override?: CallOverride;
    /** The signed-in visitor's cookie header: the page is rendered for them, and the calls that go over HTTP carry it. */
    cookie?: string;
  },
): Promise<RenderedPage> {
  // Asked each time on purpose. Under the TypeScript loader an `import()` of a loaded module is a round trip to the
  // loader's thread (0.4 ms), yet keeping the promise instead made renders at 10 connections cost 12-28% more CPU
  // each (3.98-4.59 ms against 3.55-3.63, the two taking turns three times), though one connection's were cheaper.
  const { render } = await import('../../web/entry-server.tsx');
  const request = new Request(new URL(url, 'http://signpost.local'), { method: 'GET' });
  const calls = createPageCalls(app, readers, override, cookie);
  for (const tag of cacheTagsOf(url)) calls.tags.add(tag);
  const page = await render(request, createApi(calls.transport), { session: cookie !== undefined });
  // A call the database could not answer makes the page answer 503 too, not an error page cached as the content.
  if (calls.unavailable) throw new DatabaseUnavailableError();
  return { page, cacheTags: [...calls.tags], cacheable: calls.cacheable };
}

export function htmlDocument(
  page: Extract<RenderResult, { kind: 'page' }>,
  assets: WebAssets,
  extraHead = '',
  { hydrate = true }: { hydrate?: boolean } = {},
): string {
  const chunks = page.chunks.flatMap((key) => assets.chunks[key] ?? { preloads: [], styles: [] });
  const styles = new Set([...assets.styles, ...chunks.flatMap((chunk) => chunk.styles)]);
  // The page's own chunks too, so the browser fetches them beside the entry rather than after it has run.
  const preloads = new Set([
    ...assets.preloads,
    ...(hydrate ? chunks.flatMap((chunk) => chunk.preloads) : []),
  ]);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.head.description)}">`,
    page.head.noindex ? '<meta name="robots" content="noindex">' : '',
    ...seoTags(page),
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ...[...styles].map((href) => `<link rel="stylesheet" href="${href}">`),
    ...[...preloads].map((href) => `<link rel="modulepreload" href="${href}">`),
    assets.script ? `<script type="module" src="${assets.script}"></script>` : '',
    extraHead,
  ]
    .filter(Boolean)
    .join('\n');
  // The router's state as inert JSON (entry-client reads it): no inline script for the CSP to allow.
  const hydration = hydrate
    ? `<script type="application/json" id="signpost-hydration">${page.hydration}</script>`
    : '';
  // Font Awesome after the page, not in the head: a stylesheet there holds back the whole first paint (by half a
  // second on a phone, measured), here only the icons, which draw once it arrives.
  const fontIcons =
    page.fontIcons && assets.fontIcons ? `<link rel="stylesheet" href="${assets.fontIcons}">\n` : '';
  return `<!doctype html>\n<html lang="${escapeHtml(page.lang)}">\n<head>\n${head}\n</head>\n<body>\n<div id="root">${page.html}</div>\n${fontIcons}${hydration}\n</body>\n</html>\n`;
}

/** Open Graph names a locale with its country. */
const OG_LOCALES: Record<string, string> = {
  en: 'en_US',
  ru: 'ru_RU',
  'pt-BR': 'pt_BR',
  it: 'it_IT',
  sk: 'sk_SK',
};

/** The canonical link, Open Graph and Twitter card tags, and the structured data, of a rendered page. */
function seoTags(page: Extract<RenderResult, { kind: 'page' }>): string[] {
  const { seo, head } = page;
  if (!seo) return [];
  const meta = (property: string, content: string | null) =>
    content ? `<meta property="${property}" content="${escapeHtml(content)}">` : '';
  // The page's own title, without the site's after it: the site's name has a tag of its own.
  const title = head.title.endsWith(` | ${seo.siteName}`)
    ? head.title.slice(0, -` | ${seo.siteName}`.length)
    : head.title;
  return [
    seo.canonical ? `<link rel="canonical" href="${escapeHtml(seo.canonical)}">` : '',
    ...seo.alternates.map(
      ({ hreflang, href }) =>
        `<link rel="alternate" hreflang="${escapeHtml(hreflang)}" href="${escapeHtml(href)}">`,
    ),
    meta('og:type', seo.type),
    meta('og:site_name', seo.siteName),
    meta('og:title', title),
    meta('og:description', head.description),
    meta('og:url', seo.canonical),
    meta('og:image', seo.image),
    meta('og:locale', OG_LOCALES[page.lang] ?? null),
    `<meta name="twitter:card" content="${seo.image ? 'summary_large_image' : 'summary'}">`,
    // Inert JSON, like the hydration data: `<` is escaped so nothing in a title can end the element.
    ...seo.jsonLd.map((data) => `<script type="application/ld+json">${inertJson(data)}</script>`),
  ].filter(Boolean);
}
