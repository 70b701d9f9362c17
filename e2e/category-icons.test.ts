import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { touchContent } from '../src/server/revisions/revision.repository.ts';
import { buildArticle, buildCategory } from '../src/server/testing/factories.ts';
import type { Category, Instruction, InstructionSummary } from '../src/shared/api/knowledge.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let categories: Category[];
let withFiles: Instruction[];

const api = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`)).json() as Promise<T>;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A category the team gave no icon, beside the demo's, which all have one.
  const [section] = await api<{ id: number }[]>('/api/knowledge/all-sections');
  const plain = await buildCategory(server.ctx.db, { name: 'Plain category', section_id: section!.id });
  await buildArticle(server.ctx.db, { category_id: plain.id, title: 'In the plain category' });
  categories = (await api<{ items: Category[] }>('/api/knowledge/category')).items;
  const articles = (await api<{ items: InstructionSummary[] }>('/api/knowledge/instruction')).items;
  const full = await Promise.all(articles.map((a) => api<Instruction>(`/api/knowledge/instruction/${a.id}`)));
  // Articles with files, those without a table first: a wide table scrolls on a phone without being focusable
  // (axe's scrollable-region-focusable), a matter of the article body, not of its files.
  withFiles = full
    .filter((a) => a.files.length > 0)
    .sort((a, b) => Number(a.description.includes('<table')) - Number(b.description.includes('<table')));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function axeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What the browser drew for each tile's icon: the glyph's font and content, and the sizes of glyph and circle. */
const tileIcons = (page: Page) =>
  page.$$eval('.tile', (tiles) =>
    tiles.map((tile) => {
      const glyph = tile.querySelector<HTMLElement>('.font-icon');
      const icon = tile.querySelector<HTMLElement>('.tile-icon');
      const before = glyph ? getComputedStyle(glyph, '::before') : null;
      const size = (element: Element | null | undefined) => {
        const box = element?.getBoundingClientRect();
        return box ? { width: Math.round(box.width), height: Math.round(box.height) } : null;
      };
      return {
        name: tile.querySelector('.tile-name')?.textContent ?? '',
        fontFamily: before?.fontFamily ?? null,
        // Font Awesome 7 writes `content: var(--fa) / ""`: the glyph is the first quoted text's character.
        codePoint: before ? (/^"(.)/u.exec(before.content)?.[1]?.codePointAt(0) ?? null) : null,
        glyph: size(glyph),
        circle: size(icon),
        folder: size(tile.querySelector('.tile-icon-default svg')),
      };
    }),
  );

const fontIconSheets = (page: Page) =>
  page.$$eval('link[rel="stylesheet"]', (links) =>
    links.map((link) => link.getAttribute('href') ?? '').filter((href) => href.includes('font-icons-')),
  );

describe.each([
  ['wide', WIDE],
  ['narrow', NARROW],
])('category icons and article files, %s', (_name, viewport) => {
  it('draws every demo category its Font Awesome icon and a category without one a folder', async () => {
    const { page, context, problems } = await openPage(browser, { viewport });
    const fontRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).host !== new URL(server.url).host) fontRequests.push(request.url());
    });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    await page.evaluate(() => document.fonts.ready);
    expect(await fontIconSheets(page)).toHaveLength(1);
    const icons = await tileIcons(page);
    const topLevel = categories.filter((c) => c.parent_id === null && c.name !== 'Plain category');
    expect(topLevel.length).toBeGreaterThan(5);
    for (const category of topLevel) {
      const drawn = icons.find((icon) => icon.name === category.name);
      expect(drawn, category.name).toBeDefined();
      expect(drawn?.fontFamily, category.name).toMatch(/Font Awesome 7 (Free|Brands)/);
      // A character of the font's private use area: the icon, not an empty box or a letter.
      expect(drawn?.codePoint, category.name).toBeGreaterThanOrEqual(0xe000);
      expect(drawn?.glyph?.width, category.name).toBeGreaterThan(10);
      expect(drawn?.glyph?.height, category.name).toBeGreaterThan(10);
      expect(drawn?.circle, category.name).toEqual({ width: expect.any(Number), height: expect.any(Number) });
      expect(drawn?.circle?.width).toBeGreaterThanOrEqual(44);
    }
    // The v4 form of the specification ('fa fa-credit-card') draws through Font Awesome's shims.
    const subscription = icons.find((icon) => icon.name === 'Lumo Plus subscription');
    expect(subscription?.fontFamily).toContain('Font Awesome 7 Free');
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family),
    );
    expect(loaded.join(' ')).toContain('Font Awesome 7 Free');

    const plain = icons.find((icon) => icon.name === 'Plain category');
    expect(plain).toMatchObject({ fontFamily: null, folder: { width: 24, height: 24 } });
    expect(plain?.circle?.width).toBeGreaterThanOrEqual(44);
    expect(fontRequests).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows an article's files with type, size and a download button, without loading Font Awesome", async () => {
    const article = withFiles[0]!;
    const file = article.files[0]!;
    const { page, context, problems } = await openPage(browser, { viewport });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${article.id}`);
    expect(await fontIconSheets(page)).toEqual([]);
    expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes('Awesome')))).toBe(
      false,
    );

    const item = page.locator('.file-item').first();
    const type = item.locator('.file-type');
    expect(await type.innerText()).toBe(file.original_name.split('.').pop()!.toUpperCase());
    const box = await type.boundingBox();
    expect(box?.width).toBeGreaterThan(20);
    expect(box?.height).toBeGreaterThan(30);
    expect(await item.locator('.file-size').innerText()).toBe(`${Math.round(file.file_size / 1024)} KB`);
    const name = item.getByRole('link', { name: new RegExp(`^${file.original_name}`) });
    expect(await name.getAttribute('target')).toBe('_blank');

    const button = page.getByRole('link', {
      name: `Download ${file.original_name} (${Math.round(file.file_size / 1024)} KB)`,
    });
    expect(await button.isVisible()).toBe(true);
    const buttonBox = await button.boundingBox();
    expect(buttonBox?.height).toBeGreaterThanOrEqual(44);
    expect(buttonBox?.width).toBeGreaterThanOrEqual(44);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(file.original_name);
    expect(fs.statSync(await download.path()).size).toBe(file.file_size);

    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('loads Font Awesome when the browser moves from a page without icons to one with them', async () => {
    const { page, context, problems } = await openPage(browser, { viewport });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${withFiles[0]!.id}`);
    expect(await fontIconSheets(page)).toEqual([]);
    // The trail's first link leads home, rendered by the router in the browser.
    await page.locator('.trail a').first().click();
    await page.waitForURL(/\/knowledge\/?$/);
    await expect.poll(() => fontIconSheets(page)).toHaveLength(1);
    await expect
      .poll(() => page.$eval('.tile .font-icon', (glyph) => getComputedStyle(glyph, '::before').fontFamily))
      .toMatch(/Font Awesome 7/);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a restricted article', () => {
  it('gives a reader signed in elsewhere (a token, no cookie) download buttons with signed links that download', async () => {
    const article = withFiles.find((a) => a.files.length > 0)!;
    const file = article.files[0]!;
    await server.ctx.db
      .updateTable('articles')
      .set({ visibility: 'signed_in' })
      .where('id', '=', article.id)
      .execute();
    await touchContent(server.ctx.db);
    await createUser(server.ctx.db, server.ctx.passwords, {
      email: 'rita@example.com',
      name: 'Rita Reader',
      password: 'long password',
      role: 'customer',
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rita@example.com', password: 'long password' }),
    });
    const { token } = (await login.json()) as { token: string };
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/`);
    await page.evaluate((value) => sessionStorage.setItem('authToken', value), token);
    await page.goto(`${server.url}/knowledge/instruction/${article.id}`);
    const button = page.getByRole('link', { name: new RegExp(`^Download ${file.original_name}`) });
    await button.waitFor();
    expect(await button.getAttribute('href')).toMatch(/\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect(await context.cookies()).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(file.original_name);
    expect(fs.statSync(await download.path()).size).toBe(file.file_size);
    await context.close();
  });
});

describe("the admin's icon field", () => {
  it.each([
    ['wide', WIDE],
    ['narrow', NARROW],
  ])(
    'previews a typed Font Awesome class, offers common icons, and saves the chosen one, %s',
    async (_name, viewport) => {
      const email = `ada-${viewport.width}@example.com`;
      await createUser(server.ctx.db, server.ctx.passwords, {
        email,
        name: 'Ada Admin',
        password: 'long password',
        role: 'admin',
      });
      const category = categories.find((c) => c.name === 'Connectivity')!;
      const { page, context, problems } = await openPage(browser, { viewport });
      await page.goto(`${server.url}/admin/`);
      await page.waitForURL(/\/admin\/sign-in/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('long password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => !url.pathname.includes('sign-in'));
      await page.goto(`${server.url}/admin/categories/${category.id}`);
      const field = page.getByLabel('Icon class');
      expect(await field.inputValue()).toBe('fa fa-wifi');
      const preview = page.locator('.font-icon-preview .font-icon');
      const previewFont = () => preview.evaluate((glyph) => getComputedStyle(glyph, '::before').fontFamily);
      await expect.poll(previewFont).toMatch(/Font Awesome 7/);

      await field.fill('  fa   fa-credit-card ');
      expect(await preview.getAttribute('class')).toBe('font-icon fa fa-credit-card');
      await field.fill('fa-wifi" onclick="x');
      expect(await preview.count()).toBe(0);
      await page.getByRole('button', { name: 'fa-solid fa-truck' }).click();
      expect(await field.inputValue()).toBe('fa-solid fa-truck');
      expect(await page.getByRole('button', { name: 'fa-solid fa-truck' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await expect.poll(previewFont).toMatch(/Font Awesome 7/);
      const result = await new AxeBuilder({ page }).include('.icon-choice').analyze();
      expect(result.violations.map((v) => v.id)).toEqual([]);
      await page.getByRole('button', { name: 'Save category' }).click();
      await expect.poll(() => page.locator('.editor-status').innerText()).toContain('Saved at');
      const saved = (await api<{ items: Category[] }>('/api/knowledge/category')).items.find(
        (c) => c.id === category.id,
      );
      expect(saved).toMatchObject({ icon_type: 'font', font_icon: 'fa-solid fa-truck' });
      // Put back for the other viewport.
      await server.ctx.db
        .updateTable('categories')
        .set({ font_icon: 'fa fa-wifi' })
        .where('id', '=', category.id)
        .execute();
      await touchContent(server.ctx.db);
      // The app asks who is signed in before the sign-in (401); nothing else may complain.
      expect(problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
      await context.close();
    },
  );
});
