import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { buildTicket } from '../src/server/testing/ticket-fixtures.ts';
import { launchBrowser, NARROW, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };

let server: RunningServer;
let browser: Browser;
let token: string;
let ticketId: number;

/** Every screen of the admin app, by its address and the heading it shows. */
const screens = () => [
  { path: '/admin/', heading: 'Content' },
  { path: '/admin/categories/1', heading: 'Edit category' },
  { path: '/admin/articles/1', heading: 'Edit article' },
  { path: '/admin/search-tuning', heading: 'Search tuning' },
  { path: '/admin/branding', heading: 'Branding' },
  { path: '/admin/requests', heading: 'Requests' },
  { path: `/admin/requests/${ticketId}`, heading: 'The thermostat does not heat' },
  { path: '/admin/users', heading: 'Users' },
  { path: '/admin/search-report', heading: 'Search report' },
  { path: '/admin/translations', heading: 'Translations' },
  { path: '/admin/articles/1/translations/ru', heading: 'Translate: Русский (Russian)' },
];

async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .exclude('iframe.preview-frame')
    .exclude('iframe.header-preview')
    .analyze();
  return result.violations.map(
    (v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** A browser whose admin token is already stored, as after signing in. */
async function signedInPage(viewport: { width: number; height: number }): Promise<PageProbe> {
  const probe = await openPage(browser, { viewport });
  await probe.context.addInitScript((stored) => localStorage.setItem('signpost.admin.token', stored), token);
  return probe;
}

/** Heights of the visible inputs, selects and buttons of a form (checkboxes are boxes, not controls of a row). */
const controlHeights = (page: Page, form: string) =>
  page
    .locator(`${form} :is(input:not([type='checkbox']):not([type='radio']), select, button)`)
    .evaluateAll((controls) =>
      controls
        .filter((control) => (control as HTMLElement).offsetParent !== null)
        .map((control) => Math.round(control.getBoundingClientRect().height)),
    );

beforeAll(async () => {
  server = await startServer();
  await createUser(server.ctx.db, server.ctx.passwords, { ...ADMIN, role: 'admin' });
  ticketId = (
    await buildTicket(server.ctx, {
      title: 'The thermostat does not heat',
      email: 'a.very.long.address.for.a.phone@example.com',
      targets: [],
    })
  ).id;
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the admin app on a phone (375 × 812)', () => {
  it('fits every screen to the width, with the pages and Sign out under the Menu button', async () => {
    const findings: string[] = [];
    const signedOut = await openPage(browser, { viewport: NARROW });
    await signedOut.page.goto(`${server.url}/admin/sign-in`);
    await signedOut.page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await signedOut.page.evaluate(() => [document.documentElement.scrollWidth, innerWidth])).toEqual([
      NARROW.width,
      NARROW.width,
    ]);
    findings.push(...(await axeViolations(signedOut.page, '/admin/sign-in')));
    await signedOut.context.close();

    const { page, context, problems } = await signedInPage(NARROW);
    for (const screen of screens()) {
      await page.goto(`${server.url}${screen.path}`);
      await page.getByRole('heading', { name: screen.heading, level: 1 }).waitFor();
      expect(
        await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]),
        screen.path,
      ).toEqual([NARROW.width, NARROW.width]);
      findings.push(...(await axeViolations(page, screen.path)));

      const menu = page.getByRole('button', { name: 'Menu' });
      const signOut = page.getByRole('button', { name: 'Sign out' });
      expect(await menu.getAttribute('aria-expanded'), screen.path).toBe('false');
      expect(await signOut.isVisible(), screen.path).toBe(false);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded'), screen.path).toBe('true');
      expect(await signOut.isVisible(), screen.path).toBe(true);
      const box = await signOut.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= NARROW.width, screen.path).toBe(true);
      expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allInnerTexts()).toEqual(
        ['Content', 'Requests', 'Feedback', 'Search', 'Translations', 'Branding', 'Users'],
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(NARROW.width);
      findings.push(...(await axeViolations(page, `${screen.path} with the menu open`)));
      await page.keyboard.press('Escape');
      expect(await signOut.isVisible(), screen.path).toBe(false);
    }
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('moves to another page from the menu, which then closes', async () => {
    const { page, context } = await signedInPage(NARROW);
    await page.goto(`${server.url}/admin/`);
    await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    // The inbox is a card per request, each fact under its column's name, the long address inside the card.
    const card = page.locator('.requests-page tbody tr').first();
    expect(await card.locator('td[data-label="From"]').innerText()).toContain(
      'a.very.long.address.for.a.phone@example.com',
    );
    const cardBox = await card.boundingBox();
    expect(cardBox && cardBox.x + cardBox.width <= NARROW.width).toBe(true);
    await context.close();
  });

  it('folds the tree while an article is open, so the editor is at the top, and shows it on asking', async () => {
    const { page, context } = await signedInPage(NARROW);
    await page.goto(`${server.url}/admin/articles/1`);
    const heading = page.getByRole('heading', { name: 'Edit article', level: 1 });
    await heading.waitFor();
    expect((await heading.boundingBox())?.y ?? Infinity).toBeLessThan(NARROW.height / 2);
    const show = page.getByRole('button', { name: 'Show' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('tree').isVisible()).toBe(false);
    await show.click();
    expect(await page.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('tree').isVisible()).toBe(true);
    // Choosing another article opens it and folds the tree again.
    await page.getByRole('treeitem', { name: "What's in the box" }).click();
    await page.waitForURL(/\/admin\/articles\/(?!1$)\d+$/);
    await expect.poll(() => page.getByRole('tree').isVisible()).toBe(false);
    await context.close();
  });

  it("fits the content tree's toolbar in its pane", async () => {
    for (const viewport of [NARROW, WIDE]) {
      const { page, context } = await signedInPage(viewport);
      await page.goto(`${server.url}/admin/`);
      await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor();
      const [pane, buttons] = await page.evaluate(() => {
        const toolbar = document.querySelector('.tree-toolbar') as HTMLElement;
        const paneBox = (toolbar.closest('.tree-pane') as HTMLElement).getBoundingClientRect();
        return [
          { left: paneBox.left, right: paneBox.right },
          [...toolbar.querySelectorAll('button')].map((button) => {
            const box = button.getBoundingClientRect();
            return { name: button.textContent, left: box.left, right: box.right, top: box.top };
          }),
        ] as const;
      });
      expect(buttons.map((b) => b.name)).toEqual([
        'New section',
        'New category',
        'New article',
        'Rename',
        'Edit category',
        'Translate',
        'Move to…',
        'Delete',
      ]);
      for (const button of buttons) {
        expect(button.left, `${button.name} at ${viewport.width}`).toBeGreaterThanOrEqual(pane.left);
        expect(button.right, `${button.name} at ${viewport.width}`).toBeLessThanOrEqual(pane.right);
      }
      // What to add, then what to do with the selected item, which wraps once in the pane's width.
      expect(new Set(buttons.map((b) => Math.round(b.top))).size, `rows at ${viewport.width}`).toBe(3);
      await context.close();
    }
  });
});

describe('the branding form', () => {
  it('gives every input, select and button one height, wide and narrow', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { page, context } = await signedInPage(viewport);
      await page.goto(`${server.url}/admin/branding`);
      await page.getByRole('heading', { name: 'Branding', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add a link' }).click();
      const heights = await controlHeights(page, '.branding-form');
      expect(heights.length).toBeGreaterThan(8);
      expect(new Set(heights), `at ${viewport.width}: ${heights.join(', ')}`).toEqual(new Set([40]));
      await context.close();
    }
  });

  it("edits the footer's links, refusing an address that is not a web page, and the site shows them", async () => {
    const { page, context, problems } = await signedInPage(WIDE);
    await page.goto(`${server.url}/admin/branding`);
    await page.getByRole('heading', { name: 'Branding', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add a link' }).click();
    await page.getByLabel('Label 1').fill('Status');
    await page.getByLabel('Address 1').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Must be https://… or a path such as /privacy').waitFor();
    expect(await page.getByLabel('Address 1').getAttribute('aria-invalid')).toBe('true');
    const stored = await (await fetch(`${server.url}/api/settings/branding`)).json();
    expect(stored.footer_links).toEqual([]);

    await page.getByLabel('Address 1').fill(' https://status.example.com ');
    await page.getByRole('button', { name: 'Add a link' }).click();
    await page.getByLabel('Label 2').fill('Privacy');
    await page.getByLabel('Address 2').fill('/privacy');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Saved: the public site shows the new branding now.').waitFor();
    expect(await axeViolations(page, 'branding with footer links')).toEqual([]);

    await page.goto(`${server.url}/knowledge/`);
    const links = page.getByRole('contentinfo').getByRole('link');
    expect(await links.evaluateAll((all) => all.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual(
      [
        ['Status', 'https://status.example.com'],
        ['Privacy', '/privacy'],
      ],
    );

    await page.goto(`${server.url}/admin/branding`);
    await page.getByRole('button', { name: 'Remove link 1 (Status)' }).click();
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Saved: the public site shows the new branding now.').waitFor();
    const after = await (await fetch(`${server.url}/api/settings/branding`)).json();
    expect(after.footer_links).toEqual([{ label: 'Privacy', url: '/privacy' }]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
