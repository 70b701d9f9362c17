import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, DEFAULT_PASSWORD } from '../src/server/testing/factories.ts';
import { writeFolder } from '../src/server/testing/folder.ts';
import { gotoHydrated, launchBrowser, openPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const CUSTOMER = { email: 'olga@example.com', name: 'Olga Orr' };

/**
 * A snippet as analytics tools write them: it reports the address it is loaded at and every address the page's
 * history moves to (a single-page app's route changes), here to the test through a function the page is given.
 */
const SNIPPET = `<script>
window.analyticsLoaded = true;
const report = () => window.reportAddress(location.pathname + location.search);
report();
for (const name of ['pushState', 'replaceState']) {
  const original = history[name];
  history[name] = function (...args) { const result = original.apply(this, args); report(); return result; };
}
addEventListener('popstate', report);
</script>`;

let server: RunningServer;
let browser: Browser;
let articleUrl: string;

beforeAll(async () => {
  const folder = writeFolder({ 'snippet.html': SNIPPET });
  server = await startServer({
    env: { CAPTCHA_PROVIDER: 'none', ANALYTICS_SNIPPET_FILE: `${folder}/snippet.html` },
  });
  browser = await launchBrowser();
  await buildUser(server.ctx.db, CUSTOMER);
  const bundle = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items as {
    id: number;
    can_create_issue: boolean;
    category_id: number | null;
  }[];
  const article = bundle.find((a) => a.can_create_issue && a.category_id !== null)!;
  articleUrl = `${server.url}/knowledge/instruction/${article.id}`;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the analytics snippet', () => {
  it(
    'reports the help centre’s pages; a link from them to a request’s page loads a new document, without it',
    { timeout: 90_000 },
    async () => {
      const { page, context, problems } = await openPage(browser);
      const reported: string[] = [];
      await page.exposeFunction('reportAddress', (address: string) => reported.push(address));

      // Signed in on the portal's page, which has no snippet.
      await gotoHydrated(page, `${server.url}/login`);
      expect(await page.evaluate(() => 'analyticsLoaded' in window)).toBe(false);
      await page.getByLabel('Email').fill(CUSTOMER.email);
      await page.getByLabel('Password').fill(DEFAULT_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/issues');
      expect(reported).toEqual([]);

      // A request from an article, whose page has the snippet.
      await gotoHydrated(page, articleUrl);
      const articlePath = new URL(articleUrl).pathname;
      // (Once more as the router takes the history over.)
      expect(new Set(reported)).toEqual(new Set([articlePath]));
      await page.locator('.request-toggle').click();
      await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe(CUSTOMER.email);
      await page.getByLabel('Message', { exact: true }).fill('The display shows E42 after the update.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('button', { name: 'Sent' }).waitFor();

      // Following it opens the request's page as a new document: the snippet neither sees its address nor runs there.
      await page.locator('.request-sent').getByRole('link', { name: 'Follow your request' }).click();
      await page.waitForURL((url) => /^\/issues\/\d+$/.test(url.pathname));
      await page.locator('.thread-text').first().waitFor();
      expect(await page.locator('.thread-text').first().innerText()).toContain('The display shows E42');
      expect(await page.evaluate(() => 'analyticsLoaded' in window)).toBe(false);
      expect(reported.every((address) => address.startsWith('/knowledge/'))).toBe(true);

      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
