import type { Browser, Page } from 'playwright-core';
import type { RouteObject } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../src/server/testing/factories.ts';
import { routes as adminRoutes } from '../src/web/admin/routes.tsx';
import { routes as publicRoutes } from '../src/web/routes.tsx';
import { launchBrowser, NARROW, WIDE } from './support/browser.ts';
import { sendRequest, signIn, startServer, type RunningServer } from './support/server.ts';

/*
 * Every page of the admin app, the help centre and the customer portal, at a desk's width and a phone's: nothing
 * wider than the window, the header's bar on one row (on a phone its pages fold under a menu button), and no blank
 * run to scroll into below the last thing shown. The pages are the routers' own: a route this file does not know
 * fails the test until it is given an address here.
 */

let server: RunningServer;
let browser: Browser;
let ids: { article: number; category: number; section: number; ticket: number };
const tokens = { admin: '', customer: '' };

/** What is meant to scroll sideways on a narrow screen: a wide table (the editor's too), code, the language tabs. */
const SIDEWAYS_SCROLLERS = '.table-scroll, .tableWrapper, pre, .language-tabs';

/** The admin's name, as long as a full name with a job title can be: the admin bar cuts it and keeps one row. */
const ADMIN_NAME = 'Ada Augusta Bartholomew-Montgomery, Head of Customer Support';

/** A blank run of more than this below the last text, control or image is a page scrolling into nothing. */
const BLANK_ALLOWED = 96;

/** Each route's path as its router matches it, leaves only (pages, not the layouts around them). */
function routePaths(routes: RouteObject[], base = ''): string[] {
  return routes.flatMap((route) => {
    const path = route.index
      ? base
      : route.path === undefined
        ? base
        : route.path.startsWith('/')
          ? route.path
          : `${base.replace(/\/$/, '')}/${route.path}`;
    return route.children?.length ? routePaths(route.children, path) : [path || '/'];
  });
}

type Who = 'anonymous' | 'customer' | 'admin';

interface Visit {
  /** The address under the app's base. */
  path: string;
  as: Who;
  /** Shown once the page has what it loads. */
  ready: string;
}

/** The admin app's routes (src/web/admin/routes.tsx) and the addresses that show each. */
const adminPages = (): Record<string, string[]> => ({
  '/sign-in': ['/sign-in'],
  '/': ['/'],
  '/articles/new': [`/articles/new?section=${ids.section}&category=${ids.category}`],
  '/articles/:id': [`/articles/${ids.article}`],
  '/categories/:id': [`/categories/${ids.category}`],
  '/requests': ['/requests'],
  '/requests/:id': [`/requests/${ids.ticket}`],
  '/feedback': ['/feedback'],
  '/search-report': ['/search-report'],
  '/search-tuning': ['/search-tuning'],
  '/branding': ['/branding'],
  '/users': ['/users', '/users?tab=customers'],
  '/translations': ['/translations', '/translations?lang=ru'],
  '/articles/:id/translations/:lang': [`/articles/${ids.article}/translations/ru`],
  '/categories/:id/translations/:lang': [`/categories/${ids.category}/translations/ru`],
  '/sections/:id/translations/:lang': [`/sections/${ids.section}/translations/ru`],
  '/*': ['/no-such-page'],
});

/** The public site's routes (src/web/routes.tsx: the help centre and the portal) and the addresses that show each. */
const publicPages = (): Record<string, string[]> => ({
  '/knowledge/notFound': ['/knowledge/notFound'],
  '/knowledge': ['/knowledge/'],
  '/knowledge/category/:id': [`/knowledge/category/${ids.category}`],
  '/knowledge/instruction/:id': [`/knowledge/instruction/${ids.article}`],
  '/knowledge/search': ['/knowledge/search?query=heating', '/knowledge/search?query=zzqxv'],
  '/knowledge/*': ['/knowledge/no-such-page'],
  '/login': ['/login'],
  '/signup': ['/signup'],
  '/forgot-password': ['/forgot-password'],
  '/request-link': ['/request-link'],
  '/new-password': ['/new-password#not-a-real-token'],
  '/accept-invite': ['/accept-invite#not-a-real-token'],
  '/verify-email': ['/verify-email#not-a-real-token'],
  '/issues': ['/issues'],
  '/issues/create': ['/issues/create'],
  '/issues/:id': [`/issues/${ids.ticket}`],
  '/user/profile': ['/user/profile'],
});

/** The portal's pages differ for a signed-in customer; the help centre's header does too. */
const visits = (): Visit[] => [
  ...Object.entries(adminPages()).flatMap(([route, paths]) =>
    paths.map((path): Visit => ({
      path: `/admin${path}`,
      as: route === '/sign-in' ? 'anonymous' : 'admin',
      ready: route === '/sign-in' ? 'main h1' : '#main h1',
    })),
  ),
  ...Object.values(publicPages()).flatMap((paths) =>
    paths.flatMap((path) =>
      (['anonymous', 'customer'] as const).map((as): Visit => ({ path, as, ready: 'h1' })),
    ),
  ),
];

interface Measure {
  scrollWidth: number;
  innerWidth: number;
  scrollHeight: number;
  innerHeight: number;
  contentBottom: number;
  /** What in the header's bar stands outside the row the first item is on, or outside the bar. */
  offRow: string[];
  /** Elements that scroll (or cut) sideways within themselves. */
  sideways: string[];
}

/**
 * Runs in the page. The content's bottom is that of the last visible text, control or image, cut by any ancestor
 * that scrolls or clips (a panel scrolling within itself shows nothing below its own bottom).
 */
function measure(sidewaysScrollers: string): Measure {
  const clipCache = new Map<Element, boolean>();
  const clips = (element: Element) => {
    let clipping = clipCache.get(element);
    if (clipping === undefined) {
      // overflow-x: clip leaves overflow-y visible; any other overflow-x than visible makes overflow-y clip too.
      clipping = getComputedStyle(element).overflowY !== 'visible';
      clipCache.set(element, clipping);
    }
    return clipping;
  };
  const shown = (element: Element) => {
    const box = element.getBoundingClientRect();
    return (
      box.width > 1 &&
      box.height > 1 &&
      element.checkVisibility({ visibilityProperty: true }) &&
      getComputedStyle(element).position !== 'fixed'
    );
  };
  const hasOwnText = (element: Element) =>
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
  const content = (element: Element) =>
    element.matches(
      'img, svg, input, textarea, select, button, iframe, video, canvas, hr, [contenteditable]',
    ) || hasOwnText(element);

  // At the end of the page, where what sticks to the window's bottom (an editor's actions) rests in its place.
  window.scrollTo(0, document.documentElement.scrollHeight);
  let contentBottom = 0;
  for (const element of document.body.querySelectorAll('*')) {
    if (!content(element) || !shown(element)) continue;
    let bottom = element.getBoundingClientRect().bottom;
    for (
      let parent = element.parentElement;
      parent && parent !== document.body;
      parent = parent.parentElement
    )
      if (clips(parent)) bottom = Math.min(bottom, parent.getBoundingClientRect().bottom);
    contentBottom = Math.max(contentBottom, bottom + scrollY);
  }

  window.scrollTo(0, 0);

  // A pane that scrolls within itself hides its sideways overflow from the page's width: it counts as well, but for
  // what is meant to scroll sideways (a wide table, code, a row of tabs) and what ends in an ellipsis.
  const sideways: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    if (element.scrollWidth <= element.clientWidth + 1 || !shown(element)) continue;
    if (element.matches('input, textarea, select') || element.closest(sidewaysScrollers)) continue;
    const style = getComputedStyle(element);
    if (style.overflowX === 'visible' || style.textOverflow === 'ellipsis') continue;
    sideways.push(
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} (${element.scrollWidth} px wide in ${element.clientWidth})`,
    );
  }

  const bar = document.querySelector('.admin-bar, .header-bar');
  const offRow: string[] = [];
  if (bar) {
    const barBox = bar.getBoundingClientRect();
    const items = [...bar.querySelectorAll('*')].filter(
      (element) => content(element) && shown(element) && !element.closest('[hidden]'),
    );
    const boxes = items.map((element) => ({
      name: `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"`,
      box: element.getBoundingClientRect(),
    }));
    // One row: a horizontal line crosses every item, and every item is inside the bar.
    const line = Math.min(...boxes.map(({ box }) => box.bottom));
    for (const { name, box } of boxes) {
      if (box.top >= line) offRow.push(`${name} below the first row`);
      else if (box.top < barBox.top - 1 || box.bottom > barBox.bottom + 1)
        offRow.push(`${name} cut by the bar`);
      else if (box.left < -1 || box.right > innerWidth + 1) offRow.push(`${name} beyond the window's side`);
    }
  }

  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight,
    contentBottom: Math.ceil(contentBottom),
    offRow,
    sideways,
  };
}

/** What is wrong with the page as it stands, one line a finding. */
async function findings(page: Page, label: string): Promise<string[]> {
  // A frame for the layout to settle after a change of size.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const m = await page.evaluate(measure, SIDEWAYS_SCROLLERS);
  const found: string[] = [];
  if (m.scrollWidth > m.innerWidth)
    found.push(`${label}: scrolls sideways (${m.scrollWidth} px wide in a ${m.innerWidth} px window)`);
  if (m.sideways.length > 0) found.push(`${label}: scrolls sideways within ${m.sideways.join(', ')}`);
  if (m.offRow.length > 0) found.push(`${label}: header not on one row: ${m.offRow.join('; ')}`);
  if (m.scrollHeight > Math.max(m.innerHeight, m.contentBottom + BLANK_ALLOWED))
    found.push(
      `${label}: scrolls into ${m.scrollHeight - m.contentBottom} px of blank page (content ends at ${m.contentBottom}, page is ${m.scrollHeight})`,
    );
  return found;
}

beforeAll(async () => {
  server = await startServer({ env: { CAPTCHA_PROVIDER: 'none' } });
  const admin = await buildUser(server.ctx.db, {
    email: 'ada@example.com',
    // A long name (60 characters), which the admin bar must cut rather than be pushed off its row by.
    name: ADMIN_NAME,
    role: 'admin',
  });
  const customer = await buildUser(server.ctx.db, { email: 'carla@example.com', name: 'Carla Customer' });
  tokens.admin = await signIn(server.url, admin.email);
  tokens.customer = await signIn(server.url, customer.email);
  await sendRequest(server.url, tokens.customer, customer);
  const db = server.ctx.db;
  const first = async (table: 'articles' | 'tickets') =>
    (await db.selectFrom(table).select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const longest = await db
    .selectFrom('articles')
    .select('id')
    .where('title', '=', 'Install the Lumo T2 thermostat')
    .executeTakeFirst();
  const category = await db
    .selectFrom('categories')
    .select(['id', 'section_id'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  ids = {
    article: longest?.id ?? (await first('articles')),
    category: category.id,
    section: category.section_id,
    ticket: await first('tickets'),
  };
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('every page at 1280 × 800 and 375 × 812', () => {
  it('knows an address for every route of the admin app and the public site', () => {
    expect(routePaths(adminRoutes).sort()).toEqual(Object.keys(adminPages()).sort());
    expect(routePaths(publicRoutes).sort()).toEqual(Object.keys(publicPages()).sort());
  });

  it('shows the item open in the tree, which scrolls within its pane', async () => {
    // The last section's first category: far below the pane's first screen.
    const last = await server.ctx.db
      .selectFrom('categories')
      .innerJoin('sections', 'sections.id', 'categories.section_id')
      .select('categories.id')
      .where('categories.parent_id', 'is', null)
      .orderBy('sections.position', 'desc')
      .orderBy('categories.position')
      .executeTakeFirstOrThrow();
    const context = await browser.newContext({ viewport: WIDE });
    await context.addInitScript((token) => localStorage.setItem('signpost.admin.token', token), tokens.admin);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/categories/${last.id}`);
    await page.getByRole('heading', { name: 'Edit category', level: 1 }).waitFor();
    // The admin's long name is cut in the bar (the next test finds the bar on one row), and whole in its title.
    expect(await page.locator('.admin-user-name').getAttribute('title')).toBe(ADMIN_NAME);
    const [row, pane] = await page.evaluate(() =>
      ['.tree-pane [aria-current="page"] > .tree-row', '.tree-pane'].map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom };
      }),
    );
    expect(row!.top).toBeGreaterThanOrEqual(pane!.top);
    expect(row!.bottom).toBeLessThanOrEqual(pane!.bottom);
    await context.close();
  });

  it('fits the width, keeps the header on one row and ends where the content ends', async () => {
    const pages = new Map<Who, Page>();
    for (const as of ['anonymous', 'customer', 'admin'] as const) {
      const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
      if (as === 'admin')
        await context.addInitScript(
          (token) => localStorage.setItem('signpost.admin.token', token),
          tokens.admin,
        );
      if (as === 'customer')
        await context.addInitScript((token) => localStorage.setItem('authToken', token), tokens.customer);
      pages.set(as, await context.newPage());
    }
    const found: string[] = [];
    for (const visit of visits()) {
      const page = pages.get(visit.as)!;
      await page.setViewportSize(WIDE);
      await page.goto(`${server.url}${visit.path}`);
      await page.locator(visit.ready).first().waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...(await findings(page, `${visit.path} (${visit.as}) at ${WIDE.width}`)));
      await page.setViewportSize(NARROW);
      found.push(...(await findings(page, `${visit.path} (${visit.as}) at ${NARROW.width}`)));
    }
    expect(found).toEqual([]);
  }, 120_000);
});
