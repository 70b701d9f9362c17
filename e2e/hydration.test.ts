import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { updateBranding } from '../src/server/settings/branding.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { gotoHydrated, launchBrowser, openPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

/**
 * The server renders the public pages with React, the browser hydrates them with Preact (docs/decisions.md,
 * "First-load JavaScript"), and Preact says nothing when the two disagree: it keeps the server's attributes as they
 * came and patches only what it must, so a difference shows later, when an element is rendered anew (an id that
 * `aria-controls` names and the new element does not carry). So each public page is checked three ways in a real
 * browser: the DOM the server sent, as parsed before any script ran; the same DOM once hydrated; and the page
 * rendered by the browser alone, into an emptied root, from the same router data. All three must be the same.
 */

const CUSTOMER = { email: 'hana@example.com', name: 'Hana Hydrate', password: 'long password' };

/**
 * The public page types. `waits` names what a page rightly changes after hydration, which the server cannot know:
 * there, only the hydrated page and the page the browser renders alone are compared, once both show `until`.
 */
interface PageCase {
  path: string;
  /** On a second server whose site language is Russian (the portal's pages are in the site's language). */
  russianSite?: boolean;
  signedIn?: boolean;
  notFound?: boolean;
  waits?: { why: string; until: string };
}

let server: RunningServer;
let russian: RunningServer;
let browser: Browser;
let session: string;
const cases: Record<string, PageCase> = {};

beforeAll(async () => {
  server = await startServer();
  russian = await startServer();
  await updateBranding(russian.ctx.db, { lang: 'ru' });
  browser = await launchBrowser();
  await createUser(server.ctx.db, server.ctx.passwords, { ...CUSTOMER, role: 'customer' });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: CUSTOMER.email, password: CUSTOMER.password }),
  });
  session = (await login.json()).token;
  const get = async (path: string) => (await fetch(`${server.url}${path}`)).json();
  const article = (await get('/api/knowledge/instruction')).items[0];
  const category = (await get('/api/knowledge/category')).items[0];
  // The request form can be sent once its captcha is solved in the browser.
  const formReady = '.portal-form button[type="submit"]:not([disabled])';
  const signedOut = {
    why: 'the page waits for the token in storage to be checked, then solves its captcha',
    until: formReady,
  };
  Object.assign(cases, {
    home: { path: '/knowledge/' },
    category: { path: `/knowledge/category/${category.id}` },
    article: { path: `/knowledge/instruction/${article.id}` },
    'article in Russian': { path: `/knowledge/instruction/${article.id}?lang=ru` },
    search: { path: '/knowledge/search?query=wifi' },
    'search that finds nothing': { path: '/knowledge/search?query=zzzqqq' },
    'portal sign-in': { path: '/login' },
    'portal new request': { path: '/issues/create', waits: signedOut },
    'portal new request, signed in': {
      path: '/issues/create',
      signedIn: true,
      waits: {
        why: "the form fills in the account's name and solves its captcha once hydrated",
        until: formReady,
      },
    },
    'portal requests, signed in': { path: '/issues', signedIn: true },
    'portal profile, signed in': { path: '/user/profile', signedIn: true },
    'home, site in Russian': { path: '/knowledge/', russianSite: true },
    'portal sign-in, site in Russian': { path: '/login', russianSite: true },
    'not found': { path: '/knowledge/no/such/page', notFound: true },
    'standalone not found': { path: '/knowledge/notFound', notFound: true },
  } satisfies Record<string, PageCase>);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await russian?.close();
});

/**
 * The DOM under #root as text, one node a line, with what a renderer may write differently for the same page left
 * out: comments (React's markers between texts and around Suspense), text split across nodes, empty texts, the
 * `value`/`checked`/`selected` attributes of form controls (React writes them, Preact sets the properties, which are
 * compared instead), and `style` as the browser reads it back. Runs in the page, so it takes no outside names.
 */
function canonicalDom(): string {
  const lines: string[] = [];
  const controls = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'OPTION']);
  const walk = (parent: Node, depth: number) => {
    let text = '';
    const flush = () => {
      if (text) lines.push(`${'  '.repeat(depth)}"${text}"`);
      text = '';
    };
    for (const node of parent.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) text += (node as Text).data;
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      flush();
      const element = node as HTMLElement;
      const control = controls.has(element.tagName);
      const attributes = [...element.attributes]
        .filter((a) => !(control && ['value', 'checked', 'selected'].includes(a.name)))
        .map((a) => (a.name === 'style' ? `style="${element.style.cssText}"` : `${a.name}="${a.value}"`))
        .sort();
      if (control) {
        const field = element as HTMLInputElement & HTMLOptionElement;
        attributes.push(`.value="${field.value}"`);
        if (element.tagName === 'INPUT') attributes.push(`.checked=${field.checked}`);
        if (element.tagName === 'OPTION') attributes.push(`.selected=${field.selected}`);
      }
      lines.push(`${'  '.repeat(depth)}<${element.localName} ${attributes.join(' ')}>`);
      // A textarea's text is its value, compared above.
      if (element.tagName !== 'TEXTAREA') walk(element, depth + 1);
    }
    flush();
  };
  walk(document.getElementById('root')!, 0);
  return lines.join('\n');
}

/**
 * Opens the page with an init script that, once the HTML is parsed and before the module scripts run (the document
 * turns `interactive` first), keeps the server's DOM as text and, when `empty`, removes it from the root; then waits
 * for hydration (and for `until`, when given).
 */
async function load(
  page: Page,
  url: string,
  empty: boolean,
  until?: string,
): Promise<{ server: string; browser: string }> {
  // As source text, not a function made from a string in the page: the page's Content-Security-Policy allows no eval.
  await page.addInitScript({
    content: `(() => {
      const canonicalDom = ${canonicalDom.toString()};
      window.canonicalDom = canonicalDom;
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        window.serverDom = canonicalDom();
        if (${empty}) document.getElementById('root').replaceChildren();
      });
    })();`,
  });
  await gotoHydrated(page, url);
  if (until) await page.waitForSelector(until);
  // Effects the first render scheduled have run by the next frame and the task after it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  return page.evaluate(() => {
    const w = window as unknown as { serverDom: string; canonicalDom: () => string };
    return { server: w.serverDom, browser: w.canonicalDom() };
  });
}

describe('hydration', () => {
  const names = [
    'home',
    'category',
    'article',
    'article in Russian',
    'search',
    'search that finds nothing',
    'portal sign-in',
    'portal new request',
    'portal new request, signed in',
    'portal requests, signed in',
    'portal profile, signed in',
    'home, site in Russian',
    'portal sign-in, site in Russian',
    'not found',
    'standalone not found',
  ];

  const open = async (page: PageCase, empty: boolean) => {
    const probe = await openPage(browser);
    if (page.signedIn)
      await probe.context.addCookies([{ name: SESSION_COOKIE, value: session, url: server.url }]);
    const origin = (page.russianSite ? russian : server).url;
    const dom = await load(probe.page, `${origin}${page.path}`, empty, page.waits?.until);
    // The not-found pages answer 404, which the browser reports for the document itself.
    const problems = probe.problems.filter(
      (problem) => !(page.notFound && problem.includes('status of 404 (Not Found)')),
    );
    await probe.context.close();
    return { ...dom, problems };
  };

  it.each(names)(
    'leaves the %s page as the server sent it, and the browser alone renders the same',
    async (name) => {
      const page = cases[name]!;
      const hydrated = await open(page, false);
      expect(hydrated.server).toContain('<main ');
      if (!page.waits) expect(hydrated.browser).toBe(hydrated.server);
      expect(hydrated.problems).toEqual([]);

      const alone = await open(page, true);
      expect(alone.server).toBe(hydrated.server);
      expect(alone.browser).toBe(hydrated.browser);
      expect(alone.problems).toEqual([]);
    },
  );
});
