import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Branding } from '../../../shared/api/settings.ts';
import { createTestApp, type TestApp } from '../../testing/test-context.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { seedDemo } from '../content-folder/demo.service.ts';
import { updateBranding } from '../../settings/branding.ts';
import { SESSION_COOKIE } from '../../../shared/constants.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';

const PORTAL_URL = 'https://portal.example.com';
/** The portal pages the specification links to, exactly. */
const PORTAL_PATHS = ['/issues', '/issues/create', '/user/profile', '/login?from=knowledge_base'];
/** The demo has about a hundred pages and downloads; a crawl stops here rather than run away. */
const MAX_FETCHES = 400;

interface Crawl {
  /** Every same-origin address fetched, with where it was linked from. */
  fetched: Map<string, string>;
  /** Pages (HTML) among them. */
  pages: number;
  /** Links that reached a not-found answer: `from -> to (status, final address)`. */
  dead: string[];
  /** Links to the portal host, as written. */
  portalLinks: Set<string>;
}

/** Every link and resource address a page names: anchors, stylesheets and icons, scripts, images. */
function addressesIn(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.matchAll(/<(?:a|link|script|img)\b[^>]*>/g)) {
    for (const attr of tag[0].matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      found.push(
        (attr[1] ?? '')
          .replace(/&quot;/g, '"')
          .replace(/&#x27;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      );
    }
  }
  return found;
}

/**
 * Fetches /knowledge/ and then every same-origin address its pages name, breadth first, following redirects as a
 * browser would. Links to other hosts are not fetched; those to the portal are kept to be checked.
 */
async function crawl(
  origin: string,
  knowledgeOn: boolean,
  { cookie, starts = ['/knowledge/'] }: { cookie?: string; starts?: string[] } = {},
): Promise<Crawl> {
  const result: Crawl = {
    fetched: new Map(),
    pages: 0,
    dead: [],
    portalLinks: new Set(),
  };
  const queue: string[] = starts.map((start) => `${origin}${start}`);
  for (const start of queue) result.fetched.set(start, '(start)');
  while (queue.length > 0 && result.fetched.size <= MAX_FETCHES) {
    const address = queue.shift() ?? '';
    const response = await fetch(address, {
      headers: { 'accept-encoding': 'identity', ...(cookie && { cookie }) },
    });
    const finalPath = new URL(response.url).pathname;
    // With the help centre off every page is meant to end on its not-found screen, which answers 404.
    const switchedOff = !knowledgeOn && finalPath === '/knowledge/notFound';
    const notFound = finalPath === '/knowledge/404' || finalPath === '/knowledge/notFound';
    if ((notFound || response.status >= 400) && !switchedOff) {
      result.dead.push(
        `${result.fetched.get(address)} -> ${address} (${response.status}, ${response.url.slice(origin.length)})`,
      );
      await response.arrayBuffer();
      continue;
    }
    if (!result.fetched.has(response.url)) result.fetched.set(response.url, address);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
      await response.arrayBuffer();
      continue;
    }
    result.pages += 1;
    const html = await response.text();
    for (const raw of addressesIn(html)) {
      const target = new URL(raw, response.url);
      if (target.origin !== origin) {
        if (target.origin === PORTAL_URL) result.portalLinks.add(raw);
        continue;
      }
      target.hash = '';
      const next = target.toString();
      if (result.fetched.has(next)) continue;
      result.fetched.set(next, response.url.slice(origin.length));
      queue.push(next);
    }
  }
  return result;
}

interface Configuration {
  portalUrl: boolean;
  /** Crawled with a signed-in visitor's session cookie: the pages rendered for them. */
  signedIn: boolean;
  portal_enabled: boolean;
  knowledge_enabled: boolean;
  lang: Branding['lang'];
}

/**
 * Every combination of portal and help centre in English, and the whole crawl again in Russian where every kind of
 * link shows and where none of the portal's does (the texts differ; the links must not).
 */
const configurations: Configuration[] = [];
for (const portalUrl of [false, true])
  for (const portal_enabled of [true, false])
    for (const knowledge_enabled of [true, false])
      configurations.push({ portalUrl, signedIn: false, portal_enabled, knowledge_enabled, lang: 'en' });
for (const portalUrl of [false, true]) {
  configurations.push({
    portalUrl,
    signedIn: false,
    portal_enabled: true,
    knowledge_enabled: true,
    lang: 'ru',
  });
  for (const knowledge_enabled of [true, false])
    configurations.push({ portalUrl, signedIn: true, portal_enabled: true, knowledge_enabled, lang: 'en' });
}

const describeConfiguration = (c: Configuration) =>
  `PORTAL_URL ${c.portalUrl ? 'set' : 'unset'}, ${c.signedIn ? 'signed in' : 'signed out'}, ` +
  `portal_enabled ${c.portal_enabled}, knowledge ${c.knowledge_enabled ? 'on' : 'off'}, ${c.lang}`;

/** The portal's own pages a crawl also starts from when this server is the portal (reachable whatever links). */
const OWN_PORTAL_STARTS = [
  '/login?from=knowledge_base',
  '/issues',
  '/issues/create',
  '/user/profile',
  '/signup',
  '/request-link',
];

// The links come from the rendered pages, not from the database: like the browser journeys, the crawl runs on
// SQLite only (pages.test.ts renders pages on both databases).
describe('every link of the public pages', () => {
  const servers = new Map<boolean, { t: TestApp; origin: string; cookie: string }>();
  beforeAll(async () => {
    for (const portalUrl of [false, true]) {
      const t = await createTestApp('sqlite', portalUrl ? { PORTAL_URL } : {});
      await seedDemo(t.ctx);
      const visitor = await buildUser(t.ctx.db, { name: 'Crawling Visitor' });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: visitor.email, password: DEFAULT_PASSWORD },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      servers.set(portalUrl, {
        t,
        origin: `http://127.0.0.1:${port}`,
        cookie: `${SESSION_COOKIE}=${login.json<{ token: string }>().token}`,
      });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { t } of servers.values()) await t.close();
  });

  it.each(configurations.map((c) => [describeConfiguration(c), c] as const))(
    'leads somewhere: %s',
    async (_, configuration) => {
      const server = servers.get(configuration.portalUrl);
      if (!server) throw new Error('no server');
      const { portalUrl: _portalUrl, signedIn, ...branding } = configuration;
      await updateBranding(server.t.ctx.db, branding);
      await touchContent(server.t.ctx.db, ['branding']);

      const result = await crawl(server.origin, configuration.knowledge_enabled, {
        ...(signedIn && { cookie: server.cookie }),
        starts: configuration.portalUrl ? ['/knowledge/'] : ['/knowledge/', ...OWN_PORTAL_STARTS],
      });
      expect(result.dead).toEqual([]);
      const fetchedPaths = new Set([...result.fetched.keys()].map((a) => a.slice(server.origin.length)));
      if (!configuration.portalUrl && configuration.knowledge_enabled) {
        // The help centre's pages lead to the portal's own: sign-in or the profile, requests and a new one.
        expect(fetchedPaths).toContain('/issues');
        expect(fetchedPaths).toContain('/issues/create');
        expect(fetchedPaths).toContain(signedIn ? '/user/profile' : '/login?from=knowledge_base');
      }
      if (!configuration.portalUrl && !configuration.knowledge_enabled) {
        // The portal stands without the help centre; its links into it end on the switched-off screen.
        expect(result.pages).toBeGreaterThanOrEqual(OWN_PORTAL_STARTS.length);
        return;
      }

      if (!configuration.knowledge_enabled) {
        // Every page is the standalone not-found screen, which links nowhere.
        expect([...result.fetched.keys()].filter((a) => a.includes('/knowledge/'))).toEqual([
          `${server.origin}/knowledge/`,
          `${server.origin}/knowledge/notFound`,
        ]);
        expect(result.portalLinks).toEqual(new Set());
        return;
      }
      expect(result.pages).toBeGreaterThan(50);
      expect(result.fetched.size).toBeLessThanOrEqual(MAX_FETCHES);
      for (const link of result.portalLinks) {
        expect(PORTAL_PATHS.map((path) => `${PORTAL_URL}${path}`)).toContain(link);
      }
      // Which portal pages a signed-out visitor is offered: sign-in whenever a portal exists (the spec shows it to
      // every anonymous visitor), tickets and new requests only when the branding links the portal too.
      const expected = !configuration.portalUrl
        ? []
        : configuration.portal_enabled
          ? ['/issues', '/issues/create', signedIn ? '/user/profile' : '/login?from=knowledge_base']
          : signedIn
            ? []
            : ['/login?from=knowledge_base'];
      expect([...result.portalLinks].map((link) => link.slice(PORTAL_URL.length)).sort()).toEqual(
        expected.sort(),
      );
    },
    60_000,
  );
});
