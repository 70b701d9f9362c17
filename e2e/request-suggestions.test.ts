import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstructionSummary } from '../src/shared/api/knowledge.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };
const MESSAGE = 'My thermostat battery is low and the room sensor is offline';

let server: RunningServer;
let browser: Browser;
let formArticle: InstructionSummary;
let avoidedTitle = '';
let avoidedId = 0;

async function expectNoAxeViolations(page: Page, screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

const expectNoSideScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

const countsOf = async (articleId: number) =>
  server.ctx.db
    .selectFrom('requests_avoided')
    .select(['opened', 'sent'])
    .where('article_id', '=', articleId)
    .execute()
    .then((rows) => rows.map((row) => [Number(row.opened), Number(row.sent)]));

async function signInToAdmin(page: Page, path: string) {
  await page.goto(`${server.url}/admin/`);
  await page.waitForURL(/\/admin\/sign-in/);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.includes('sign-in'));
  await page.locator('.admin-bar').waitFor();
  // A phone's bar folds the pages into a menu.
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: path, exact: true })
    .click();
}

beforeAll(async () => {
  server = await startServer({ env: { CAPTCHA_PROVIDER: 'none', TRUST_PROXY: 'true' } });
  browser = await launchBrowser();
  await createUser(server.ctx.db, server.ctx.passwords, { ...ADMIN, role: 'admin' });
  const articles: InstructionSummary[] = (
    await (await fetch(`${server.url}/api/knowledge/instruction`)).json()
  ).items;
  // The article whose form is used is one the message would find: it must not be offered to its own reader.
  formArticle = articles.find((a) => a.can_create_issue && a.title === 'Thermostat shows as offline')!;
  expect(formArticle).toBeDefined();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('articles offered while a request is written', () => {
  it('lists articles under the article form’s message, opens one in a new tab, and counts a request avoided', async () => {
    const probe: PageProbe = await openPage(browser, { viewport: WIDE });
    const { page, context } = probe;
    try {
      const suggestionCalls: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/search/knowledge/suggestions')
          suggestionCalls.push(url.searchParams.get('text') ?? '');
      });
      await gotoHydrated(page, `${server.url}/knowledge/instruction/${formArticle.id}`);
      await page.locator('.request-toggle').click();
      const message = page.getByLabel('Message', { exact: true });
      // Two words say too little: nothing is looked for.
      await message.pressSequentially('Thermostat battery', { delay: 20 });
      await page.waitForTimeout(700);
      expect(suggestionCalls).toEqual([]);
      await message.fill(MESSAGE);

      const list = page.getByRole('list', { name: 'These articles may answer your question' });
      await list.waitFor();
      // Typed at once, asked for once: after the pause, with the message's words.
      expect(suggestionCalls).toEqual([MESSAGE]);
      const links = list.getByRole('link');
      const count = await links.count();
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(5);
      // The search finds the form's own article, and the form leaves it out.
      const found = await (
        await fetch(`${server.url}/api/search/knowledge/suggestions?text=${encodeURIComponent(MESSAGE)}`)
      ).json();
      expect(found.items.map((item: { id: number }) => item.id)).toContain(formArticle.id);
      const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
      expect(hrefs).not.toContain(`/knowledge/instruction/${formArticle.id}`);
      for (let i = 0; i < count; i++) {
        expect(await links.nth(i).getAttribute('target')).toBe('_blank');
        expect(await links.nth(i).textContent()).toMatch(/\(opens in a new tab\)$/);
      }
      await expect
        .poll(() => page.locator('.request-suggestions-region [role="status"]').textContent())
        .toBe(
          `${count} ${count === 1 ? 'article' : 'articles'} may answer your question: see the list under the message`,
        );
      // Typing goes on where it was: the list takes no focus.
      expect(await message.evaluate((el) => el === document.activeElement)).toBe(true);
      await expectNoAxeViolations(page, 'request form with suggestions');

      // By keyboard: Tab from the message reaches the first suggestion; Enter opens it in a new tab.
      const first = links.first();
      avoidedTitle = (await first.evaluate((el) => el.firstChild?.textContent ?? '')).trim();
      avoidedId = Number((await first.getAttribute('href'))!.split('/').pop());
      await message.focus();
      await page.keyboard.press('Tab');
      expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
      const [opened] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
      await opened.waitForLoadState();
      expect(new URL(opened.url()).pathname).toBe(`/knowledge/instruction/${avoidedId}`);
      expect(await opened.locator('h1').innerText()).toBe(avoidedTitle);
      await opened.close();
      // The request is still there as typed.
      expect(await message.inputValue()).toBe(MESSAGE);
      await expect.poll(() => countsOf(avoidedId)).toEqual([[1, 0]]);
      // Opening it again is the same visit: counted once.
      const [again] = await Promise.all([context.waitForEvent('page'), first.click()]);
      await again.close();
      await page.waitForTimeout(300);
      expect(await countsOf(avoidedId)).toEqual([[1, 0]]);
      expect(probe.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the admin one request avoided for that article in the Search report', async () => {
    const probe = await openPage(browser, { viewport: WIDE });
    const { page } = probe;
    try {
      await signInToAdmin(page, 'Search');
      await page.getByRole('heading', { name: 'Search report', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: /Requests avoided per article and week/ });
      const row = table.getByRole('row').filter({ hasText: avoidedTitle });
      expect(await row.count()).toBe(1);
      const cells = await row.getByRole('cell').allInnerTexts();
      expect(cells[0]).toBe(avoidedTitle);
      expect(cells.slice(2)).toEqual(['1', '0', '1']);
      expect(await page.locator('.report-total').innerText()).toMatch(
        /^1 request avoided in the last 12 weeks/,
      );
      await expectNoAxeViolations(page, 'search report');
      expect(probe.problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
    } finally {
      await probe.context.close();
    }
  });

  it('lists articles under the portal form’s message, and counts a request sent after opening one', async () => {
    const probe = await openPage(browser, { viewport: NARROW });
    const { page, context } = probe;
    try {
      await gotoHydrated(page, `${server.url}/issues/create`);
      await page.getByLabel('Name', { exact: true }).fill('Nina');
      await page.getByLabel('Email').fill('nina@example.com');
      await page.getByLabel('Message').fill('How do I create a heating schedule for weekends?');
      const list = page.getByRole('list', { name: 'These articles may answer your question' });
      await list.waitFor();
      const first = list.getByRole('link').first();
      expect((await first.textContent())?.trim()).toMatch(/^Create a heating schedule/);
      await expectNoSideScroll(page, NARROW.width);
      await expectNoAxeViolations(page, 'portal form with suggestions');

      const id = Number((await first.getAttribute('href'))!.split('/').pop());
      const [opened] = await Promise.all([context.waitForEvent('page'), first.click()]);
      await opened.close();
      await expect.poll(() => countsOf(id)).toEqual([[1, 0]]);
      // The article did not answer: the request is sent, and the server hears it was sent after opening.
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.request-sent-text').waitFor();
      await expect.poll(() => countsOf(id)).toEqual([[1, 1]]);
      expect(probe.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the Search report', () => {
  for (const [label, viewport] of [
    ['1280x800', WIDE],
    ['375x812', NARROW],
  ] as const) {
    it(`turns a search that found nothing into a draft article at ${label}`, async () => {
      const query = `teleport heating ${label}`;
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${server.url}/api/search/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.0.${i}` },
          body: JSON.stringify({ type: 'search', query, found: 0 }),
        });
        expect(response.status).toBe(200);
      }
      const probe = await openPage(browser, { viewport });
      const { page } = probe;
      try {
        await signInToAdmin(page, 'Search');
        const table = page.getByRole('table', { name: 'Searches that found nothing, most frequent first' });
        await table.waitFor();
        const row = table.getByRole('row').filter({ hasText: query });
        expect(await row.getByRole('cell').first().innerText()).toBe(query);
        await expectNoSideScroll(page, viewport.width);
        await expectNoAxeViolations(page, `search report ${label}`);

        await row.getByRole('button', { name: `Create an article for “${query}”` }).click();
        const dialog = page.getByRole('dialog', { name: 'Create an article for this search' });
        await dialog.waitFor();
        const title = dialog.getByLabel('Title');
        expect(await title.inputValue()).toBe(`Teleport heating ${label}`);
        expect(await title.evaluate((el) => el === document.activeElement)).toBe(true);
        const place = dialog.getByLabel('Place');
        // The first category is chosen for a start.
        expect(await place.locator('option:checked').innerText()).toBe('Getting started › First steps');
        await expectNoAxeViolations(page, `create dialog ${label}`);
        await dialog.getByRole('button', { name: 'Create draft' }).click();

        await page.waitForURL(/\/admin\/articles\/\d+$/);
        const id = Number(new URL(page.url()).pathname.split('/').pop());
        await expect.poll(() => page.getByLabel('Title').inputValue()).toBe(`Teleport heating ${label}`);
        const stored = await server.ctx.db
          .selectFrom('articles')
          .innerJoin('categories', 'categories.id', 'articles.category_id')
          .select(['articles.title', 'articles.published', 'categories.name'])
          .where('articles.id', '=', id)
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({ title: `Teleport heating ${label}`, published: 0, name: 'First steps' });
        expect(probe.problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
      } finally {
        await probe.context.close();
      }
    });
  }
});
