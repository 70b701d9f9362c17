import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TOAST_MS } from '../src/shared/constants.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { startMailServer } from '../src/server/testing/mail-server.ts';
import { signpost } from '../src/server/testing/run-cli.ts';

/**
 * Axe's check of a page whose clock is paused. Axe waits on timers of its own, so the page's clock is moved on a
 * millisecond at a time while it runs, up to `limitMs` of the page's time (short of the page's own timers, which
 * then have not fired). In the page itself (legacy mode): the newer mode finishes in a page of its own, which
 * closes under a step of the clock.
 */
async function axeOnPausedClock(page: Page, limitMs: number) {
  let done = false;
  const analysis = new AxeBuilder({ page })
    .setLegacyMode(true)
    .analyze()
    .finally(() => (done = true));
  for (let moved = 0; !done; moved++) {
    if (moved >= limitMs) throw new Error(`axe still running after ${limitMs} ms of the page's time`);
    await page.clock.runFor(1);
  }
  return analysis;
}

let server: RunningServer;
let browser: Browser;
let articleId: number;
let articleTitle: string;

beforeAll(async () => {
  server = await startServer({ env: { CAPTCHA_PROVIDER: 'altcha' } });
  browser = await launchBrowser();
  const bundle = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items;
  const article = bundle.find(
    (a: { can_create_issue: boolean; category_id: number | null }) =>
      a.can_create_issue && a.category_id !== null,
  );
  articleId = article.id;
  articleTitle = article.title;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the support-request form', () => {
  it.each([
    ['1280x800', WIDE],
    ['375x812', NARROW],
  ])(
    'at %s: marks every empty field alike with focus on the first, takes two files and removes one, refuses one over 25 MB, then sends and says what happens next',
    { timeout: 90_000 },
    async (_size, viewport) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-attach-'));
      fs.writeFileSync(path.join(dir, 'photo-of-display.png'), Buffer.alloc(2048, 1));
      fs.writeFileSync(path.join(dir, 'wrong-file.txt'), 'not this one');
      fs.writeFileSync(path.join(dir, 'too-large.bin'), Buffer.alloc(25 * 1024 * 1024 + 1, 1));

      const { page, context, problems } = await openPage(browser, { viewport });
      // The page's timers are fake (the toast's and the sent button's 5 seconds): they run with the real clock until
      // paused, and then only as far as the test moves them.
      await page.clock.install();
      const sentRequests: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') sentRequests.push(new URL(request.url()).pathname);
      });
      const formChunks: string[] = [];
      page.on('request', (request) => {
        if (/\/assets\/request-form-[^/]+\.js$/.test(request.url())) formChunks.push(request.url());
      });
      await gotoHydrated(page, `${server.url}/knowledge/instruction/${articleId}`);
      // The form's code is asked for only when the visitor opens it.
      expect(formChunks).toEqual([]);
      const toggle = page.locator('.request-toggle');
      expect(await toggle.innerText()).toBe('Make a request');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const form = page.locator('.request-form');
      await form.waitFor();
      expect(formChunks).toHaveLength(1);
      // The spec's hint as written, alone in its element; the count the server takes beside it, in another.
      const hints = page.locator('.file-drop + .file-hints > *');
      expect(await hints.allInnerTexts()).toEqual([
        'Less than 15 Mb not more than 25 Mb',
        'Up to 10 files of any type',
      ]);
      expect(await hints.first().evaluate((el) => [el.childElementCount, el.textContent])).toEqual([
        0,
        'Less than 15 Mb not more than 25 Mb',
      ]);

      await page.getByRole('button', { name: 'Send' }).click();
      const required = ['Name', 'Email', 'Message'].map((label) => page.getByLabel(label, { exact: true }));
      for (const field of required) {
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        const message = page.locator(`#${await field.getAttribute('aria-describedby')}`);
        expect(await message.innerText()).toBe('This field is required');
        expect(await message.getAttribute('class')).toBe('field-error');
      }
      // Marked alike: the same red border on each, and the same mark before each message.
      const looks = await Promise.all(
        required.map((field) => field.evaluate((el) => getComputedStyle(el).borderTopColor)),
      );
      expect(new Set(looks)).toEqual(new Set(['rgb(179, 38, 30)']));
      expect(
        await page
          .locator('.request-form .field-error')
          .evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').backgroundImage !== 'none')),
      ).toEqual([true, true, true]);
      expect(await required[0]!.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(sentRequests).toEqual([]);
      const { violations: marked } = await new AxeBuilder({ page }).include('.request').analyze();
      expect(marked.map((v) => v.id)).toEqual([]);

      await required[0]!.fill('Ann Lee');
      await required[1]!.fill('ann@example.com');
      await required[2]!.fill('The display shows E42 after the update.');
      expect(await page.locator('.request-form [aria-invalid]').count()).toBe(0);

      const picker = page.getByLabel('Attach files');
      await picker.setInputFiles([path.join(dir, 'photo-of-display.png'), path.join(dir, 'wrong-file.txt')]);
      const listed = page.locator('.attached-files li');
      expect(await listed.allInnerTexts()).toEqual([
        expect.stringMatching(/photo-of-display\.png\s+2 KB/),
        expect.stringMatching(/wrong-file\.txt\s+0 KB/),
      ]);
      await page.getByRole('button', { name: 'Remove wrong-file.txt' }).click();
      expect(await listed.count()).toBe(1);
      // Focus stays in the list, on the remove button now in its place.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        'Remove photo-of-display.png',
      );

      // Over the limit: refused on the field before anything is sent, the other file kept.
      await picker.setInputFiles(path.join(dir, 'too-large.bin'));
      expect(await picker.getAttribute('aria-invalid')).toBe('true');
      const described = (await picker.getAttribute('aria-describedby'))!.split(' ');
      expect(await page.locator(`#${described[0]}`).innerText()).toBe('Less than 15 Mb not more than 25 Mb');
      expect(await page.locator(`#${described[1]}`).innerText()).toBe('Up to 10 files of any type');
      const fileError = page.locator(`#${described[2]}`);
      expect(await fileError.innerText()).toBe(
        'too-large.bin was not added: it is 25 MB, and a file can be at most 25 MB.',
      );
      expect(await page.locator('.file-drop').evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(
        'rgb(179, 38, 30)',
      );
      expect(await listed.count()).toBe(1);
      expect(sentRequests).toEqual([]);

      // The proof-of-work captcha solves itself while the form is open.
      await page.getByText('Checked: you are not a robot').waitFor({ timeout: 20_000 });
      const send = page.getByRole('button', { name: 'Send' });
      // From here the page's time moves only when the test moves it.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await send.click();
      const sent = page.getByRole('button', { name: 'Sent' });
      await sent.waitFor();
      expect(await sent.isDisabled()).toBe(true);
      // The spec's toast: 'Sent', announced (a status region).
      const toast = page.locator('.toast-region > .request-toast');
      expect(await toast.innerText()).toBe('Sent');
      expect(await toast.isVisible()).toBe(true);
      expect(await page.locator('.toast-region:has(.request-toast)').getAttribute('role')).toBe('status');
      // The page's one toast region: the article page's 'Link copied' shows in the same place, never beside it.
      expect(await page.locator('.toast-region').count()).toBe(1);
      expect(await required[2]!.inputValue()).toBe('');
      expect(await listed.count()).toBe(0);
      expect(await page.locator('.request-form [aria-invalid]').count()).toBe(0);
      expect(sentRequests).toEqual(['/api/file', '/panel/api/issue-open']);

      // What happens next, in the page under the button, with focus on it. This server sends no mail (no SMTP_URL):
      // the note says so, and where the answers will be instead.
      const note = page.locator('.request-sent');
      expect((await note.innerText()).replace(/\n+/g, '\n')).toBe(
        [
          'Sent: your request has reached our support team',
          'No email will come: this help centre does not send mail.',
          "The answers will appear on your request's page, which opens in this browser, or in the portal, if the team gives you an account for ann@example.com.",
          'Follow your request',
        ].join('\n'),
      );
      expect(await note.evaluate((el) => el === document.activeElement)).toBe(true);
      const [button, box] = [(await sent.boundingBox())!, (await note.boundingBox())!];
      expect(box.y).toBeGreaterThanOrEqual(button.y + button.height);
      // Scrolled into view (to the half pixel a scroll may leave), above the toast, which covers none of it.
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
      expect(box.y + box.height).toBeLessThanOrEqual((await toast.boundingBox())!.y);
      for (const target of [sent, note.getByRole('link', { name: 'Follow your request' })]) {
        const hit = await target.evaluate((el) => {
          const rect = el.getBoundingClientRect();
          return el.contains(document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2));
        });
        expect(hit).toBe(true);
      }

      // The toast and the sent button last 5 seconds from the send: both still there at 4.9 s, both gone at 5 s.
      await page.clock.runFor(4_900);
      expect(await toast.isVisible()).toBe(true);
      expect(await sent.isDisabled()).toBe(true);
      await page.clock.runFor(100);
      await expect.poll(() => toast.count()).toBe(0);
      await page.getByRole('button', { name: 'Send' }).waitFor();
      expect(await sent.count()).toBe(0);
      // The note stays.
      expect(await note.count()).toBe(1);
      // The accessibility check keeps time with timers of its own.
      await page.clock.resume();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);

      // The support team finds it with the CLI, on the same database, with the one file that was kept.
      const tickets = await signpost(['tickets', 'list'], server.environment.env);
      const id = /^\s*(\d+)\s/m.exec(tickets.stdout.split('\n').slice(1).join('\n'))?.[1];
      expect(id, tickets.stdout).toBeDefined();
      const shown = await signpost(['tickets', 'show', String(id)], server.environment.env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('Ann Lee <ann@example.com>');
      expect(shown.stdout).toContain('The display shows E42 after the update.');
      expect(shown.stdout).toContain(articleTitle);
      expect(shown.stdout).toContain(`/knowledge/instruction/${articleId}`);
      expect(shown.stdout).toMatch(/Files \(1\):\n\s+\d+\s+photo-of-display\.png\s+.*\(2048 bytes\)/);
      expect(shown.stdout).not.toContain('wrong-file.txt');
      expect(shown.stdout).not.toContain('too-large.bin');

      // The note's link opens the request, by its private key.
      // The portal's pages are a chunk of their own: the article's heading stays until it has loaded.
      await note.getByRole('link', { name: 'Follow your request' }).click();
      await page.waitForURL((url) => url.pathname === `/issues/${id}`);
      await page.locator('.thread-text').first().waitFor();
      expect(await page.locator('.thread-text').first().innerText()).toContain('The display shows E42');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it(
    'prefills and locks name and email from megapolName and megapolEmail; "Not you?" clears them for the visitor’s own',
    { timeout: 60_000 },
    async () => {
      const { page, context, problems } = await openPage(browser);
      await gotoHydrated(
        page,
        `${server.url}/knowledge/instruction/${articleId}?megapolName=Bo%20Kim&megapolEmail=bo%40example.com`,
      );
      await page.getByRole('button', { name: 'Make a request' }).last().click();
      const name = page.getByLabel('Name', { exact: true });
      const email = page.getByLabel('Email', { exact: true });
      // The form loads on demand, then fills itself in.
      await expect.poll(() => name.inputValue()).toBe('Bo Kim');
      expect(await name.isDisabled()).toBe(true);
      expect(await email.inputValue()).toBe('bo@example.com');
      expect(await email.isDisabled()).toBe(true);
      expect(await page.locator('.request-form').innerText()).toContain(
        'Filled in from the link you followed',
      );
      await page.getByText('Checked: you are not a robot').waitFor({ timeout: 20_000 });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);

      // Someone else's link: the visitor takes the fields back, from the keyboard.
      const notYou = page.getByRole('button', { name: 'Not you? Clear name and email' });
      await notYou.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => name.inputValue()).toBe('');
      expect(await name.isDisabled()).toBe(false);
      expect(await email.inputValue()).toBe('');
      expect(await email.isDisabled()).toBe(false);
      expect(await name.evaluate((input) => input === document.activeElement)).toBe(true);
      expect(await notYou.count()).toBe(0);
      expect(await page.locator('.request-form').innerText()).not.toContain('Filled in');
      expect(
        await page.evaluate(() => [
          localStorage.getItem('megapolName'),
          localStorage.getItem('megapolEmail'),
        ]),
      ).toEqual([null, null]);
      // Gone from the address too, so a reload does not bring them back.
      expect(new URL(page.url()).search).toBe('');

      await page.keyboard.type('Dana Doe');
      await email.fill('dana@example.com');
      await page.getByLabel('Message', { exact: true }).fill('My own question, not Bo’s.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('button', { name: 'Sent' }).waitFor();
      const ticket = await server.ctx.db
        .selectFrom('tickets')
        .select(['name', 'email', 'description'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(ticket).toMatchObject({ name: 'Dana Doe', email: 'dana@example.com' });
      expect(ticket.description).toContain('My own question, not Bo’s.');
      // The fields were the visitor's own, so the sent form is empty for the next request.
      expect(await name.inputValue()).toBe('');

      await page.reload();
      await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('button', { name: 'Make a request' }).last().click();
      await page.getByLabel('Message', { exact: true }).waitFor();
      expect(await name.inputValue()).toBe('');
      expect(await name.isDisabled()).toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('takes name and email from the signed-in account, and asks for a captcha only once the form opens', async () => {
    const { createUser } = await import('../src/server/accounts/accounts.service.ts');
    await createUser(server.ctx.db, server.ctx.passwords, {
      email: 'cleo@example.com',
      name: 'Cleo Customer',
      password: 'long password',
      role: 'customer',
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cleo@example.com', password: 'long password' }),
    });
    const { token } = await login.json();
    const { page, context } = await openPage(browser);
    const challenges: string[] = [];
    page.on(
      'request',
      (request) => request.url().includes('/api/captcha/challenge') && challenges.push(request.url()),
    );
    await gotoHydrated(page, `${server.url}/knowledge/`);
    await page.evaluate((value) => localStorage.setItem('authToken', value), token);
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${articleId}`);
    await expect.poll(() => page.locator('.nav-wide').innerText()).toContain('Cleo Customer');
    expect(challenges).toEqual([]);
    await page.locator('.request-toggle').click();
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Cleo Customer');
    expect(await name.isDisabled()).toBe(true);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('cleo@example.com');
    // The account is the visitor's own: no "Not you?" here (Exit is the way to be someone else).
    expect(await page.locator('.request-form').innerText()).toContain('Filled in from your account');
    expect(await page.getByRole('button', { name: /Not you/ }).count()).toBe(0);
    await page.getByText('Checked: you are not a robot').waitFor({ timeout: 20_000 });
    expect(challenges).toHaveLength(1);

    // Sent signed in, without mail: the answers are on the request's page in the portal.
    await page.getByLabel('Message', { exact: true }).fill('A question from my account.');
    await page.getByRole('button', { name: 'Send' }).click();
    const note = page.locator('.request-sent');
    await note.waitFor();
    expect((await note.innerText()).replace(/\n+/g, '\n')).toBe(
      [
        'Sent: your request has reached our support team',
        'No email will come: this help centre does not send mail.',
        "The answers will appear on your request's page in the portal, where you are signed in.",
        'Follow your request',
      ].join('\n'),
    );
    const id = await server.ctx.db
      .selectFrom('tickets')
      .select('id')
      .where('email', '=', 'cleo@example.com')
      .executeTakeFirstOrThrow();
    expect(await note.getByRole('link', { name: 'Follow your request' }).getAttribute('href')).toBe(
      `/issues/${id.id}`,
    );
    await page.locator('.request-toggle').click();
    expect(await page.locator('.request-form').count()).toBe(0);
    await context.close();
  });

  it('shows the server’s field errors under the fields', async () => {
    const { page, context } = await openPage(browser);
    await gotoHydrated(page, `${server.url}/knowledge/instruction/${articleId}`);
    await page.getByRole('button', { name: 'Make a request' }).last().click();
    await page.getByLabel('Name', { exact: true }).fill('Ann');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email@');
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByText('Checked: you are not a robot').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.field-error').innerText()).toBe('Enter a valid email address');
    const email = page.getByLabel('Email', { exact: true });
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    // The server's answer is marked as the form's own checks are, with focus on the field.
    expect(await email.getAttribute('aria-describedby')).toBe(
      await page.locator('.field-error').getAttribute('id'),
    );
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });
});

describe('after a send, on a server that sends mail', () => {
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let mailing: RunningServer;
  beforeAll(async () => {
    smtp = await startMailServer();
    mailing = await startServer({ env: { SMTP_URL: smtp.url, CAPTCHA_PROVIDER: 'none' } });
  });
  afterAll(async () => {
    await mailing?.close();
    await smtp?.close();
  });

  it.each([
    [
      'en',
      'Sent',
      [
        'Sent: your request has reached our support team',
        "We'll reply by email to dana@example.com.",
        'The link to your request is on its way to dana@example.com: it opens the request on any device.',
        'Follow your request',
        'This browser shows it too, until the link from the email is opened.',
      ],
    ],
    [
      'ru',
      'Отправлено',
      [
        'Отправлено: служба поддержки получила ваше обращение',
        'Ответ придёт на dana@example.com.',
        'Ссылка на обращение отправлена на dana@example.com: по ней его можно открыть на любом устройстве.',
        'Следить за обращением',
        'В этом браузере оно тоже откроется — пока не открыта ссылка из письма.',
      ],
    ],
  ])(
    'in %s: the toast and the note say that the answer and the link come by email',
    async (lang, toastText, lines) => {
      const { page, context, problems } = await openPage(browser);
      // As in the first test, the page's timers are fake: the toast lasts until the test moves the clock.
      await page.clock.install();
      await gotoHydrated(page, `${mailing.url}/knowledge/instruction/${articleId}?lang=${lang}`);
      await page.locator('.request-toggle').click();
      const fields = page.locator('.request-form input:not([type=file]), .request-form textarea');
      await fields.first().waitFor();
      await fields.nth(0).fill('Dana Doe');
      await fields.nth(1).fill('dana@example.com');
      await fields.nth(2).fill('Does the thermostat work with a heat pump?');
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await page.locator('.request-form button[type=submit]').click();
      const toast = page.locator('.toast-region > .request-toast');
      await toast.waitFor();
      expect(await toast.innerText()).toBe(toastText);
      expect((await page.locator('.request-sent').innerText()).replace(/\n+/g, '\n')).toBe(lines.join('\n'));
      // The toast too, while it shows: the page's time moves only as far as the check needs, never to its 5 seconds.
      const { violations } = await axeOnPausedClock(page, REQUEST_TOAST_MS - 100);
      expect(violations.map((v) => v.id)).toEqual([]);
      expect(await toast.isVisible()).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
