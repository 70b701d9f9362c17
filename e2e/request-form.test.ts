import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, launchBrowser, openPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { signpost } from '../src/server/testing/run-cli.ts';

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
  it(
    'flags empty fields without sending, then sends with one of two files, shows the sent state and toast',
    { timeout: 60_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-attach-'));
      fs.writeFileSync(path.join(dir, 'photo-of-display.png'), Buffer.alloc(2048, 1));
      fs.writeFileSync(path.join(dir, 'wrong-file.txt'), 'not this one');

      const { page, context, problems } = await openPage(browser);
      const sentRequests: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') sentRequests.push(new URL(request.url()).pathname);
      });
      await gotoHydrated(page, `${server.url}/knowledge/instruction/${articleId}`);
      const toggle = page.locator('.request-toggle');
      expect(await toggle.innerText()).toBe('Make a request');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator('.request-form').innerText()).toContain(
        'Less than 15 Mb not more than 25 Mb',
      );

      await page.getByRole('button', { name: 'Send' }).click();
      for (const label of ['Name', 'Email', 'Message']) {
        expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'), label).toBe(
          'true',
        );
      }
      expect(await page.locator('.field-error').count()).toBe(3);
      expect(sentRequests).toEqual([]);

      await page.getByLabel('Name', { exact: true }).fill('Ann Lee');
      await page.getByLabel('Email', { exact: true }).fill('ann@example.com');
      await page.getByLabel('Message', { exact: true }).fill('The display shows E42 after the update.');
      await page
        .getByLabel('Attach files')
        .setInputFiles([path.join(dir, 'photo-of-display.png'), path.join(dir, 'wrong-file.txt')]);
      expect(await page.locator('.attached-files li').count()).toBe(2);
      await page.getByRole('button', { name: 'Remove wrong-file.txt' }).click();
      expect(await page.locator('.attached-files li').count()).toBe(1);

      // The proof-of-work captcha solves itself while the form is open.
      await page.getByText('Checked: you are not a robot').waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Send' }).click();
      const sent = page.getByRole('button', { name: 'Sent' });
      await sent.waitFor();
      expect(await sent.isDisabled()).toBe(true);
      expect(await page.locator('.toast').innerText()).toContain('Sent');
      expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
      expect(await page.locator('.attached-files li').count()).toBe(0);
      expect(sentRequests).toEqual(['/api/file', '/panel/api/issue-open']);

      // Five seconds later the button and the toast are back to normal.
      await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 7000 });
      expect(await page.locator('.toast').count()).toBe(0);

      // The support team finds it with the CLI, on the same database, with the one file that was kept.
      const listed = await signpost(['tickets', 'list'], server.environment.env);
      const id = /^\s*(\d+)\s/m.exec(listed.stdout.split('\n').slice(1).join('\n'))?.[1];
      expect(id, listed.stdout).toBeDefined();
      const shown = await signpost(['tickets', 'show', String(id)], server.environment.env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('Ann Lee <ann@example.com>');
      expect(shown.stdout).toContain('The display shows E42 after the update.');
      expect(shown.stdout).toContain(articleTitle);
      expect(shown.stdout).toContain(`/knowledge/instruction/${articleId}`);
      expect(shown.stdout).toMatch(/Files \(1\):\n\s+\d+\s+photo-of-display\.png\s+.*\(2048 bytes\)/);
      expect(shown.stdout).not.toContain('wrong-file.txt');
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
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await context.close();
  });
});
