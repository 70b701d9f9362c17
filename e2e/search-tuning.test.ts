import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnedList, SynonymsResponse } from '../src/shared/api/synonyms.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { buildArticle } from '../src/server/testing/factories.ts';
import { gotoHydrated, launchBrowser, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };
const WIDGET_TITLE = 'Pair the widget with your phone';

let server: RunningServer;
let browser: Browser;
let token: string;
let widgetId: number;
let probe: PageProbe;
let page: Page;

async function adminApi<T>(path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-auth-token': token } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** A visitor who searched `query` and opened the article, each from an address of its own (proxy trusted here). */
async function openedFromSearch(address: string, query: string, id: number) {
  const response = await fetch(`${server.url}/api/search/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ type: 'open', query, id }),
  });
  expect(response.status).toBe(200);
}

async function expectNoAxeViolations(screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** The titles a visitor's search finds on the public results page. */
async function publicResults(query: string): Promise<string[]> {
  const visitor = await openPage(browser, { viewport: WIDE });
  try {
    await gotoHydrated(visitor.page, `${server.url}/knowledge/search?query=${encodeURIComponent(query)}`);
    return await visitor.page.locator('.search-results > li a').allInnerTexts();
  } finally {
    await visitor.context.close();
  }
}

const sets = () => page.getByLabel('Synonym sets in English');
const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const openTuning = async () => {
  await page.goto(`${server.url}/admin/search-tuning`);
  await page.getByRole('heading', { name: 'Search tuning', level: 1 }).waitFor();
};

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: 'true' } });
  await createUser(server.ctx.db, server.ctx.passwords, { ...ADMIN, role: 'admin' });
  const [section] = (await (await fetch(`${server.url}/api/knowledge/all-sections`)).json()) as {
    id: number;
  }[];
  widgetId = (
    await buildArticle(server.ctx.db, {
      section_id: section!.id,
      title: WIDGET_TITLE,
      body_html: '<p>Hold the widget’s button for three seconds until its light blinks.</p>',
    })
  ).id;
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  browser = await launchBrowser();
  probe = await openPage(browser, { viewport: WIDE });
  page = probe.page;
  await probe.context.addInitScript((stored) => localStorage.setItem('signpost.admin.token', stored), token);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('search tuning in the admin app', () => {
  it('shows the default sets, refuses a bad line where it is, and saves a new set that search then uses', async () => {
    expect(await publicResults('gizmo')).toEqual([]);
    await page.goto(`${server.url}/admin/`);
    // The menu's Search entry opens the report; the tuning page is the other tab under it.
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Search', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Search report', level: 1 }).waitFor();
    await page
      .getByRole('navigation', { name: 'Search pages' })
      .getByRole('link', { name: 'Search tuning' })
      .click();
    await page.getByRole('heading', { name: 'Search tuning', level: 1 }).waitFor();
    await page.getByText('These are Signpost’s default sets').waitFor();
    expect(await tab('English').getAttribute('aria-selected')).toBe('true');
    const shipped = await sets().inputValue();
    expect(shipped.split('\n')[0]).toBe('sign in, log in, log on');
    const lineCount = shipped.split('\n').length;
    expect(await tab('English').innerText()).toContain(String(lineCount));
    await expectNoAxeViolations('the defaults');

    // A set of one word: said at its line before anything is sent, with the focus there.
    await sets().fill(`${shipped}\n\ngizmo`);
    expect(await tab('English').innerText()).toContain('Unsaved');
    await page.getByRole('button', { name: 'Save synonyms' }).click();
    const problem = `Line ${lineCount + 2}: Add at least one more word or phrase that means the same, after a comma.`;
    await page.getByText(problem).waitFor();
    expect(await sets().getAttribute('aria-invalid')).toBe('true');
    expect(await sets().evaluate((area) => area === document.activeElement)).toBe(true);
    expect(
      await sets().evaluate((area: HTMLTextAreaElement) =>
        area.value.slice(area.selectionStart, area.selectionEnd),
      ),
    ).toBe('gizmo');
    expect(await page.getByRole('alert').innerText()).toContain('Nothing was saved');
    await expectNoAxeViolations('a refused line');

    // What only the server sees (the same phrase twice, in two cases) is put at its line too.
    await sets().fill(`${shipped}\ngizmo, Gizmo`);
    await page.getByRole('button', { name: 'Save synonyms' }).click();
    await page
      .getByText(`Line ${lineCount + 1}: This set must list at least two different phrases.`)
      .waitFor();
    expect(await sets().getAttribute('aria-invalid')).toBe('true');
    expect((await adminApi<SynonymsResponse>('/api/admin/synonyms')).defaults).toBe(true);

    // Another language's tab keeps each text; both are saved at once. The tabs go by arrow keys too.
    await sets().fill(`${shipped}\ngizmo, widget`);
    await tab('English').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await tab('Slovenčina').getAttribute('aria-selected')).toBe('true');
    expect(await tab('Slovenčina').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    expect(await tab('Русский').getAttribute('aria-selected')).toBe('true');
    expect(await sets().isVisible()).toBe(false);
    const russian = page.getByLabel('Synonym sets in Русский (Russian)');
    await russian.fill(`${await russian.inputValue()}\nгаджет, виджет`);
    await tab('English').click();
    expect(await sets().inputValue()).toBe(`${shipped}\ngizmo, widget`);
    expect(await tab('Русский').innerText()).toContain('Unsaved');

    // Leaving with changes asks first.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Feedback' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).waitFor();
    await page.getByRole('button', { name: 'Stay and keep editing' }).click();
    expect(await sets().inputValue()).toBe(`${shipped}\ngizmo, widget`);

    await page.getByRole('button', { name: 'Save synonyms' }).click();
    await page.getByText('Saved: search uses these sets now.').waitFor();
    expect(await sets().getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText('These are Signpost’s default sets').count()).toBe(0);
    expect(await tab('English').innerText()).not.toContain('Unsaved');
    const stored = await adminApi<SynonymsResponse>('/api/admin/synonyms');
    expect(stored.defaults).toBe(false);
    expect(stored.sets.en?.at(-1)).toEqual(['gizmo', 'widget']);
    expect(stored.sets.ru?.at(-1)).toEqual(['гаджет', 'виджет']);

    expect(await publicResults('gizmo')).toContain(WIDGET_TITLE);
    // The browser's own note of the one refusal, and nothing else.
    expect(probe.problems).toEqual([
      'error: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    probe.problems.length = 0;
  });

  it('lists what visitors taught search, and forgets a query, then everything', async () => {
    for (const address of ['10.0.3.1', '10.0.3.2', '10.0.3.3'])
      await openedFromSearch(address, 'pair widget', widgetId);
    await openedFromSearch('10.0.3.4', 'widget blinking light', widgetId);
    await openTuning();
    const rows = page.locator('.learned-table tbody tr');
    expect(await rows.count()).toBe(2);
    const strongest = rows.first();
    expect(await strongest.locator('td').first().innerText()).toBe('pair widget');
    expect(await strongest.getByRole('link').innerText()).toBe(WIDGET_TITLE);
    expect(await strongest.getByRole('link').getAttribute('href')).toBe(`/admin/articles/${widgetId}`);
    expect(await strongest.locator('td[data-label="Votes"]').innerText()).toBe('3');
    expect(await strongest.locator('td[data-label="Boost"]').innerText()).toBe('×1.5');
    expect(await rows.nth(1).locator('td[data-label="Boost"]').innerText()).toBe('Not yet');
    await expectNoAxeViolations('what visitors taught');

    await page.getByRole('button', { name: 'Forget “pair widget”' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    const left = await adminApi<LearnedList>('/api/admin/search-learning');
    expect(left.items.map((row) => row.query)).not.toContain('pair widget');
    expect(left.items).toHaveLength(1);

    await page.getByRole('button', { name: 'Forget everything' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget everything search learned?' });
    await dialog.waitFor();
    await expectNoAxeViolations('forgetting everything');
    await dialog.getByRole('button', { name: 'Forget everything' }).click();
    await page.getByText('Nothing learned yet').waitFor();
    expect((await adminApi<LearnedList>('/api/admin/search-learning')).items).toEqual([]);
    expect(probe.problems).toEqual([]);
  });
});
