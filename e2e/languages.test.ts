import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, InstructionSummary } from '../src/shared/api/knowledge.ts';
import { touchContent } from '../src/server/revisions/revision.repository.ts';
import {
  buildArticleTranslation,
  buildCategoryTranslation,
  buildSectionTranslation,
} from '../src/server/testing/factories.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
/** A demo article translated into Russian, and one of its neighbours that is not (read in Russian: a fallback). */
let translated: InstructionSummary;
let untranslated: InstructionSummary;
let category: Category;

const RUSSIAN_TITLE = 'Установка термостата';
const RUSSIAN_CATEGORY = 'Начало работы';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const articles: InstructionSummary[] = (
    await (await fetch(`${server.url}/api/knowledge/instruction`)).json()
  ).items;
  const categories: Category[] = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items;
  // A category holding at least two articles: one to translate, one to leave in English.
  const inCategory = (id: number) => articles.filter((a) => a.category_id === id);
  const found = categories.find((c) => inCategory(c.id).length >= 2);
  if (!found) throw new Error('no category with two articles in the demo');
  category = found;
  [translated, untranslated] = inCategory(found.id) as [InstructionSummary, InstructionSummary];
  const { db } = server.ctx;
  await buildSectionTranslation(db, { section_id: found.section_id, lang: 'ru', name: 'Руководства' });
  await buildCategoryTranslation(db, {
    category_id: found.id,
    lang: 'ru',
    name: RUSSIAN_CATEGORY,
    description: '<p>С чего начать</p>',
  });
  await buildArticleTranslation(db, {
    article_id: translated.id,
    lang: 'ru',
    title: RUSSIAN_TITLE,
    body_html: '<p>Снимите старый термостат и установите новый.</p>',
  });
  await touchContent(db);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the header's language switcher and chooses a language by its own name. */
async function chooseLanguage(page: Page, name: string) {
  await page.locator('.lang-switcher summary').click();
  await page.locator('.lang-menu').getByRole('link', { name }).click();
}

const langCookie = async (page: Page) =>
  (await page.context().cookies()).find((cookie) => cookie.name === 'signpost_lang')?.value;

describe('the visitor’s language', () => {
  it('switches an article to Russian, keeps the language while moving around, and remembers it', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${translated.id}`);
    const switcher = page.locator('.lang-switcher summary');
    expect(await switcher.innerText()).toContain('English');
    await chooseLanguage(page, 'Русский');
    await page.waitForURL(`**/knowledge/instruction/${translated.id}?lang=ru`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(RUSSIAN_TITLE);
    // The document's language follows the page's once it has rendered, a moment after the heading.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ru');
    expect(await switcher.innerText()).toContain('Русский');
    expect(await langCookie(page)).toBe('ru');
    // The interface speaks Russian too.
    expect(await page.locator('.trail').getByRole('link').first().innerText()).toBe('Главная');
    await page.screenshot({ path: '/tmp/lang-article-ru-wide.png' });

    // The trail leads to the category, in Russian, still on ?lang=ru.
    await page.locator('.trail').getByRole('link', { name: RUSSIAN_CATEGORY }).click();
    await page.waitForURL(`**/knowledge/category/${category.id}?lang=ru`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(RUSSIAN_CATEGORY);
    // The untranslated article is listed in English, marked as such.
    const fallbackItem = page.locator('.article-item[lang="en"]', { hasText: untranslated.title });
    expect(await fallbackItem.count()).toBe(1);

    // The remembered choice: the address without lang sends this visitor to Russian.
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${translated.id}`);
    expect(page.url()).toBe(`${server.url}/knowledge/instruction/${translated.id}?lang=ru`);
    // And back to English, remembered too.
    await chooseLanguage(page, 'English');
    await page.waitForURL(`**/knowledge/instruction/${translated.id}?lang=en`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(translated.title);
    expect(await langCookie(page)).toBe('en');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('switches a category, and a search with its query kept', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(page, `${server.url}/knowledge/category/${category.id}`);
    expect(await page.locator('h1').innerText()).toBe(category.name);
    await chooseLanguage(page, 'Русский');
    await page.waitForURL(`**/knowledge/category/${category.id}?lang=ru`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(RUSSIAN_CATEGORY);

    const query = translated.title.split(' ').slice(-1)[0] ?? 'thermostat';
    await gotoHydrated(page, `${server.url}/knowledge/search?query=${encodeURIComponent(query)}`);
    // The cookie says Russian: the search without lang was sent there, its query kept.
    expect(page.url()).toBe(`${server.url}/knowledge/search?query=${encodeURIComponent(query)}&lang=ru`);
    await chooseLanguage(page, 'English');
    await page.waitForURL(`**/knowledge/search?query=${encodeURIComponent(query)}&lang=en`);
    await expect.poll(() => page.locator('.search-page h1').innerText()).toContain(query);
    expect(await page.locator('.search-results a').count()).toBeGreaterThan(0);
    // The results' links keep the language.
    expect(await page.locator('.search-results a').first().getAttribute('href')).toMatch(/\?lang=en$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads an article that has no Russian version in English, marked, with a note in Russian', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${untranslated.id}?lang=ru`);
    const note = page.locator('.fallback-note');
    expect(await note.innerText()).toBe(
      'Эта статья ещё не переведена на русский язык. Она показана на языке оригинала: English.',
    );
    expect(await page.locator('h1').getAttribute('lang')).toBe('en');
    expect(await page.locator('h1').innerText()).toBe(untranslated.title);
    expect(await page.locator('.instruction .rich-text').first().getAttribute('lang')).toBe('en');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await page.screenshot({ path: '/tmp/lang-fallback-wide.png' });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers the switcher on a narrow screen, by keyboard', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: NARROW });
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${translated.id}?lang=en`);
    const summary = page.locator('.lang-switcher summary');
    expect(await summary.isVisible()).toBe(true);
    expect(await summary.innerText()).toContain('EN');
    await summary.focus();
    await page.keyboard.press('Enter');
    const russian = page.locator('.lang-menu').getByRole('link', { name: 'Русский' });
    expect(await russian.isVisible()).toBe(true);
    // The menu fits on the screen.
    const box = await page.locator('.lang-menu').boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= NARROW.width).toBe(true);
    await page.screenshot({ path: '/tmp/lang-switcher-narrow.png' });
    // Escape closes it and gives the focus back; then choose Russian with the keyboard alone.
    await page.keyboard.press('Escape');
    expect(await russian.isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Русский');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/knowledge/instruction/${translated.id}?lang=ru`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(RUSSIAN_TITLE);
    await page.screenshot({ path: '/tmp/lang-article-ru-narrow.png' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
