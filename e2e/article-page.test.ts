import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstructionSummary } from '../src/shared/api/knowledge.ts';
import { buildArticle, buildCategory, buildSection } from '../src/server/testing/factories.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let articles: InstructionSummary[];
/** PUBLIC_URL: the address links are copied with, whatever host the page was opened on. */
let origin: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  articles = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items;
  origin = (await (await fetch(`${server.url}/panel/api/v2/system/environments`)).json()).knowledge_portal;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const articleTitled = (title: string) => {
  const found = articles.find((a) => a.title === title);
  if (!found) throw new Error(`no article ${title}`);
  return found;
};

describe.each([
  ['wide', WIDE],
  ['narrow', NARROW],
] as const)('a long article, %s', (_name, viewport) => {
  it('shows when it changed, its contents, links to it and its headings, and its neighbours', async () => {
    const article = articleTitled('Install the Lumo T2 thermostat');
    const { page, context, problems } = await openPage(browser, { viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${article.id}`);

    const meta = page.locator('.article-meta');
    await expect.poll(() => meta.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await meta.innerText()).toMatch(/Updated \w+ \d{1,2}, \d{4}/);
    expect(await meta.innerText()).toMatch(/\d+ min read/);

    // 'Copy URL' puts the article's public address on the clipboard and says so.
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await expect.poll(() => page.locator('.toast').innerText()).toBe('Link copied');
    const articleUrl = `${origin}/knowledge/instruction/${article.id}`;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(articleUrl);

    // The table of contents: beside the text on a wide screen, folded above it on a phone.
    const toc = viewport === WIDE ? page.locator('nav.toc-side') : page.locator('nav.toc-top');
    await expect.poll(() => toc.isVisible()).toBe(true);
    if (viewport === NARROW) {
      expect(await page.locator('nav.toc-side').isVisible()).toBe(false);
      await toc.locator('summary').click();
    } else expect(await page.locator('nav.toc-top').isVisible()).toBe(false);
    const entry = toc.getByRole('link', { name: 'Step 4: Fit the back plate' });
    await entry.click();
    await expect
      .poll(() => page.evaluate(() => location.hash))
      .toBe('#user-content-step-4-fit-the-back-plate');
    const heading = page.locator('h2#user-content-step-4-fit-the-back-plate');
    await expect
      .poll(() => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top)))
      .toBeLessThan(80);
    if (viewport === WIDE) {
      // Sticky: still on screen once the reader is far down the article.
      expect(await toc.evaluate((nav) => nav.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
      expect(await toc.evaluate((nav) => nav.getBoundingClientRect().top)).toBeLessThan(100);
    }

    // Each heading's anchor copies the link to that heading.
    await heading.hover();
    await heading.getByRole('link', { name: 'Copy link to “Step 4: Fit the back plate”' }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(`${articleUrl}#user-content-step-4-fit-the-back-plate`);

    // A wide table scrolls in its own box on a phone, and the page itself does not.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(await page.locator('.rich-text .table-scroll').count()).toBeGreaterThan(0);

    // The next article of its category, and related ones found by its title.
    const pager = page.getByRole('navigation', { name: 'More in this category' });
    const next = pager.locator('a[rel="next"]');
    expect(await next.count()).toBe(1);
    expect(await page.locator('.related li').count()).toBeGreaterThan(0);
    expect(await page.locator('.related a').allInnerTexts()).not.toContain(article.title);

    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    const nextTitle = await next.locator('.pager-title').innerText();
    await next.click();
    await expect.poll(() => page.locator('main h1, h1').first().innerText()).toBe(nextTitle);
    expect(await pager.locator('a[rel="prev"] .pager-title').innerText()).toBe(article.title);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the sidebar of an article alone in its category, in a section of many', () => {
  it("lists the section's articles around it, itself in bold, and links to the section", async () => {
    const { db } = server.ctx;
    const section = await buildSection(db, { name: 'Many', position: 99 });
    for (let i = 0; i < 24; i++)
      await buildArticle(db, { section_id: section.id, title: `Many ${i}`, position: i });
    const nook = await buildCategory(db, { section_id: section.id, name: 'Nook', position: 1 });
    const alone = await buildArticle(db, { category_id: nook.id, title: 'Alone in the nook', position: 30 });
    const { page, context, problems } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${alone.id}`);
    const sidebar = page.locator('.sidebar');
    expect(await sidebar.getByRole('heading', { name: 'Articles in this section' }).count()).toBe(1);
    // The last 20 of the section, by position: the article last, in bold.
    expect(await sidebar.locator('.article-list li').allInnerTexts()).toEqual([
      ...Array.from({ length: 19 }, (_, i) => `Many ${i + 5}`),
      'Alone in the nook',
    ]);
    expect(await sidebar.locator('strong[aria-current="page"]').innerText()).toBe('Alone in the nook');
    // Named after the section, as its heading on the home page is; no count, as that page lists the section's loose
    // articles and its categories' tiles, not the 25 articles.
    const all = sidebar.getByRole('link', { name: 'All articles in Many', exact: true });
    expect(await all.getAttribute('href')).toBe(`/knowledge/#section-${section.id}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a printed article', () => {
  it('is its title, text and files, without the site around it', async () => {
    const article = articleTitled('Install the Lumo T2 thermostat');
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${article.id}`);
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['.site-header', '.sidebar', '.trail', '.copy-url', '.article-pager', '.related'])
      expect(await page.locator(selector).first().isVisible(), selector).toBe(false);
    expect(await page.locator('h1').isVisible()).toBe(true);
    expect(await page.locator('.file-list').isVisible()).toBe(true);
    await context.close();
  });
});

describe('what a search engine reads in the browser', () => {
  it('finds the structured data of an article well formed', async () => {
    const article = articleTitled('Install the Lumo T2 thermostat');
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/knowledge/instruction/${article.id}`);
    const blocks = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) =>
        scripts.map((s) => JSON.parse(s.textContent ?? '') as Record<string, unknown>),
      );
    expect(blocks.map((b) => b['@type'])).toEqual(['Article', 'BreadcrumbList']);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${origin}/knowledge/instruction/${article.id}`,
    );
    await context.close();
  });
});
