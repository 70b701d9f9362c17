/**
 * Screenshots of every screen at 1280x800 and 375x812, into docs/screenshots/, so a reviewer sees the site without
 * running it: the public help centre with the demo content, the customer portal, and the admin app signed in.
 * Usage: npm run screenshots [-- NAME...] (only the screens whose names contain one of the words).
 * A production build, the real server on an embedded database, and Debian's Chromium.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildUser } from '../src/server/testing/factories.ts';
import { gotoHydrated, launchBrowser, NARROW, WIDE } from '../e2e/support/browser.ts';
import { sendRequest, signIn, startServer } from '../e2e/support/server.ts';

const root = path.resolve(import.meta.dirname, '..');
const OUT = path.join(root, 'docs/screenshots');
execFileSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });

interface Screen {
  name: string;
  path: string;
  /** Who looks: nobody signed in, a customer in the portal, or an admin in the admin app. */
  as?: 'customer' | 'admin';
  /** What to do once the page is there (open a menu, fill a form). */
  then?: (page: Page) => Promise<void>;
  /** The whole page, not only the first screen. */
  full?: boolean;
}

// Proxy headers trusted, so the visitors whose choices search learns from can be told apart (below).
const server = await startServer({ env: { CAPTCHA_PROVIDER: 'none', TRUST_PROXY: 'true' } });
const wanted = process.argv.slice(2);
try {
  const json = async <T>(url: string): Promise<T> =>
    (await fetch(`${server.url}${url}`)).json() as Promise<T>;
  const categories = (
    await json<{ items: { id: number; count_instruction: number; icon_type: string }[] }>(
      '/api/knowledge/category',
    )
  ).items;
  const articles = (
    await json<{ items: { id: number; title: string; can_create_issue: boolean }[] }>(
      '/api/knowledge/instruction',
    )
  ).items;
  const category = categories.find((c) => c.count_instruction > 2) ?? categories[0];
  const longArticle = articles.find((a) => a.title === 'Install the Lumo T2 thermostat') ?? articles[0];
  const withForm = articles.find((a) => a.can_create_issue) ?? articles[0];
  if (!category || !longArticle || !withForm) throw new Error('the demo content is missing');

  const admin = await buildUser(server.ctx.db, {
    email: 'admin@example.com',
    name: 'Ada Admin',
    role: 'admin',
  });
  const customer = await buildUser(server.ctx.db, { email: 'carla@example.com', name: 'Carla Customer' });
  const customerToken = await signIn(server.url, customer.email);
  // A request of the customer's, sent as the site sends it, for the portal's and the inbox's screens.
  await sendRequest(server.url, customerToken, customer);
  const ticket = await server.ctx.db
    .selectFrom('tickets')
    .select('id')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await seedSearchReport(server.url, articles);

  // What search learns from: visitors who searched and opened an article, three for one query, one for another.
  for (const [query, article, visitors] of [
    ['thermostat heating', longArticle, 3],
    ['wifi setup', withForm, 1],
  ] as const) {
    for (let visitor = 0; visitor < visitors; visitor++) {
      await fetch(`${server.url}/api/search/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${visitor + 1}` },
        body: JSON.stringify({ type: 'open', query, id: article.id }),
      });
    }
  }

  const screens = (
    [
      { name: 'home', path: '/knowledge/', full: true },
      { name: 'home-menu', path: '/knowledge/', then: (page) => openMenu(page) },
      { name: 'category', path: `/knowledge/category/${category.id}`, full: true },
      { name: 'article', path: `/knowledge/instruction/${longArticle.id}` },
      { name: 'article-full', path: `/knowledge/instruction/${longArticle.id}`, full: true },
      {
        name: 'request-form',
        path: `/knowledge/instruction/${withForm.id}`,
        then: async (page) => {
          await page.locator('button.request-toggle').click();
          await page.locator('.request form').waitFor();
          await page.locator('.request').evaluate((section) => section.scrollIntoView());
        },
      },
      {
        // Sent without an account: the private link goes by mail, this browser follows the request meanwhile.
        name: 'request-sent',
        path: `/knowledge/instruction/${withForm.id}`,
        then: async (page) => {
          await page.locator('button.request-toggle').click();
          await page.locator('.request form').waitFor();
          await page.getByLabel('Name', { exact: true }).fill('Ann Lee');
          await page.getByLabel('Email', { exact: true }).fill('ann@example.com');
          await page.getByLabel('Message', { exact: true }).fill('The display shows E42 after the update.');
          await page.getByRole('button', { name: 'Send' }).click();
          await page.locator('.request-sent').waitFor();
          await page.locator('.request-sent').evaluate((note) => note.scrollIntoView({ block: 'center' }));
        },
      },
      {
        name: 'request-suggestions',
        path: `/knowledge/instruction/${withForm.id}`,
        then: async (page) => {
          await page.locator('button.request-toggle').click();
          await page
            .getByLabel('Message')
            .fill('My thermostat battery is low and the room sensor is offline');
          await page.locator('.request-suggestions li').first().waitFor();
          await page
            .locator('.request-suggestions')
            .evaluate((list) => list.scrollIntoView({ block: 'center' }));
        },
      },
      {
        name: 'search-box',
        path: '/knowledge/',
        then: async (page) => {
          await page.getByRole('combobox').first().fill('wifi');
          await page.waitForTimeout(800);
        },
      },
      { name: 'search', path: '/knowledge/search?query=heating', full: true },
      { name: 'search-none', path: '/knowledge/search?query=zzqxv' },
      { name: 'not-found', path: '/knowledge/no-such-page' },
      { name: 'portal-sign-in', path: '/login' },
      { name: 'portal-sign-up', path: '/signup' },
      { name: 'portal-requests', path: '/issues', as: 'customer' },
      { name: 'portal-new-request', path: '/issues/create', as: 'customer' },
      {
        name: 'portal-new-request-suggestions',
        path: '/issues/create',
        as: 'customer',
        then: async (page) => {
          await page.getByLabel('Message').fill('How do I create a heating schedule for weekends?');
          await page.locator('.request-suggestions li').first().waitFor();
          await page
            .locator('.request-suggestions')
            .evaluate((list) => list.scrollIntoView({ block: 'center' }));
        },
      },
      { name: 'portal-request', path: `/issues/${ticket.id}`, as: 'customer' },
      { name: 'portal-profile', path: '/user/profile', as: 'customer' },
      { name: 'admin-sign-in', path: '/admin/sign-in' },
      { name: 'admin-content', path: '/admin', as: 'admin' },
      { name: 'admin-article', path: `/admin/articles/${longArticle.id}`, as: 'admin' },
      { name: 'admin-category', path: `/admin/categories/${category.id}`, as: 'admin' },
      { name: 'admin-branding', path: '/admin/branding', as: 'admin' },
      { name: 'admin-requests', path: '/admin/requests', as: 'admin' },
      { name: 'admin-request', path: `/admin/requests/${ticket.id}`, as: 'admin' },
      { name: 'admin-users', path: '/admin/users', as: 'admin' },
      { name: 'admin-feedback', path: '/admin/feedback', as: 'admin' },
      { name: 'admin-search-report', path: '/admin/search-report', as: 'admin', full: true },
      {
        name: 'admin-search-report-create',
        path: '/admin/search-report',
        as: 'admin',
        then: async (page) => {
          await page.getByRole('button', { name: 'Create an article for “teleport heating”' }).click();
          await page.getByRole('dialog').waitFor();
        },
      },
      { name: 'admin-search-tuning', path: '/admin/search-tuning', as: 'admin', full: true },
      {
        name: 'admin-search-tuning-refused',
        path: '/admin/search-tuning',
        as: 'admin',
        then: async (page) => {
          const sets = page.getByLabel('Synonym sets in English');
          await sets.fill(`${await sets.inputValue()}\ngizmo`);
          await page.getByRole('button', { name: 'Save synonyms' }).click();
          await page.locator('.synonym-problems').waitFor();
        },
      },
    ] satisfies Screen[] as Screen[]
  ).filter((screen) => wanted.length === 0 || wanted.some((word) => screen.name.includes(word)));

  fs.mkdirSync(OUT, { recursive: true });
  const browser = await launchBrowser();
  try {
    const tokens = {
      admin: await signIn(server.url, admin.email),
      customer: customerToken,
    };
    for (const [width, viewport] of [
      ['1280', WIDE],
      ['375', NARROW],
    ] as const) {
      for (const screen of screens) {
        const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
        if (screen.as === 'admin')
          await context.addInitScript(
            (token) => localStorage.setItem('signpost.admin.token', token),
            tokens.admin,
          );
        if (screen.as === 'customer')
          await context.addInitScript((token) => localStorage.setItem('authToken', token), tokens.customer);
        const page = await context.newPage();
        if (screen.path.startsWith('/admin')) {
          await page.goto(`${server.url}${screen.path}`, { waitUntil: 'networkidle' });
        } else {
          await gotoHydrated(page, `${server.url}${screen.path}`);
          await page.waitForLoadState('networkidle');
        }
        await screen.then?.(page);
        const file = path.join(OUT, `${screen.name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: screen.full ?? false });
        console.log(path.relative(root, file));
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}

/** Searches, suggested articles opened under the request form and answers to "Was this helpful?", for the report. */
async function seedSearchReport(url: string, articles: { id: number; title: string }[]): Promise<void> {
  const event = async (body: object, from: string) => {
    const response = await fetch(`${url}/api/search/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`a search event: ${response.status} ${await response.text()}`);
  };
  const searches: [string, number, number][] = [
    ['teleport heating', 6, 0],
    ['thermostat beeps at night', 4, 0],
    ['refund for ann@example.com', 2, 0],
    ['schedule holidays', 5, 3],
    ['wall plate colour', 3, 1],
  ];
  for (const [query, times, found] of searches)
    for (let i = 0; i < times; i++) await event({ type: 'search', query, found }, `10.9.0.${i}`);
  const [first, second, third] = articles;
  if (!first || !second || !third) return;
  for (const [id, opened, sent] of [
    [first.id, 5, 1],
    [second.id, 3, 0],
    [third.id, 2, 2],
  ] as const) {
    for (let i = 0; i < opened; i++) await event({ type: 'suggestion_open', id }, `10.9.1.${i}`);
    for (let i = 0; i < sent; i++) await event({ type: 'request_sent', opened: [id] }, `10.9.1.${i}`);
  }
  for (const [i, helpful] of [false, false, true].entries()) {
    await fetch(`${url}/api/knowledge/instruction/${second.id}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.2.${i}` },
      body: JSON.stringify({ helpful }),
    });
  }
}

async function openMenu(page: Page): Promise<void> {
  const burger = page.locator('button[aria-expanded]').first();
  if (await burger.isVisible()) await burger.click();
}
