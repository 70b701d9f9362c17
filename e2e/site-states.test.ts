import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../src/server/features/content-folder/import-folder.ts';
import { updateBranding } from '../src/server/settings/branding.ts';
import { writeFolder } from '../src/server/testing/folder.ts';
import { DEFAULT_TITLES } from '../src/shared/default-titles.ts';
import { createTranslator } from '../src/web/i18n/i18n.tsx';
import { ru } from '../src/web/i18n/ru.ts';
import { sk } from '../src/web/i18n/sk.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function axeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A portal to link to, so the header, menu and hints show every link they can. */
const PORTAL = { PORTAL_URL: 'https://portal.example.com' };

describe('accessibility', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: PORTAL });
  });
  afterAll(async () => server?.close());

  it.each([
    ['wide', WIDE],
    ['narrow', NARROW],
  ])('axe finds no violations on any screen, %s', async (_name, viewport) => {
    const categories = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items;
    const articles = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items;
    const withFiles = categories.find((c: { count_instruction: number }) => c.count_instruction > 1);
    const pages = [
      '/knowledge/',
      `/knowledge/category/${withFiles.id}`,
      `/knowledge/instruction/${articles[0].id}`,
      '/knowledge/search?query=heating',
      '/knowledge/search?query=zzqxv',
      '/knowledge/no-such-page',
    ];
    const { page, context, problems } = await openPage(browser, { viewport });
    const found: string[] = [];
    for (const path of pages) {
      await gotoHydrated(page, `${server.url}${path}`);
      found.push(...(await axeViolations(page)).map((v) => `${path} ${v}`));
    }
    // The not-found page answers 404, which the browser reports on its console; nothing else may.
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('status of 404')));
    // The open search dropdown and the open burger menu are screens of their own.
    await page.getByRole('combobox').fill('thermostat');
    await page.getByRole('option').first().waitFor();
    found.push(...(await axeViolations(page)).map((v) => `dropdown ${v}`));
    if (viewport === NARROW) {
      await page.getByRole('combobox').press('Escape');
      await page.getByRole('button', { name: 'Menu' }).click();
      found.push(...(await axeViolations(page)).map((v) => `menu ${v}`));
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works with the keyboard alone, with a visible focus', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).toBe('solid');
    // Tab through to the first category tile and open it with Enter.
    let reached = '';
    for (let i = 0; i < 30 && !reached.startsWith('tile'); i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => (document.activeElement as HTMLElement).className);
    }
    expect(reached).toBe('tile-link');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/category\/\d+/);
    await context.close();
  });
});

describe('languages', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: PORTAL });
  });
  afterAll(async () => server?.close());

  it.each([
    ['ru', ru],
    ['sk', sk],
  ] as const)('speaks %s, with that language’s plural forms', async (lang, messages) => {
    // No titles set: the heading and the tab's title are the interface's own, in the site's language.
    await updateBranding(server.ctx.db, { lang, knowledge_title: '', site_title: '' });
    const t = createTranslator(lang);
    const { page, context, problems } = await openPage(browser);
    // A visitor who reads the site's language (the demo is in others too: one who reads those is sent to them).
    await page.setExtraHTTPHeaders({ 'accept-language': lang });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.locator('h1.hero-title').innerText()).toBe(DEFAULT_TITLES[lang].knowledge_title);
    expect(await page.title()).toBe(DEFAULT_TITLES[lang].site_title);
    expect(await page.getByRole('combobox').getAttribute('placeholder')).toBe(messages.searchPlaceholder);
    expect(await page.locator('.nav-wide').innerText()).toContain(messages.signIn);
    const categories = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items as {
      name: string;
      count_instruction: number;
      parent_id: number | null;
      count_category: number;
    }[];
    const tile = categories.find(
      (c) => c.parent_id === null && c.count_category === 0 && c.count_instruction >= 2,
    );
    expect(tile).toBeDefined();
    const counts = await page.locator('.tile', { hasText: tile?.name }).locator('.tile-counts').innerText();
    expect(counts).toBe(t('articleCount', { count: tile?.count_instruction ?? 0 }));
    await gotoHydrated(page, `${server.url}/knowledge/search?query=zzqxv`);
    expect(await page.locator('main h1').innerText()).toBe(messages.noResultsTitle);
    expect(problems).toEqual([]);
    await gotoHydrated(page, `${server.url}/knowledge/missing`);
    expect(await page.locator('main h1').innerText()).toBe(messages.pageNotFound);
    await context.close();
  });
});

describe('branding and the states of the knowledge base', () => {
  it('shows the empty-knowledge-base message when nothing is published', async () => {
    const server = await startServer({ demo: false });
    try {
      const html = await (await fetch(`${server.url}/knowledge/`)).text();
      expect(html).toContain('There are currently no articles in the knowledge base');
    } finally {
      await server.close();
    }
  });

  it('follows branding: logo, background, titles; and sends every page to notFound when knowledge is off', async () => {
    const server = await startServer();
    try {
      await updateBranding(server.ctx.db, {
        logo_url: '/files/1/logo.png',
        background_url: 'https://cdn.example.com/bg.jpg',
        knowledge_title: 'Ask Lumo',
        site_title: 'Lumo Support',
      });
      const { page, context } = await openPage(browser);
      await page.route('https://cdn.example.com/**', (route) => route.fulfill({ status: 204 }));
      await gotoHydrated(page, `${server.url}/knowledge/`);
      expect(await page.title()).toBe('Lumo Support');
      expect(await page.locator('.hero-title').innerText()).toBe('Ask Lumo');
      expect(await page.locator('img.logo').getAttribute('src')).toBe('/files/1/logo.png');
      expect(await page.locator('.site-header').getAttribute('style')).toContain(
        'https://cdn.example.com/bg.jpg',
      );

      await updateBranding(server.ctx.db, { knowledge_enabled: false });
      for (const path of ['/knowledge/', '/knowledge/category/1', '/knowledge/search?query=a']) {
        const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
        expect(response.status, path).toBe(302);
        expect(response.headers.get('location')).toBe('/knowledge/notFound');
      }
      await page.goto(`${server.url}/knowledge/`);
      expect(page.url()).toBe(`${server.url}/knowledge/notFound`);
      expect(await page.locator('h1').innerText()).toBe('Page not found');
      expect(await page.locator('a, button').count()).toBe(0);
      await context.close();
    } finally {
      await server.close();
    }
  });

  it('hides the make-request hint on home when an article offers the request form, and shows it elsewhere', async () => {
    const server = await startServer({ env: PORTAL });
    try {
      const home = await (await fetch(`${server.url}/knowledge/`)).text();
      expect(home).not.toContain('class="request-hint"');
      const search = await (await fetch(`${server.url}/knowledge/search?query=a`)).text();
      expect(search).toContain(
        '<aside class="request-hint" aria-label="Make a request"><span>Did not find the answer?</span> <a href="https://portal.example.com/issues/create">',
      );
      await updateBranding(server.ctx.db, { portal_enabled: false });
      const off = await (await fetch(`${server.url}/knowledge/search?query=a`)).text();
      expect(off).not.toContain('class="request-hint"');
      expect(off).not.toContain('/issues');
    } finally {
      await server.close();
    }
  });

  it('shows the loading state, then the error state when the data of a page cannot be loaded', async () => {
    const server = await startServer();
    try {
      const { page, context } = await openPage(browser);
      await gotoHydrated(page, `${server.url}/knowledge/`);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/knowledge/category?*', async (route) => {
        await held;
        await route.fulfill({ status: 500, body: '{}' });
      });
      await page.locator('.tile-link').first().click();
      // While the page's data is on its way, a spinner says so.
      await page.locator('.page-loading [role="status"]').waitFor();
      expect(await page.locator('.page-loading').innerText()).toBe('Loading');
      release();
      await expect.poll(() => page.locator('main').innerText()).toContain('An error has occured');
      await context.close();
    } finally {
      await server.close();
    }
  });
});

describe('without JavaScript', () => {
  it('reads and moves through the help centre with plain links and the search form', async () => {
    const server = await startServer();
    try {
      const { page, context } = await openPage(browser, { javaScriptEnabled: false });
      await page.goto(`${server.url}/knowledge/`);
      await page.locator('.tile-link').first().click();
      await page.waitForURL(/\/category\/\d+/);
      await page.locator('.article-item a').first().click();
      await page.waitForURL(/\/instruction\/\d+/);
      expect((await page.locator('.rich-text').innerText()).length).toBeGreaterThan(100);
      expect(await page.locator('.trail li').count()).toBeGreaterThanOrEqual(3);
      await page.getByRole('combobox').fill('heating');
      await page.getByRole('combobox').press('Enter');
      await page.waitForURL(/\/search\?query=heating/);
      expect(await page.locator('main h1').innerText()).toContain('heating');
      await context.close();
    } finally {
      await server.close();
    }
  });
});

describe('infinite scroll', () => {
  it('loads the next page of subcategories (30 a page) and articles (100 a page) at the bottom', async () => {
    const files: Record<string, string> = { 'big/_section.md': '---\nname: Big\n---\n' };
    files['big/many/_category.md'] = '---\nname: Many\nposition: 1\n---\n';
    for (let i = 1; i <= 35; i++) {
      files[`big/many/sub-${String(i).padStart(2, '0')}/a.md`] = `---\ntitle: Sub ${i} article\n---\nText.\n`;
    }
    for (let i = 1; i <= 105; i++) {
      files[`big/many/article-${String(i).padStart(3, '0')}.md`] =
        `---\ntitle: Article ${i}\nposition: ${i}\n---\nBody ${i}.\n`;
    }
    files['big/other/x.md'] = '---\ntitle: Other\n---\nx\n';
    const server = await startServer({ demo: false });
    try {
      await importFolder(server.ctx, writeFolder(files));
      const many = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items.find(
        (c: { name: string }) => c.name === 'Many',
      );
      const { page, context } = await openPage(browser);
      await gotoHydrated(page, `${server.url}/knowledge/category/${many.id}`);
      const tiles = page.locator('.categories-box .tile');
      const articles = page.locator('.articles-box .article-item');
      expect(await tiles.count()).toBe(30);
      expect(await articles.count()).toBe(100);
      await page.locator('.categories-box .list-end').scrollIntoViewIfNeeded();
      await expect.poll(() => tiles.count()).toBe(35);
      await page.locator('.articles-box .list-end').scrollIntoViewIfNeeded();
      await expect.poll(() => articles.count()).toBe(105);
      expect(await page.locator('.show-more').count()).toBe(0);
      await context.close();
    } finally {
      await server.close();
    }
  });
});
