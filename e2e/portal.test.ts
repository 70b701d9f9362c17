import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../src/server/tickets/index.ts';
import { findUserByEmail } from '../src/server/accounts/users.repository.ts';
import { buildArticle, buildFile, buildUser } from '../src/server/testing/factories.ts';
import { startMailServer, textOf } from '../src/server/testing/mail-server.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const AGENT = { email: 'desk@example.com', name: 'Dana Desk', password: 'answers requests 1' };
const CUSTOMER = { email: 'nina@example.com', name: 'Nina Novak', password: 'my own password 1' };

let smtp: Awaited<ReturnType<typeof startMailServer>>;
let server: RunningServer;
let browser: Browser;
let articleUrl: string;
let articleTitle: string;
const axeFindings: string[] = [];

beforeAll(async () => {
  smtp = await startMailServer();
  server = await startServer({ env: { SMTP_URL: smtp.url, CAPTCHA_PROVIDER: 'none' } });
  // Links in mail name the public address; here that is the test server's.
  (server.ctx.config as { publicUrl: string }).publicUrl = server.url;
  browser = await launchBrowser();
  await buildUser(server.ctx.db, { ...AGENT, role: 'agent' });
  const bundle = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items as {
    id: number;
    title: string;
    can_create_issue: boolean;
    category_id: number | null;
  }[];
  const article = bundle.find((a) => a.can_create_issue && a.category_id !== null)!;
  articleUrl = `${server.url}/knowledge/instruction/${article.id}`;
  articleTitle = article.title;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
  expect(axeFindings).toEqual([]);
});

async function checkAxe(page: Page, screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  for (const violation of result.violations)
    axeFindings.push(
      `${screen}: ${violation.id} ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** The last link of this kind mailed to the address, as a mail client shows it. */
async function mailedLink(address: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => {
      const texts = smtp.mails.filter((mail) => mail.to.includes(address)).map((mail) => textOf(mail.raw));
      found = texts
        .map((text) => pattern.exec(text)?.[0])
        .filter(Boolean)
        .at(-1);
      return found;
    })
    .toBeDefined();
  return found!;
}

const expectNoProblems = (probe: PageProbe) => expect(probe.problems).toEqual([]);

describe('the customer portal', () => {
  it(
    'signs up and confirms by mail, signs in from an article and back, follows a request the agent answers',
    { timeout: 120_000 },
    async () => {
      const customer = await openPage(browser);
      const page = customer.page;
      await gotoHydrated(page, articleUrl);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(/\/login\?from=knowledge_base$/);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await checkAxe(page, 'sign-in');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill(CUSTOMER.name);
      await page.getByLabel('Email').fill(CUSTOMER.email);
      await page.getByLabel('Password').fill(CUSTOMER.password);
      await checkAxe(page, 'sign-up');
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByText(`We sent a link to ${CUSTOMER.email}`).waitFor();

      // The mailed link, opened in the browser that signed up, confirms the email and signs in at a press.
      await page.goto(await mailedLink(CUSTOMER.email, /http:\/\/\S+\/verify-email#\S+/));
      await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('button', { name: 'Confirm my email' }).click();
      await page.getByText('Your email is confirmed and you are signed in.').waitFor();
      // The fragment is gone from the address once used.
      expect(new URL(page.url()).hash).toBe('');

      // Out, then in again from the article: back on the article, the header shows the name.
      await gotoHydrated(page, articleUrl);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: CUSTOMER.name }).waitFor();
      await nav.getByRole('button', { name: 'Exit' }).click();
      await nav.getByRole('link', { name: 'Sign in' }).waitFor();
      await nav.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(CUSTOMER.email);
      await page.getByLabel('Password').fill('not my password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Wrong email or password.').waitFor();
      await page.getByLabel('Password').fill(CUSTOMER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(articleUrl);
      await page.getByRole('heading', { name: articleTitle }).waitFor();
      await nav.getByRole('link', { name: CUSTOMER.name }).waitFor();

      // A request from the article, filled in from the account.
      await page.locator('.request-toggle').click();
      await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe(CUSTOMER.email);
      await page.getByLabel('Message', { exact: true }).fill('The display shows E42 after the update.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('button', { name: 'Sent' }).waitFor();

      // It is under /issues, reached from the header.
      await nav.getByRole('link', { name: 'Tickets' }).click();
      await page.getByRole('heading', { name: 'My requests' }).waitFor();
      const row = page.locator('.issue-row').first();
      await row.waitFor();
      expect(await row.innerText()).toContain('New');
      await checkAxe(page, 'my requests');
      const title = await row.locator('.issue-title').innerText();
      const id = Number(/#(\d+)/.exec(await row.innerText())![1]);

      // The agent answers it in the inbox.
      const desk = await openPage(browser);
      await desk.page.goto(`${server.url}/admin/`);
      await desk.page.getByLabel('Email').fill(AGENT.email);
      await desk.page.getByLabel('Password').fill(AGENT.password);
      await desk.page.getByRole('button', { name: 'Sign in' }).click();
      await desk.page.getByRole('link', { name: title }).click();
      await desk.page.getByLabel(`Reply to ${CUSTOMER.name}`).fill('Please update to 2.0.4 and tell us.');
      await desk.page.getByRole('button', { name: 'Send reply' }).click();
      await desk.page.getByText('Reply sent.').waitFor();
      await deliverDue(server.ctx);

      // The customer's mail links the conversation; they answer with a file.
      const link = await mailedLink(CUSTOMER.email, new RegExp(`http://\\S+/issues/${id}\\b\\S*`));
      expect(link).not.toContain('key=');
      await gotoHydrated(page, link);
      const thread = page.locator('.thread-messages > li');
      await expect.poll(() => thread.count()).toBe(2);
      expect(await thread.nth(1).innerText()).toContain('Please update to 2.0.4 and tell us.');
      expect(await page.locator('.status-badge').first().innerText()).toBe('Awaiting your reply');
      await page.getByLabel('Your reply').fill('Updated, it works now.');
      await page.getByLabel('Attach files').setInputFiles({
        name: 'after-update.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('E42 gone'),
      });
      await page.getByRole('button', { name: 'Send the reply' }).click();
      await expect.poll(() => thread.count()).toBe(3);
      const attached = thread.nth(2).getByRole('link', { name: 'after-update.txt' });
      expect(
        await (await page.request.get(`${server.url}${await attached.getAttribute('href')}`)).text(),
      ).toBe('E42 gone');
      await checkAxe(page, 'conversation');

      // The agent sees the answer and solves the request; the customer sees it solved.
      await desk.page.reload();
      await desk.page.getByText('Updated, it works now.').waitFor();
      await desk.page.getByLabel('Status').selectOption('solved');
      await expect
        .poll(async () => {
          await page.reload();
          await page.locator('.status-badge').first().waitFor();
          return page.locator('.status-badge').first().innerText();
        })
        .toBe('Solved');
      await page.getByRole('button', { name: 'Reopen' }).waitFor();

      // The profile, on a phone.
      await page.setViewportSize(NARROW);
      await gotoHydrated(page, `${server.url}/user/profile`);
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      await checkAxe(page, 'profile');
      // The one failed call the browser reports is the wrong password tried on purpose.
      expect(customer.problems).toEqual([
        'error: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
      ]);
      await customer.context.close();
      await desk.context.close();
    },
  );

  it('mails the private link; the sending browser follows it meanwhile', { timeout: 60_000 }, async () => {
    const probe = await openPage(browser, { viewport: NARROW });
    const page = probe.page;
    await gotoHydrated(page, `${server.url}/issues/create`);
    // Sent empty: every required field marked as the article's form marks them, focus on the first.
    await page.getByRole('button', { name: 'Send' }).click();
    for (const label of ['Name', 'Email', 'Message']) {
      const field = page.getByLabel(label, { exact: true });
      expect(await field.getAttribute('aria-invalid'), label).toBe('true');
      expect(await page.locator(`#${await field.getAttribute('aria-describedby')}`).innerText()).toBe(
        'This field is required',
      );
    }
    expect(await page.getByLabel('Surname').getAttribute('aria-invalid')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
    // The same file picker: chosen files listed with their size, each removable.
    await page.getByLabel('Attach files').setInputFiles([
      { name: 'label.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(3000, 1) },
      { name: 'not-this.txt', mimeType: 'text/plain', buffer: Buffer.from('no') },
    ]);
    await page.getByRole('button', { name: 'Remove not-this.txt' }).click();
    expect(await page.locator('.attached-files li').allInnerTexts()).toEqual([
      expect.stringMatching(/label\.jpg\s+3 KB/),
    ]);
    await page.getByLabel('Name', { exact: true }).fill('Grace');
    await page.getByLabel('Surname').fill('Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Message').fill('Where is my parcel?\nOrdered last week.');
    await checkAxe(page, 'new request');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Your request has been sent' }).waitFor();
    expect(await page.locator('.request-sent-text').innerText()).toContain(
      "We'll reply by email to grace@example.com.",
    );
    // No private link on the page (anyone can type an address): it is mailed; this browser opens the request by its
    // cookie meanwhile.
    expect(await page.locator('.request-sent-text').innerText()).toContain(
      'The link to your request is on its way to grace@example.com',
    );
    expect(await page.locator('.private-link').count()).toBe(0);
    await page.getByRole('link', { name: 'Follow your request' }).click();
    await page.getByRole('heading', { name: 'Where is my parcel?' }).waitFor();
    expect(await page.locator('.thread-messages').innerText()).toContain(
      'The request was created through the client portal.',
    );
    await page.getByLabel('Your reply').fill('It is order 1234.');
    await page.getByRole('button', { name: 'Send the reply' }).click();
    await page.getByText('It is order 1234.').waitFor();
    // The receipt, mailed by the outbox, carries the private link.
    await deliverDue(server.ctx);
    const shown = await mailedLink('grace@example.com', /http:\/\/\S+\/issues\/\d+\?key=[A-Za-z0-9_-]{43}/);
    // The mailed link opens it here too; from then on it is the address owner's, and the cookie opens it no more.
    await gotoHydrated(page, shown);
    await page.getByText('It is order 1234.').waitFor();
    expectNoProblems(probe);
    await probe.context.close();

    // Another browser, without the key or the cookie, opens nothing at the same address.
    const other = await openPage(browser);
    await gotoHydrated(other.page, shown.replace(/\?key=.*/, ''));
    await other.page.getByText('Sign in to see your requests.').waitFor();
    // A key that no longer opens it leads to asking for a new link by email, which opens it again.
    await gotoHydrated(other.page, shown.replace(/\?key=.*/, `?key=${'x'.repeat(43)}`));
    await other.page.getByRole('link', { name: 'Get a new link' }).click();
    await other.page.getByRole('heading', { name: 'Get a new link to your requests' }).waitFor();
    await other.page.getByLabel('Email').fill('grace@example.com');
    await other.page.getByRole('button', { name: 'Send the link' }).click();
    await other.page.getByText('If requests were sent from grace@example.com without an account').waitFor();
    await gotoHydrated(
      other.page,
      await mailedLink('grace@example.com', /http:\/\/\S+\/issues\/\d+\?key=\S+/),
    );
    await other.page.getByText('It is order 1234.').waitFor();
    // The failed calls the browser reports are the two refused ones: without anything, and with the wrong key.
    expect(other.problems).toEqual([
      'error: Failed to load resource: the server responded with a status of 404 (Not Found)',
      'error: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    await other.context.close();
  });

  it('resets a forgotten password by mail, and signs in with the new one', { timeout: 60_000 }, async () => {
    const probe = await openPage(browser);
    const page = probe.page;
    await gotoHydrated(page, `${server.url}/login`);
    // Beside it, the way back to requests sent without an account.
    await page.getByRole('link', { name: 'Get a new link' }).waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(CUSTOMER.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If ${CUSTOMER.email} has an account`).waitFor();
    await page.goto(await mailedLink(CUSTOMER.email, /http:\/\/\S+\/new-password#\S+/));
    await page.getByLabel('New password').fill('a better password 2');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.getByRole('heading', { name: 'My requests' }).waitFor();
    await page.locator('.issue-row').first().waitFor();
    const signIn = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: CUSTOMER.email, password: 'a better password 2' }),
    });
    expect(signIn.status).toBe(200);
    expectNoProblems(probe);
    await probe.context.close();
  });

  it(
    'asks to sign in for an article for signed-in visitors, then shows it',
    { timeout: 60_000 },
    async () => {
      const member = { email: 'vera@example.com', name: 'Vera Member', password: 'members only 1' };
      await buildUser(server.ctx.db, member);
      const open = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items[0] as {
        section_id: number;
        category_id: number | null;
      };
      const secret = await buildArticle(server.ctx.db, {
        section_id: open.section_id,
        category_id: open.category_id,
        title: 'Partner price list',
        body_html: '<p>Prices for partners only.</p>',
        visibility: 'signed_in',
      });
      const sheet = await buildFile(server.ctx, {
        name: 'partner-prices.txt',
        content: 'prices',
        articleId: secret.id,
      });
      const secretUrl = `${server.url}/knowledge/instruction/${secret.id}`;

      const probe = await openPage(browser);
      const page = probe.page;
      // From the help centre's page, as a visitor following a link someone shared.
      await gotoHydrated(page, `${server.url}/knowledge/`);
      await page.evaluate((url) => {
        const link = document.createElement('a');
        link.href = url;
        link.textContent = 'shared link';
        document.body.append(link);
      }, secretUrl);
      await page.getByRole('link', { name: 'shared link' }).click();
      await page.getByRole('heading', { name: 'Sign in to read this page' }).waitFor();
      await page.waitForSelector('html[data-hydrated]');
      expect(await page.content()).not.toContain('Partner price list');
      expect(await page.title()).toContain('Sign in to read this page');
      await checkAxe(page, 'sign-in prompt');
      const download = await fetch(`${server.url}/files/${sheet.id}/partner-prices.txt`);
      expect(download.status).toBe(404);

      await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(/\/login\?from=knowledge_base$/);
      // A page of its own (the portal may be another site): filled in once its scripts run.
      await page.waitForSelector('html[data-hydrated]');
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password').fill(member.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(secretUrl);
      await page.getByRole('heading', { name: 'Partner price list' }).waitFor();
      await page.getByText('Prices for partners only.').waitFor();
      // Its file downloads for them, by the session cookie the browser sends.
      const status = await page.evaluate(
        async (url) => (await fetch(url)).status,
        `/files/${sheet.id}/partner-prices.txt`,
      );
      expect(status).toBe(200);
      // Searching finds it now.
      await page.getByRole('combobox').fill('partner price');
      await page.getByRole('option', { name: /Partner price list/ }).waitFor();
      // The prompt is answered 401, as it should be, and Chromium notes it; nothing else.
      expect(probe.problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
      await probe.context.close();
    },
  );
});

describe('confirming an email', () => {
  it(
    'a confirmation link sends nothing until pressed, and in another browser asks for a password first',
    { timeout: 60_000 },
    async () => {
      const owner = { email: 'olga@example.com', name: 'Olga Owner', password: 'olga chose this 1' };
      // Signed up somewhere else (this is not the browser that holds the sign-up's cookie).
      const signedUp = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Someone Else', email: owner.email, password: 'not olga at all 1' }),
      });
      expect(signedUp.status).toBe(202);
      const link = await mailedLink(owner.email, /http:\/\/\S+\/verify-email#\S+/);
      for (const [viewport, name] of [
        [WIDE, 'wide'],
        [NARROW, 'narrow'],
      ] as const) {
        const visitor = await openPage(browser, { viewport });
        const page = visitor.page;
        const calls: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST') calls.push(request.url());
        });
        await page.goto(link);
        await page.waitForSelector('html[data-hydrated]');
        await page.getByRole('button', { name: 'Confirm my email' }).waitFor();
        await checkAxe(page, `confirm an email (${name})`);
        if (process.env.SCREENSHOTS_DIR)
          await page.screenshot({
            path: `${process.env.SCREENSHOTS_DIR}/verify-email-${name}.png`,
            fullPage: true,
          });
        // Opening the page sent nothing: the address is not confirmed, nobody is signed in.
        expect(calls).toEqual([]);
        expect((await findUserByEmail(server.ctx.db, owner.email))?.email_verified_at).toBeNull();
        await page.getByRole('button', { name: 'Confirm my email' }).click();
        await page
          .getByText(`To confirm ${owner.email} here, give your name and choose a password for its account`)
          .waitFor();
        // The name the account was signed up with may be a stranger's: the owner gives theirs, from an empty field.
        expect(await page.getByLabel('Your name').inputValue()).toBe('');
        if (process.env.SCREENSHOTS_DIR)
          await page.screenshot({
            path: `${process.env.SCREENSHOTS_DIR}/verify-email-password-${name}.png`,
            fullPage: true,
          });
        await checkAxe(page, `confirm an email with a password (${name})`);
        if (name === 'wide') {
          await visitor.context.close();
          continue;
        }
        await page.getByLabel('Password').fill(owner.password);
        await page.getByRole('button', { name: 'Save the password and confirm' }).click();
        // Without a name nothing is sent: the field says it is required.
        await page.locator('#name[aria-invalid="true"]').waitFor();
        await page.getByLabel('Your name').fill(owner.name);
        await page.getByRole('button', { name: 'Save the password and confirm' }).click();
        await page.getByText('Your email is confirmed and you are signed in.').waitFor();
        expect((await findUserByEmail(server.ctx.db, owner.email))?.name).toBe(owner.name);
        const signIn = await fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: owner.email, password: owner.password }),
        });
        expect(signIn.status).toBe(200);
        // The one error is the first press's answer: a password is needed here.
        expect(visitor.problems).toEqual([
          'error: Failed to load resource: the server responded with a status of 400 (Bad Request)',
        ]);
        await visitor.context.close();
      }
    },
  );
});

describe('invitations', () => {
  it(
    'an administrator invites a customer, who chooses a password from the mail and is signed in',
    { timeout: 90_000 },
    async () => {
      const admin = { email: 'boss@example.com', name: 'Bea Boss', password: 'runs the place 1' };
      const invitee = { email: 'ivan@example.com', name: 'Ivan Invited', password: 'chosen by me 1' };
      await buildUser(server.ctx.db, { ...admin, role: 'admin' });
      const desk = await openPage(browser);
      // Straight to the sign-in page: the app's front page would first be refused (401) without a session.
      await desk.page.goto(`${server.url}/admin/sign-in`);
      await desk.page.getByLabel('Email').fill(admin.email);
      await desk.page.getByLabel('Password').fill(admin.password);
      await desk.page.getByRole('button', { name: 'Sign in' }).click();
      await desk.page.getByRole('link', { name: 'Users' }).click();
      await desk.page.getByRole('link', { name: 'Customers' }).click();
      const form = desk.page.getByRole('form', { name: 'Invite a customer' });
      await form.getByLabel('Name').fill(invitee.name);
      await form.getByLabel('Email').fill(invitee.email);
      await form.getByRole('button', { name: 'Send the invitation' }).click();
      await form.getByText(`Invitation sent to ${invitee.email}.`).waitFor();
      const row = desk.page.getByRole('row', { name: new RegExp(invitee.name) });
      await row.getByText('Invited', { exact: true }).waitFor();
      await checkAxe(desk.page, 'users with an invitee');

      const customer = await openPage(browser, { viewport: NARROW });
      const page = customer.page;
      await page.goto(await mailedLink(invitee.email, /http:\/\/\S+\/accept-invite#\S+/));
      await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
      await page.waitForSelector('html[data-hydrated]');
      await checkAxe(page, 'accept an invitation');
      await page.getByLabel('Password').fill(invitee.password);
      await page.getByRole('button', { name: 'Save the password and sign in' }).click();
      await page.getByRole('heading', { name: 'My requests' }).waitFor();

      // The list no longer marks them, and the password signs in from now on.
      await desk.page.reload();
      await row.getByText('Yes', { exact: true }).waitFor();
      const signIn = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: invitee.email, password: invitee.password }),
      });
      expect(signIn.status).toBe(200);
      expectNoProblems(desk);
      expectNoProblems(customer);
      await desk.context.close();
      await customer.context.close();
    },
  );
});
