import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signpost } from '../src/server/testing/run-cli.ts';
import { en } from '../src/web/i18n/en.ts';
import { gotoHydrated, launchBrowser, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN = { email: 'ops@example.com', name: 'Ops', password: 'first hour at work' };

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer({ demo: false });
  // As the README has an operator do it: the password on standard input, never on the command line.
  const made = await signpost(
    ['user', 'add', '--email', ADMIN.email, '--name', ADMIN.name, '--admin'],
    server.environment.env,
    {
      input: `${ADMIN.password}\n`,
    },
  );
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toBe('');
  browser = await launchBrowser();
  page = (await openPage(browser, { viewport: WIDE })).page;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('an operator’s first hour with an empty help centre', () => {
  it('shows visitors the empty page, and the admin what to do next until there is content', async () => {
    await gotoHydrated(page, `${server.url}/knowledge/`);
    await page.getByText(en.emptyKnowledgeBase).waitFor();

    await page.goto(`${server.url}/admin/`);
    await page.waitForURL(/\/admin\/sign-in/);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const empty = page.getByRole('region', { name: 'The help centre is empty' });
    await empty.waitFor();
    const text = await empty.innerText();
    expect(text).toContain('New section');
    expect(text).toContain('New article');
    expect(await empty.locator('code').innerText()).toBe('signpost import DIR');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    // The first section takes the empty state's place.
    await page.getByRole('button', { name: 'New section' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Getting started');
    await page.getByRole('dialog').getByRole('button', { name: 'Create section' }).click();
    await page.getByRole('treeitem', { name: /^Getting started/ }).waitFor();
    expect(await empty.count()).toBe(0);
  });
});
