import type { Editor } from '@tiptap/core';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { buildArticle, buildCategory } from '../src/server/testing/factories.ts';
import { buildTicket } from '../src/server/testing/ticket-fixtures.ts';
import { launchBrowser, openPage, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

/*
 * The rich-text editor's Link dialog, wherever the editor is: inside the request page's reply form (as a reply and as
 * an internal note) and outside any form (a category's description, a translation, an article's body). Confirming it,
 * by Enter or by Apply, links the selected words and nothing else: the draft stays, nothing is sent or saved, Undo
 * takes the link back. Cancel and Escape leave the draft as it was. Either way the text has the focus again. The
 * Image description dialog, which closes the same way, where the toolbar offers it (an article's or a category's
 * text, not a reply): it describes the selected image and nothing else. One server, one page, every editor in turn.
 *
 * The dialog's own form once sat inside the reply form: Chromium stops a nested form's submit event at the outer
 * form, before the app's handler, so nothing prevented the browser's own submission, and the page reloaded with the
 * draft gone.
 */

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };
const DRAFT = 'Check the guide and the manual';

let server: RunningServer;
let browser: Browser;
let probe: PageProbe;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  await createUser(server.ctx.db, server.ctx.passwords, { ...ADMIN, role: 'admin' });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  browser = await launchBrowser();
  probe = await openPage(browser);
  page = probe.page;
  await probe.context.addInitScript((stored) => localStorage.setItem('signpost.admin.token', stored), token);
  // Leaving an editor with unsaved changes asks first (beforeunload): the journey leaves them on purpose.
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The editor's toolbar and surface: the toolbar acts on the surface's selection. */
const toolbarOf = (surface: Locator) =>
  surface.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " rich-editor ")][1]');

/** The text the editor itself has selected, which the toolbar acts on (TipTap keeps the editor on its element). */
const editorSelection = (surface: Locator) =>
  surface.evaluate((element) => {
    const { state } = (element as HTMLElement & { editor: Editor }).editor;
    return state.doc.textBetween(state.selection.from, state.selection.to);
  });

/**
 * Selects `word` with the keyboard, as a person would: Home, then arrows. The editor puts its own selection back on
 * the page a moment after it takes focus, which can undo a key pressed meanwhile: the keys are pressed again until
 * the editor's selection is the word.
 */
async function selectWord(surface: Locator, word: string) {
  await surface.focus();
  const start = DRAFT.indexOf(word);
  await expect
    .poll(async () => {
      await page.keyboard.press('Home');
      for (let i = 0; i < start; i++) await page.keyboard.press('ArrowRight');
      for (let i = 0; i < word.length; i++) await page.keyboard.press('Shift+ArrowRight');
      return expect
        .poll(() => editorSelection(surface), { timeout: 250, interval: 10 })
        .toBe(word)
        .then(
          () => true,
          () => false,
        );
    })
    .toBe(true);
}

const focusIsIn = (surface: Locator) => surface.evaluate((element) => element === document.activeElement);

/** Opens the Link dialog on `word`, from the toolbar by mouse or by keyboard, and types `address`. */
async function openLinkDialog(surface: Locator, word: string, address: string, by: 'mouse' | 'keyboard') {
  await selectWord(surface, word);
  const button = toolbarOf(surface).getByRole('button', { name: 'Link' });
  if (by === 'mouse') await button.click();
  else await button.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Link' });
  await dialog.getByLabel('Address').fill(address);
  return dialog;
}

/**
 * Links two words, one confirmed by Enter and one by Apply, then opens the dialog on a third and leaves it by Escape
 * and by Cancel. `unchanged` checks after each step that nothing was sent or saved.
 */
async function linkAndLeave(surface: Locator, unchanged: () => Promise<void>) {
  const tools = toolbarOf(surface);
  await surface.fill(DRAFT);
  await expect.poll(() => surface.innerText()).toBe(DRAFT);

  const confirmations = [
    ['guide', 'keyboard', (dialog: Locator) => dialog.getByLabel('Address').press('Enter')],
    ['manual', 'mouse', (dialog: Locator) => dialog.getByRole('button', { name: 'Apply' }).click()],
  ] as const;
  const linked: Record<string, string> = {};
  for (const [word, by, confirm] of confirmations) {
    const address = `https://example.com/${word}`;
    const dialog = await openLinkDialog(surface, word, address, by);
    await confirm(dialog);
    await dialog.waitFor({ state: 'detached' });
    linked[word] = address;
    expect(await surface.innerText()).toBe(DRAFT);
    const links = await surface
      .locator('a')
      .evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(Object.fromEntries(links)).toEqual(linked);
    expect(await tools.getByRole('button', { name: 'Undo' }).isEnabled()).toBe(true);
    await expect.poll(() => focusIsIn(surface)).toBe(true);
    await unchanged();
  }

  const before = await surface.innerHTML();
  const leaves = [
    ['keyboard', () => page.keyboard.press('Escape')],
    [
      'mouse',
      () => page.getByRole('dialog', { name: 'Link' }).getByRole('button', { name: 'Cancel' }).click(),
    ],
  ] as const;
  for (const [by, leave] of leaves) {
    const dialog = await openLinkDialog(surface, 'Check', 'https://example.com/never', by);
    // Not in a form, nor a form in another: nothing it does reaches a form around the editor.
    expect(await page.evaluate(() => document.querySelectorAll('form form, form dialog').length)).toBe(0);
    await leave();
    await dialog.waitFor({ state: 'detached' });
    expect(await surface.innerHTML()).toBe(before);
    await expect.poll(() => focusIsIn(surface)).toBe(true);
    await unchanged();
  }

  // Undo takes the last link back, and only it.
  await tools.getByRole('button', { name: 'Undo' }).click();
  expect(await surface.innerText()).toBe(DRAFT);
  expect(await surface.locator('a').allInnerTexts()).toEqual(['guide']);
}

const IMAGE_PROMPT = 'Describe the image for people who cannot see it';

/** Selects the editor's one image (a click selects it whole) and opens its Image description dialog. */
async function openImageDialog(surface: Locator, by: 'mouse' | 'keyboard') {
  await surface.locator('img').click();
  const button = toolbarOf(surface).getByRole('button', { name: 'Image description' });
  if (by === 'mouse') await button.click();
  else await button.press('Enter');
  return page.getByRole('dialog', { name: 'Image description' });
}

/**
 * Describes the editor's one image, confirmed once by Enter and once by Apply, then opens the dialog again and leaves
 * it by Escape and by Cancel. `unchanged` checks after each step that nothing was saved.
 */
async function describeAndLeave(surface: Locator, unchanged: () => Promise<void>) {
  const image = surface.locator('img');
  const confirmations = [
    ['The thermostat', 'keyboard', (dialog: Locator) => dialog.getByLabel(IMAGE_PROMPT).press('Enter')],
    [
      'The thermostat’s display',
      'mouse',
      (dialog: Locator) => dialog.getByRole('button', { name: 'Apply' }).click(),
    ],
  ] as const;
  for (const [alt, by, confirm] of confirmations) {
    const dialog = await openImageDialog(surface, by);
    await dialog.getByLabel(IMAGE_PROMPT).fill(alt);
    await confirm(dialog);
    await dialog.waitFor({ state: 'detached' });
    expect(await image.getAttribute('alt')).toBe(alt);
    expect(await surface.locator('img').count()).toBe(1);
    await expect.poll(() => focusIsIn(surface)).toBe(true);
    await unchanged();
  }

  const before = await surface.innerHTML();
  const leaves = [
    ['keyboard', () => page.keyboard.press('Escape')],
    [
      'mouse',
      () =>
        page
          .getByRole('dialog', { name: 'Image description' })
          .getByRole('button', { name: 'Cancel' })
          .click(),
    ],
  ] as const;
  for (const [by, leave] of leaves) {
    const dialog = await openImageDialog(surface, by);
    // It opens on the description the image has.
    expect(await dialog.getByLabel(IMAGE_PROMPT).inputValue()).toBe('The thermostat’s display');
    await dialog.getByLabel(IMAGE_PROMPT).fill('Never this');
    expect(await page.evaluate(() => document.querySelectorAll('form form, form dialog').length)).toBe(0);
    await leave();
    await dialog.waitFor({ state: 'detached' });
    expect(await surface.innerHTML()).toBe(before);
    await expect.poll(() => focusIsIn(surface)).toBe(true);
    await unchanged();
  }
}

describe('the rich-text editor’s Link and Image description dialogs', () => {
  it('links the selection in a reply and in a note, and sends nothing until Send', async () => {
    const ticket = await buildTicket(server.ctx, { title: 'The display is blank', targets: [] });
    const messages = () =>
      server.ctx.db
        .selectFrom('ticket_messages')
        .select(['internal', 'body_html'])
        .where('ticket_id', '=', ticket.id)
        .orderBy('id')
        .execute();
    const thread = page.getByRole('list', { name: 'Conversation' }).locator(':scope > li');
    await page.goto(`${server.url}/admin/requests/${ticket.id}`);
    await page.getByRole('heading', { name: 'The display is blank', level: 1 }).waitFor();

    const reply = page.getByRole('textbox', { name: 'Reply to Ann Lee' });
    const nothingSent = (sent: number) => async () => {
      // Not even on its way: the form's button would say Sending….
      expect(await page.locator('.reply-form button[type="submit"]').innerText()).toMatch(
        /^(Send reply|Add note)$/,
      );
      expect(await thread.count()).toBe(1 + sent);
      expect(await messages()).toHaveLength(sent);
    };
    await linkAndLeave(reply, nothingSent(0));
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent.').waitFor();
    expect((await reply.innerText()).trim()).toBe('');

    await page.getByLabel('Internal note').check();
    const note = page.getByRole('textbox', { name: 'Note for the team' });
    await linkAndLeave(note, nothingSent(1));
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added.').waitFor();

    // What was sent is each draft as it stood at Send: the word linked, and the link taken back by Undo gone.
    const sent = await messages();
    expect(sent.map((m) => Boolean(m.internal))).toEqual([false, true]);
    for (const message of sent) {
      expect(message.body_html).toBe(
        '<p>Check the <a href="https://example.com/guide">guide</a> and the manual</p>',
      );
    }
    expect(await thread.count()).toBe(3);
  });

  it('describes the image and links the selection in a category’s description, links in a translation and an article, and saves nothing', async () => {
    const category = await buildCategory(server.ctx.db, {
      name: 'Pictured',
      description: '<p>The thermostat on the wall.</p><img src="/favicon.svg" alt="">',
    });
    await page.goto(`${server.url}/admin/categories/${category.id}`);
    await page.getByRole('heading', { name: 'Edit category', level: 1 }).waitFor();
    const description = page.getByRole('textbox', { name: 'Description' });
    const categoryUnchanged = async () => {
      const stored = await server.ctx.db
        .selectFrom('categories')
        .select('description')
        .where('id', '=', category.id)
        .executeTakeFirstOrThrow();
      expect(stored.description).toBe(category.description);
    };
    await describeAndLeave(description, categoryUnchanged);
    await linkAndLeave(description, categoryUnchanged);

    const article = await server.ctx.db
      .selectFrom('articles')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await page.goto(`${server.url}/admin/articles/${article.id}/translations/ru`);
    await page.getByRole('heading', { name: 'Translate: Русский (Russian)', level: 1 }).waitFor();
    const form = page.getByRole('region', { name: 'Translation: Русский (Russian)' });
    await linkAndLeave(form.getByRole('textbox', { name: 'Body' }), async () => {
      const stored = await server.ctx.db
        .selectFrom('article_translations')
        .select('article_id')
        .where('article_id', '=', article.id)
        .execute();
      expect(stored).toEqual([]);
    });

    const body = '<p>The steps as first written.</p>';
    const plain = await buildArticle(server.ctx.db, { title: 'Linked in the editor', body_html: body });
    await page.goto(`${server.url}/admin/articles/${plain.id}`);
    await page.getByRole('heading', { name: 'Edit article', level: 1 }).waitFor();
    await linkAndLeave(page.getByRole('textbox', { name: 'Body' }), async () => {
      const stored = await server.ctx.db
        .selectFrom('articles')
        .select('body_html')
        .where('id', '=', plain.id)
        .executeTakeFirstOrThrow();
      expect(stored.body_html).toBe(body);
    });
    expect(probe.problems).toEqual([]);
  });
});
