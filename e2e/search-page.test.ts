import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

/** The customer portal the no-results button leads to; nothing is fetched from it. */
const PORTAL_URL = 'https://portal.example.com';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { PORTAL_URL } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function expectNoAxeViolations(page: Page, screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

const resultCount = async (text: string) => {
  const url = `${server.url}/api/search/knowledge/suggestions?text=${text}&limit=50&perPage=50`;
  return ((await (await fetch(url)).json()).items as unknown[]).length;
};
const results = (page: Page) => page.locator('.search-results > li');
const focusedResult = (page: Page) => page.evaluate(() => document.activeElement?.closest('li')?.id ?? null);

describe.each([
  ['wide', WIDE],
  ['narrow', NARROW],
])('the search results page, %s', (screen, viewport) => {
  it('counts the results, highlights the matched words, and shows ten more at a time', async () => {
    const total = await resultCount('schedule');
    expect(total).toBeGreaterThan(20);
    const { page, context, problems } = await openPage(browser, { viewport });
    await gotoHydrated(page, `${server.url}/knowledge/search?query=schedule`);
    expect(await page.locator('main h1').innerText()).toBe(`${total} results for “schedule”`);
    expect(await results(page).count()).toBe(10);
    expect(await page.locator('.search-group h2').count()).toBeGreaterThan(1);
    // Each result has its snippet, and the snippets mark the matched words.
    expect(await page.locator('.search-results .snippet').count()).toBe(10);
    expect(
      (await page.locator('.snippet mark').allInnerTexts()).every((word) => /^schedul/i.test(word)),
    ).toBe(true);
    expect(await page.locator('.snippet mark').count()).toBeGreaterThanOrEqual(10);
    expect(await page.locator('.search-more-count').innerText()).toBe(`Showing 10 of ${total}`);
    await expectNoAxeViolations(page, `${screen} first page`);

    // By keyboard: Enter on "Show more" adds ten below and moves the focus to the first of them.
    const firstTen = await results(page).locator('a').allInnerTexts();
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/search/knowledge/suggestions')) calls.push(request.url());
    });
    await page.getByRole('link', { name: 'Show more' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]page=2/);
    await page.waitForFunction(() => document.querySelectorAll('.search-results > li').length === 20);
    expect(await focusedResult(page)).toBe('result-11');
    expect((await results(page).locator('a').allInnerTexts()).slice(0, 10)).toEqual(firstTen);
    expect(await page.locator('main h1').innerText()).toBe(`${total} results for “schedule”`);
    await page.keyboard.press('Tab');
    expect(await focusedResult(page)).toBe('result-12');
    // The results are those already loaded: the call is not made again.
    expect(calls).toEqual([]);

    // By mouse, until every result is shown and the button goes.
    // Each click waits for its results: asked at once, the link's count could still see the one the last click
    // removed, and the next click would wait for it for ever.
    while ((await page.getByRole('link', { name: 'Show more' }).count()) > 0) {
      const shown = await results(page).count();
      await page.getByRole('link', { name: 'Show more' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('.search-results > li').length > n, shown);
    }
    await page.waitForFunction((n) => document.querySelectorAll('.search-results > li').length === n, total);
    // Each category heads one group, however many times more was asked for.
    const headings = await page.locator('.search-group h2').allInnerTexts();
    expect(new Set(headings).size).toBe(headings.length);
    await expectNoAxeViolations(page, `${screen} all results`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says when only the best results are listed', async () => {
    expect(await resultCount('lumo')).toBe(50);
    const { page, context, problems } = await openPage(browser, { viewport });
    await gotoHydrated(page, `${server.url}/knowledge/search?query=lumo`);
    expect(await page.locator('main h1').innerText()).toBe('Top 50 results for “lumo”');
    expect(await page.locator('.search-hint').innerText()).toContain('Add a word to narrow the search');
    expect(await results(page).count()).toBe(10);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the specification’s no-results texts and make-request button', async () => {
    const { page, context, problems } = await openPage(browser, { viewport });
    await gotoHydrated(page, `${server.url}/knowledge/search?query=zzqxv`);
    expect(await page.locator('main h1').innerText()).toBe('No results found');
    expect(await page.locator('.no-results p').innerText()).toBe(
      'There is no answer to your question in the knowledge base yet. Create an appeal or use the search again.',
    );
    expect(await page.locator('.no-results a').getAttribute('href')).toBe(`${PORTAL_URL}/issues/create`);
    await expectNoAxeViolations(page, `${screen} no results`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the search results page without JavaScript', () => {
  it('shows the first ten, and "Show more" loads the page with the next ten at the first new one', async () => {
    const { page, context } = await openPage(browser, { javaScriptEnabled: false });
    await page.goto(`${server.url}/knowledge/search?query=schedule`);
    expect(await results(page).count()).toBe(10);
    await page.getByRole('link', { name: 'Show more' }).click();
    await page.waitForURL(/[?&]page=2#result-11$/);
    expect(await results(page).count()).toBe(20);
    // The browser scrolled to the first new result.
    const top = await page.locator('#result-11').evaluate((li) => li.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(5);
    await context.close();
  });
});
