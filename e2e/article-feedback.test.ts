import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstructionSummary } from '../src/shared/api/knowledge.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };
const COMMENT = 'The Privacy menu is gone. Write to me at ann.lee@example.com or call 0161 496 0000.';

let server: RunningServer;
let browser: Browser;
let answered: InstructionSummary;
let liked: InstructionSummary;

/** Answers from other readers, each from an address of its own (the server trusts one proxy here). */
async function answerFrom(address: string, articleId: number, helpful: boolean) {
  const response = await fetch(`${server.url}/api/knowledge/instruction/${articleId}/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ helpful }),
  });
  expect(response.status).toBe(200);
}

async function expectNoAxeViolations(page: Page, screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

const expectNoSideScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
  browser = await launchBrowser();
  await createUser(server.ctx.db, server.ctx.passwords, { ...ADMIN, role: 'admin' });
  const articles: InstructionSummary[] = (
    await (await fetch(`${server.url}/api/knowledge/instruction`)).json()
  ).items;
  [answered, liked] = articles as [InstructionSummary, InstructionSummary];
  // Four other readers of the answered article (one yes, three no), six of the other (five yes, one no).
  for (const [i, helpful] of [true, false, false, false].entries()) {
    await answerFrom(`10.0.1.${i}`, answered.id, helpful);
  }
  for (const [i, helpful] of [true, true, true, true, true, false].entries()) {
    await answerFrom(`10.0.2.${i}`, liked.id, helpful);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('"Was this helpful?" on an article', () => {
  it('is part of the page every visitor is sent, before any script runs', async () => {
    const html = await (await fetch(`${server.url}/knowledge/instruction/${answered.id}`)).text();
    expect(html).toContain('Was this article helpful?');
    expect(html).toMatch(/<button type="button" class="button button-secondary">Yes<\/button>/);
  });

  for (const [label, viewport] of [
    ['1280x800', WIDE],
    ['375x812', NARROW],
  ] as const) {
    it(`takes a No with a reason and a comment by keyboard at ${label}, and thanks after a reload`, async () => {
      const probe: PageProbe = await openPage(browser, { viewport });
      const { page } = probe;
      try {
        await gotoHydrated(page, `${server.url}/knowledge/instruction/${answered.id}`);
        const widget = page.getByRole('region', { name: 'Was this article helpful?' });
        await expect(widget.isVisible()).resolves.toBe(true);
        await expectNoAxeViolations(page, `${label} asking`);

        const no = widget.getByRole('button', { name: 'No', exact: true });
        await no.focus();
        await page.keyboard.press('Enter');
        // The thanks takes the focus the buttons had.
        const thanks = widget.getByText('Thank you for your feedback!');
        await thanks.waitFor();
        expect(await thanks.evaluate((node) => node === document.activeElement)).toBe(true);
        await expect(widget.getByRole('button', { name: 'No', exact: true }).count()).resolves.toBe(0);

        const reasons = widget.getByRole('group', { name: 'What went wrong? (optional)' });
        expect(await reasons.getByRole('radio').allInnerTexts()).toHaveLength(4);
        await page.keyboard.press('Tab');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        expect(await widget.getByRole('radio', { name: 'Out of date' }).isChecked()).toBe(true);
        await widget.getByLabel('Comment (optional)').fill(COMMENT);
        await expectNoAxeViolations(page, `${label} reason and comment`);
        await expectNoSideScroll(page, viewport.width);
        await widget.getByRole('button', { name: 'Send feedback' }).click();
        await widget.getByText('Thank you! Your feedback helps us improve this article.').waitFor();

        await page.reload();
        await page.waitForSelector('html[data-hydrated]');
        await widget.getByText('Thank you for your feedback!').waitFor();
        await expect(widget.getByRole('button', { name: 'Yes' }).count()).resolves.toBe(0);
        await expectNoAxeViolations(page, `${label} after a reload`);
        expect(probe.problems).toEqual([]);
      } finally {
        await probe.context.close();
      }
    });
  }

  it('keeps one answer for this browser: the second viewport replaced the first', async () => {
    const rows = await server.ctx.db
      .selectFrom('article_feedback')
      .selectAll()
      .where('article_id', '=', answered.id)
      .execute();
    expect(rows).toHaveLength(5);
    expect(rows.filter((row) => row.comment !== null)).toHaveLength(1);
  });

  for (const [label, viewport] of [
    ['1280x800', WIDE],
    ['375x812', NARROW],
  ] as const) {
    it(`shows the team the article worst first, with the reason and the masked comment, at ${label}`, async () => {
      const probe = await openPage(browser, { viewport });
      const { page } = probe;
      try {
        await page.goto(`${server.url}/admin/`);
        await page.waitForURL(/\/admin\/sign-in/);
        await page.getByLabel('Email').fill(ADMIN.email);
        await page.getByLabel('Password').fill(ADMIN.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL((url) => !url.pathname.includes('sign-in'));
        await page.locator('.admin-bar').waitFor();
        // A phone's bar may fold the pages into a menu.
        const menu = page.getByRole('button', { name: 'Menu' });
        if (await menu.isVisible()) await menu.click();
        await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Feedback' }).click();
        await page.getByRole('heading', { name: 'Article feedback', level: 1 }).waitFor();

        const cards = page.locator('.feedback-card');
        expect(await cards.count()).toBe(2);
        const worst = cards.first();
        await expect(worst.getByRole('heading', { level: 2 }).innerText()).resolves.toBe(answered.title);
        await expect(cards.nth(1).getByRole('heading', { level: 2 }).innerText()).resolves.toBe(liked.title);
        const text = await worst.innerText();
        expect(text).toContain('20% found it helpful');
        expect(text).toMatch(/Out of date\s*1/);
        expect(text).toContain('The Privacy menu is gone. Write to me at [email] or call [number].');
        expect(text).not.toContain('ann.lee@example.com');
        expect(
          await worst.getByRole('link', { name: answered.title, exact: true }).getAttribute('href'),
        ).toBe(`/admin/articles/${answered.id}`);
        expect(await worst.getByRole('link', { name: /Public page/ }).getAttribute('href')).toBe(
          `/knowledge/instruction/${answered.id}`,
        );
        await expectNoSideScroll(page, viewport.width);
        await expectNoAxeViolations(page, `admin feedback ${label}`);
        // The one refusal expected: the app's first look for a session, before signing in.
        expect(probe.problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
      } finally {
        await probe.context.close();
      }
    });
  }
});
