import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, InstructionSummary, Section } from '../src/shared/api/knowledge.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';

/** The customer portal the public site links to; nothing is fetched from it. */
const PORTAL_URL = 'https://portal.example.com';

let server: RunningServer;
let browser: Browser;
let sections: Section[];
let categories: Category[];
let articles: InstructionSummary[];

beforeAll(async () => {
  server = await startServer({ env: { PORTAL_URL } });
  browser = await launchBrowser();
  sections = await (await fetch(`${server.url}/api/knowledge/all-sections`)).json();
  categories = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items;
  articles = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const categoryNamed = (name: string) => {
  const found = categories.find((c) => c.name === name);
  if (!found) throw new Error(`no category ${name}`);
  return found;
};
const articleWithFiles = async () => {
  for (const article of articles) {
    const full = await (await fetch(`${server.url}/api/knowledge/instruction/${article.id}`)).json();
    if (full.files.length > 0 && full.category_id !== null) return full;
  }
  throw new Error('no article with files');
};

describe('pages arrive as complete HTML', () => {
  it('renders home, category, article and search on the server, without JavaScript', async () => {
    const home = await fetch(`${server.url}/knowledge/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<title>Lumo Help Centre</title>');
    for (const section of sections) expect(html).toContain(section.name);
    expect(html).not.toContain('Internal notes');

    const article = await articleWithFiles();
    const page = await (await fetch(`${server.url}/knowledge/instruction/${article.id}`)).text();
    expect(page).toContain(`<h1>${article.title.replace(/&/g, '&amp;')}</h1>`);
    expect(page).toMatch(/<meta name="description" content="[^"]{20,}">/);
    expect(page).toContain(article.files[0].original_name);
    expect(page).toContain('aria-label="Breadcrumbs"');

    const search = await (await fetch(`${server.url}/knowledge/search?query=wifi`)).text();
    expect(search).toContain('Search results for “wifi”');
  });

  it('answers 404 for unknown pages and sends paths outside /knowledge to its not-found page', async () => {
    const unknown = await fetch(`${server.url}/knowledge/no/such/page`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Page not found');

    const outside = await fetch(`${server.url}/wp-admin`, { redirect: 'manual' });
    expect(outside.status).toBe(302);
    expect(outside.headers.get('location')).toBe('/knowledge/404');
    const notFound = await fetch(`${server.url}/knowledge/404`);
    expect(notFound.status).toBe(404);

    const missingArticle = await fetch(`${server.url}/knowledge/instruction/999999`, { redirect: 'manual' });
    expect(missingArticle.status).toBe(302);
    expect(missingArticle.headers.get('location')).toBe('/knowledge/404');

    const api = await fetch(`${server.url}/api/nothing`);
    expect(api.status).toBe(404);
    expect((await api.json()).code).toBe('not_found');
  });

  it('serves hashed assets with immutable caching and precompressed bodies', async () => {
    const html = await (await fetch(`${server.url}/knowledge/`)).text();
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-encoding')).toBe('br');
  });
});

describe('in the browser', () => {
  it('hydrates without warnings and navigates home → category → article in the browser', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    const tile = page.locator('.tile-link').first();
    const tileName = await tile.locator('.tile-name').innerText();
    await tile.click();
    await page.waitForURL(/\/knowledge\/category\/\d+/);
    await expect.poll(() => page.locator('main h1').innerText()).toBe(tileName);
    await page.locator('.article-item a').first().click();
    await page.waitForURL(/\/knowledge\/instruction\/\d+/);
    expect(await page.locator('.trail').innerText()).toContain(tileName);
    await expect.poll(() => page.locator('.sidebar strong[aria-current="page"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('follows a chain of single categories to its end (the auto-redirect)', async () => {
    const { page, context } = await openPage(browser);
    const platforms = categoryNamed('Platforms');
    await gotoHydrated(page, `${server.url}/knowledge/category/${platforms.id}`);
    const alexa = categories.find((c) => c.parent_id === categoryNamed('Voice assistants').id);
    expect(page.url()).toBe(`${server.url}/knowledge/category/${alexa?.id}`);
    expect(await page.locator('.trail').innerText()).toMatch(/Platforms[\s\S]*Voice assistants/);
    await context.close();
  });

  it('lists files with sizes in KB that open in a new tab, and bolds the current article', async () => {
    const article = await articleWithFiles();
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${article.id}`);
    const link = page.locator('.files a').first();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toBe(article.files[0].link);
    expect(await page.locator('.files .file-size').first().innerText()).toBe(
      `${Math.round(article.files[0].file_size / 1024)} KB`,
    );
    expect(await page.locator('.sidebar [aria-current="page"]').innerText()).toBe(article.title);
    await context.close();
  });

  it('suggests as you type, moves with the arrows and opens the chosen article with Enter', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/`);
    const input = page.getByRole('combobox');
    await input.fill('heating');
    expect(await page.evaluate(() => localStorage.getItem('query'))).toBe('heating');
    await page.getByRole('option').first().waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('[aria-live="polite"]').innerText()).toMatch(/articles? found/);
    const second = await page.getByRole('option').nth(1).innerText();
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    expect(await page.getByRole('option', { selected: true }).innerText()).toBe(second);
    await input.press('Enter');
    await page.waitForURL(/\/instruction\/\d+/);
    await expect.poll(() => page.locator('main h1').innerText()).toBe(second);
    await context.close();
  });

  it('restores the stored query when /search is visited without one, and shows its results', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/category/${categories[0]?.id}`);
    await page.getByRole('combobox').fill('thermostat');
    await page.getByRole('option').first().waitFor();
    await gotoHydrated(page, `${server.url}/knowledge/search`);
    await page.waitForURL(/\/knowledge\/search\?query=thermostat$/);
    await expect.poll(() => page.locator('main h1').innerText()).toContain('thermostat');
    expect(await page.getByRole('combobox').inputValue()).toBe('thermostat');
    await context.close();
  });

  it('closes on Escape and outside clicks, searches on Enter, clears to home, and prompts on empty search', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/category/${categories[0]?.id}`);
    const input = page.getByRole('combobox');
    await input.fill('thermostat');
    await page.getByRole('option').first().waitFor();
    await input.press('Escape');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    // The typed query stays (Chromium clears a search field on Escape by itself), also on a second Escape.
    expect(await input.inputValue()).toBe('thermostat');
    await input.press('Escape');
    expect(await input.inputValue()).toBe('thermostat');
    await input.fill('thermostats');
    await page.getByRole('option').first().waitFor();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await input.focus();
    await input.press('Enter');
    await page.waitForURL(/\/search\?query=thermostats/);
    await expect.poll(() => page.locator('main h1').innerText()).toContain('thermostats');
    // Each result shows the matching text with the matched words highlighted.
    expect(await page.locator('.snippet mark').count()).toBeGreaterThan(0);
    expect(await page.locator('.search-group h2').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await page.waitForURL(/\/knowledge\/?$/);
    expect(await input.inputValue()).toBe('');
    await input.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('Enter a request');
    await context.close();
  });

  it('shows the no-results text and a make-request button to the portal', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/search?query=zzqxv`);
    expect(await page.locator('main h1').innerText()).toBe('No results found');
    expect(await page.locator('.no-results').innerText()).toContain('There is no answer to your question');
    expect(await page.locator('.no-results a').getAttribute('href')).toBe(`${PORTAL_URL}/issues/create`);
    expect(await page.locator('.request-hint a').getAttribute('href')).toBe(`${PORTAL_URL}/issues/create`);
    await context.close();
  });

  it('puts the navigation in a burger menu below 720 px and stops the page scrolling while it is open', async () => {
    const { page, context } = await openPage(browser, { viewport: NARROW });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    expect(await page.locator('.nav-wide').isVisible()).toBe(false);
    const burger = page.getByRole('button', { name: 'Menu' });
    await burger.click();
    const menu = page.locator('.nav-narrow');
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.innerText()).toMatch(/Main[\s\S]*Tickets[\s\S]*Make a request[\s\S]*Sign in/);
    expect(await menu.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/knowledge/',
      `${PORTAL_URL}/issues`,
      `${PORTAL_URL}/issues/create`,
      `${PORTAL_URL}/login?from=knowledge_base`,
    ]);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    await page.getByRole('button', { name: 'Close menu' }).click();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    await context.close();
  });

  it('shows the signed-in visitor by the token in storage, and exit forgets it', async () => {
    await server.ctx.db.deleteFrom('users').execute();
    const { createUser } = await import('../src/server/accounts/accounts.service.ts');
    await createUser(server.ctx.db, server.ctx.passwords, {
      email: 'vera@example.com',
      name: 'Vera Visitor',
      password: 'long password',
      role: 'customer',
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'vera@example.com', password: 'long password' }),
    });
    const { token } = await login.json();
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/`);
    expect(await page.locator('.nav-wide').innerText()).toContain('Sign in');
    expect(await page.getByRole('link', { name: 'Sign in' }).first().getAttribute('href')).toBe(
      `${PORTAL_URL}/login?from=knowledge_base`,
    );
    await page.evaluate((value) => sessionStorage.setItem('authToken', value), token);
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/user/me'));
    await page.reload();
    expect((await sent).headers()['x-auth-token']).toBe(token);
    await expect.poll(() => page.locator('.nav-wide').innerText()).toContain('Vera Visitor');
    expect(await page.locator('.nav-wide a.nav-user').getAttribute('href')).toBe(
      `${PORTAL_URL}/user/profile`,
    );
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Exit' }).click()]);
    expect(
      await page.evaluate(() => [localStorage.getItem('authToken'), sessionStorage.getItem('authToken')]),
    ).toEqual([null, null]);
    expect(await page.locator('.nav-wide').innerText()).toContain('Sign in');
    await context.close();
  });

  it('remembers megapolName and megapolEmail from any page', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(
      page,
      `${server.url}/knowledge/search?query=x&megapolName=Ann%20Lee&megapolEmail=ann%40example.com`,
    );
    await expect.poll(() => page.evaluate(() => localStorage.getItem('megapolName'))).toBe('Ann Lee');
    expect(await page.evaluate(() => localStorage.getItem('megapolEmail'))).toBe('ann@example.com');
    await context.close();
  });
});

describe('without a portal address: Signpost is the portal', () => {
  let own: RunningServer;
  beforeAll(async () => {
    own = await startServer();
  });
  afterAll(async () => own?.close());

  /** The links of a part of the page, by text and address; each address must answer a page. */
  const linksOf = async (page: Page, selector: string) =>
    page
      .locator(`${selector} a`)
      .evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
  const expectServed = async (href: string) => {
    const response = await fetch(`${own.url}${href}`, { redirect: 'manual' });
    expect(response.status, href).toBe(200);
  };

  it("links the portal's own pages, which it serves: tickets, new request, sign-in, profile", async () => {
    await own.ctx.db.deleteFrom('users').execute();
    const { createUser } = await import('../src/server/accounts/accounts.service.ts');
    await createUser(own.ctx.db, own.ctx.passwords, {
      email: 'vera@example.com',
      name: 'Vera Visitor',
      password: 'long password',
      role: 'customer',
    });
    const login = await fetch(`${own.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'vera@example.com', password: 'long password' }),
    });
    const { token } = await login.json();

    const wide = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(wide.page, `${own.url}/knowledge/search?query=zzqxv`);
    expect(await wide.page.locator('main h1').innerText()).toBe('No results found');
    expect(await wide.page.locator('.no-results a').getAttribute('href')).toBe('/issues/create');
    expect(await wide.page.locator('.request-hint a').getAttribute('href')).toBe('/issues/create');
    expect(await linksOf(wide.page, '.nav-wide')).toEqual([
      ['Main', '/knowledge/'],
      ['Tickets', '/issues'],
      ['Sign in', '/login?from=knowledge_base'],
    ]);
    for (const href of ['/issues/create', '/issues', '/login?from=knowledge_base']) await expectServed(href);
    // Signed in, the name links to the profile, beside the way out.
    await wide.page.evaluate((value) => localStorage.setItem('authToken', value), token);
    await wide.page.reload();
    await expect
      .poll(() => wide.page.locator('.nav-wide').innerText())
      .toMatch(/Main\s+Tickets\s+Vera Visitor\s+Exit/);
    expect(await wide.page.locator('.nav-wide a.nav-user').getAttribute('href')).toBe('/user/profile');
    await expectServed('/user/profile');
    expect(wide.problems).toEqual([]);
    await wide.context.close();

    // On a phone the menu holds the same links.
    const narrow = await openPage(browser, { viewport: NARROW });
    await gotoHydrated(narrow.page, `${own.url}/knowledge/`);
    expect(await narrow.page.locator('.logo-link').getAttribute('href')).toBe('/knowledge/');
    await narrow.page.getByRole('button', { name: 'Menu' }).click();
    expect(await linksOf(narrow.page, '.nav-narrow')).toEqual([
      ['Main', '/knowledge/'],
      ['Tickets', '/issues'],
      ['Make a request', '/issues/create'],
      ['Sign in', '/login?from=knowledge_base'],
    ]);
    expect(narrow.problems).toEqual([]);
    await narrow.context.close();
  });

  it('signs out a visitor known by the session cookie alone, whose token is not in the browser storage', async () => {
    const { createUser } = await import('../src/server/accounts/accounts.service.ts');
    await createUser(own.ctx.db, own.ctx.passwords, {
      email: 'cora@example.com',
      name: 'Cora Cookie',
      password: 'long password',
      role: 'customer',
    });
    const login = await fetch(`${own.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cora@example.com', password: 'long password' }),
    });
    const { token } = await login.json();
    const probe = await openPage(browser);
    await probe.context.addCookies([{ name: SESSION_COOKIE, value: token, url: own.url }]);
    await gotoHydrated(probe.page, `${own.url}/knowledge/`);
    // Rendered for her on the server, from the cookie.
    expect(await probe.page.locator('.nav-wide').innerText()).toContain('Cora Cookie');
    await Promise.all([
      probe.page.waitForEvent('load'),
      probe.page.getByRole('button', { name: 'Exit' }).click(),
    ]);
    await expect.poll(() => probe.page.locator('.nav-wide').innerText()).toContain('Sign in');
    expect((await probe.context.cookies()).filter((c) => c.name === SESSION_COOKIE)).toEqual([]);
    expect((await fetch(`${own.url}/api/user/me`, { headers: { 'x-auth-token': token } })).status).toBe(401);
    await probe.context.close();
  });
});
