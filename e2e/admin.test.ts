import zlib from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminArticle, AdminTree, RevisionList } from '../src/shared/api/admin.ts';
import { signpost } from '../src/server/testing/run-cli.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { buildTicket, buildUpload } from '../src/server/testing/ticket-fixtures.ts';
import { launchBrowser, openPage, WIDE, type PageProbe } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

/** A small solid-colour PNG, made here so the test needs no fixture file. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3] as number),
  ]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const ADMIN = { email: 'ada@example.com', name: 'Ada Admin', password: 'correct horse battery' };
const EDITOR = { email: 'ed@example.com', name: 'Ed Author', password: 'not an admin 123' };
const AGENT = { email: 'desk@example.com', name: 'Dana Desk', password: 'answers requests 1' };
const UNIQUE = 'Zephyrmesh';
/**
 * What Chromium says when the preview's frame refuses to run the probe's script, and when the admin page's policy
 * refuses the probe's onerror as the rich view parses the source HTML (TipTap's DOMParser; nothing runs there).
 */
const SANDBOXED = /Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/;
const CSP_HANDLER = /Executing inline event handler violates the following Content Security Policy/;

let server: RunningServer;
let browser: Browser;
let probe: PageProbe;
let page: Page;
let token: string;
const axeFindings: string[] = [];

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'x-auth-token': token, 'content-type': 'application/json', ...init.headers },
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as T };
}

const tree = async () => (await api<AdminTree>('/api/admin/tree')).body;

/** axe on the screen as it is now; findings are collected and checked once at the end. */
async function checkAxe(screen: string) {
  // The article preview is the public page's markup in a frame without scripts, which axe cannot enter; the public
  // site's own tests check that markup.
  const result = await new AxeBuilder({ page }).exclude('iframe.preview-frame').analyze();
  for (const violation of result.violations)
    axeFindings.push(
      `${screen}: ${violation.id} ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

async function signIn(who: { email: string; password: string }) {
  await page.goto(`${server.url}/admin/`);
  await page.waitForURL(/\/admin\/sign-in/);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs out and waits until the token is gone: the sign-in page revokes it after its address has changed, so a page
 * loaded before that would still be signed in.
 */
async function signOutOfApp() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/admin\/sign-in$/);
  await page.getByText('You are signed out.').waitFor();
}

const treeItem = (name: string) => page.getByRole('treeitem', { name: new RegExp(`^${name}( Draft)?$`) });
/** The item's own row: the item itself spans its children too. */
const treeRow = (name: string) => treeItem(name).locator('.tree-row').first();
const status = () => page.locator('.editor-status');

beforeAll(async () => {
  // A portal to link to, so the branding page's portal switch changes what the public header shows.
  server = await startServer({ env: { PORTAL_URL: 'https://portal.example.com' } });
  // The operator's way to make the first administrator.
  const made = await signpost(
    ['user', 'add', '--email', ADMIN.email, '--name', ADMIN.name, '--password', ADMIN.password, '--admin'],
    server.environment.env,
  );
  expect(made.code, made.stderr).toBe(0);
  await createUser(server.ctx.db, server.ctx.passwords, { ...EDITOR, role: 'customer' });
  await createUser(server.ctx.db, server.ctx.passwords, { ...AGENT, role: 'agent' });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  browser = await launchBrowser();
  probe = await openPage(browser, { viewport: WIDE });
  page = probe.page;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the admin app, one journey', () => {
  let articleId = 0;

  it('tells a signed-in non-administrator so, and lets them sign out', async () => {
    await signIn({ email: EDITOR.email, password: 'wrong password' });
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Wrong email or password');
    await checkAxe('sign-in with an error');
    await page.getByLabel('Password').fill(EDITOR.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'This account is not on the team' }).waitFor();
    await checkAxe('not on the team');
    await signOutOfApp();
  });

  it('shows an agent the requests only, and one request in full', async () => {
    const screenshot = await buildUpload(server.ctx, 'screen.png', 'not really a png');
    await buildTicket(server.ctx, { title: 'Older request', targets: [], now: Date.now() - 60_000 });
    const thermostat = await buildTicket(server.ctx, {
      title: 'The thermostat does not heat',
      description: 'It shows E4.\nSince yesterday.',
      targets: [],
      files: [screenshot],
    });
    await signIn(AGENT);
    await page.getByRole('heading', { name: 'Requests' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allInnerTexts()).toEqual([
      'Requests',
    ]);
    const titles = await page.locator('.requests-page tbody tr td:first-child').allInnerTexts();
    expect(titles.slice(0, 2)).toEqual(['The thermostat does not heat', 'Older request']);
    await checkAxe('requests');
    await page.getByRole('link', { name: 'The thermostat does not heat' }).click();
    await page.getByRole('heading', { name: 'The thermostat does not heat' }).waitFor();
    expect(await page.locator('.request-message').innerText()).toBe('It shows E4.\nSince yesterday.');
    expect(await page.getByRole('list', { name: 'Files' }).getByRole('listitem').allInnerTexts()).toEqual([
      'screen.png (16 B)',
    ]);
    await checkAxe('one request');
    // The agent answers: a reply (no SMTP here, and the form says so), then a note only the team sees.
    expect(await page.locator('.reply-form .field-hint').innerText()).toContain('Not emailed');
    // Written as rich text: a bold word from the toolbar reaches the conversation as bold.
    const replyBox = page.getByLabel('Reply to Ann Lee');
    await replyBox.fill('Unplug it for 30 seconds.\n\nThen tell us what it shows.');
    await replyBox.press('Control+End');
    await replyBox.press('Shift+Home');
    await page.locator('.reply-form').getByRole('button', { name: 'Bold' }).click();
    expect(await page.locator('.reply-form').getByRole('button', { name: 'Image' }).count()).toBe(0);
    await page.getByLabel('Attach files').setInputFiles({
      name: 'reset-steps.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('1. Unplug\n2. Wait\n3. Plug in\n'),
    });
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent.').waitFor();
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('waiting');
    await page.getByLabel('Internal note').check();
    await page.getByLabel('Note for the team').fill('Known sensor bug in 2.0.3.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added.').waitFor();
    const thread = page.getByRole('list', { name: 'Conversation' }).locator(':scope > li');
    expect(await thread.count()).toBe(3);
    expect(await thread.nth(1).innerText()).toContain('Then tell us what it shows.');
    expect(await thread.nth(1).locator('.thread-body strong').innerText()).toBe(
      'Then tell us what it shows.',
    );
    const attached = thread.nth(1).getByRole('link', { name: 'reset-steps.txt' });
    const download = await page.request.get(`${server.url}${await attached.getAttribute('href')}`);
    expect(await download.text()).toBe('1. Unplug\n2. Wait\n3. Plug in\n');
    expect(await thread.nth(2).innerText()).toMatch(/Internal note[\s\S]*Known sensor bug/);
    await page.getByLabel('Assignee').selectOption({ label: AGENT.name });
    await expect
      .poll(
        async () =>
          (await api<{ assignee_id: number }>(`/api/admin/tickets/${thermostat.id}`)).body.assignee_id,
      )
      .not.toBeNull();
    await page.reload();
    await page.getByRole('heading', { name: 'The thermostat does not heat' }).waitFor();
    expect(await page.getByLabel('Assignee').locator('option:checked').innerText()).toBe(AGENT.name);
    expect(await page.getByLabel('Status').inputValue()).toBe('waiting');
    await checkAxe('one request answered');
    // An address of the administrators' pages leads an agent back to the requests.
    await page.goto(`${server.url}/admin/branding`);
    await page.getByRole('heading', { name: 'Requests' }).waitFor();
    // The inbox by status: the answered request waits for the customer, the other is still new.
    const tabs = page.getByRole('navigation', { name: 'Requests by status' });
    expect(await tabs.getByRole('link', { name: /^Waiting for the customer/ }).innerText()).toMatch(/1$/);
    await tabs.getByRole('link', { name: /^Waiting for the customer/ }).click();
    await expect
      .poll(() => page.locator('.requests-page tbody tr td:first-child').allInnerTexts())
      .toEqual(['The thermostat does not heat']);
    await page.getByRole('link', { name: 'Show only requests given to me' }).click();
    await expect
      .poll(() => page.locator('.requests-page tbody tr td:first-child').allInnerTexts())
      .toEqual(['The thermostat does not heat']);
    // Words find a request by its thread too: the agent's reply said "Unplug".
    await page.getByRole('link', { name: 'Show everyone’s requests' }).click();
    await page.getByRole('link', { name: /^All/ }).click();
    await page.getByLabel('Find requests').fill('unplug');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page.locator('.requests-page tbody tr td:first-child').allInnerTexts())
      .toEqual(['The thermostat does not heat']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('unplug');
    await checkAxe('requests found by words');
    await checkAxe('requests by status');
    await signOutOfApp();
  });

  it('signs an admin in and creates a category inside a category', async () => {
    await signIn(ADMIN);
    await page.getByRole('heading', { name: 'Content' }).waitFor();
    await page.getByRole('tree').waitFor();
    await checkAxe('content home');
    // This server has neither SUPPORT_EMAIL nor a webhook: every page says requests reach nobody.
    expect(await page.getByRole('complementary', { name: 'Support requests' }).innerText()).toContain(
      'Support requests reach nobody.',
    );

    await treeRow('Getting started').click();
    await page.getByRole('button', { name: 'New category' }).click();
    const first = page.getByRole('dialog', { name: 'New category in “Getting started”' });
    await checkAxe('new category dialog');
    await first.getByLabel('Name').fill('Routers');
    await first.getByRole('button', { name: 'Create category' }).click();
    await expect.poll(() => treeItem('Routers').getAttribute('aria-selected')).toBe('true');
    // Focus follows once the dialog has closed, a render after the selection.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role')))
      .toBe('treeitem');

    await page.getByRole('button', { name: 'New category' }).click();
    const second = page.getByRole('dialog', { name: 'New category in “Routers”' });
    await second.getByLabel('Name').fill('Wi-Fi 7');
    await second.getByRole('button', { name: 'Create category' }).click();
    await treeItem('Wi-Fi 7').waitFor();

    const { categories, sections } = await tree();
    const routers = categories.find((c) => c.name === 'Routers');
    const wifi = categories.find((c) => c.name === 'Wi-Fi 7');
    expect(routers?.parent_id).toBeNull();
    expect(routers?.section_id).toBe(sections.find((s) => s.name === 'Getting started')?.id);
    expect(wifi?.parent_id).toBe(routers?.id);
  });

  it('writes an article with a table and an uploaded image, and saves a draft visitors cannot see', async () => {
    await treeRow('Wi-Fi 7').click();
    await page.getByRole('button', { name: 'New article' }).click();
    await page.getByRole('heading', { name: 'New article' }).waitFor();
    await page.getByLabel('Title').fill(`Set up the ${UNIQUE} router`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.keyboard.type(`Plug the ${UNIQUE} into the wall socket.`);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Insert table' }).click();
    const cells = ['Light', 'Meaning', 'Action', 'Green', 'Online', 'Nothing to do'];
    for (const [i, cell] of cells.entries()) {
      await page.keyboard.type(cell);
      if (i < cells.length - 1) await page.keyboard.press('Tab');
    }
    // Out of the table, to the paragraph after it.
    await page.keyboard.press('Control+End');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Image', exact: true }).click();
    await (
      await chooser
    ).setFiles({ name: 'router-front.png', mimeType: 'image/png', buffer: png(64, 48, [20, 120, 200]) });
    const image = page.locator('.editor-surface img');
    await image.waitFor();
    // The upload is visible to admins only, through the files cookie the admin API sets.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);
    await page.getByRole('button', { name: 'Info callout' }).click();
    await page.keyboard.type('Keep the router away from the microwave.');
    await checkAxe('editor with a table and an image');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/admin\/articles\/\d+$/);
    await expect.poll(() => status().innerText()).toContain('Saved as a draft');
    articleId = Number(/articles\/(\d+)/.exec(page.url())?.[1]);

    const saved = (await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body;
    expect(saved.published).toBe(false);
    expect(saved.body_html).toContain('<table');
    expect(saved.body_html).toContain('<td');
    expect(saved.body_html, saved.body_html).toMatch(/<img src="\/files\/\d+\/[^"]+" alt="router front"/);
    expect(saved.body_html).toContain('<div class="callout callout-info">');
    // The draft's image answers to admins only, until the article is published.
    const imageSrc = /<img src="([^"]+)"/.exec(saved.body_html)?.[1] ?? '';
    expect((await fetch(`${server.url}${imageSrc}`)).status).toBe(404);
    expect((await fetch(`${server.url}${imageSrc}`, { headers: { 'x-auth-token': token } })).status).toBe(
      200,
    );
    expect(saved.category_id).toBe((await tree()).categories.find((c) => c.name === 'Wi-Fi 7')?.id);
    await expect
      .poll(async () => (await treeItem(`Set up the ${UNIQUE} router`).innerText()).trim())
      .toContain('Draft');

    expect((await fetch(`${server.url}/api/knowledge/instruction/${articleId}`)).status).toBe(404);
    const publicPage = await fetch(`${server.url}/knowledge/instruction/${articleId}`, {
      redirect: 'manual',
    });
    expect([302, 404]).toContain(publicPage.status);
    if (publicPage.status === 404) expect(await publicPage.text()).not.toContain(UNIQUE);

    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.frameLocator('iframe.preview-frame');
    await expect.poll(() => preview.locator('h1').innerText()).toBe(`Set up the ${UNIQUE} router`);
    expect(await preview.locator('.rich-text table td').count()).toBe(6);
    // The whole public page as it will be once published: the header, and the trail through categories visitors
    // cannot see yet.
    await preview.locator('.site-header').waitFor();
    expect(await preview.locator('nav', { hasText: 'Routers' }).innerText()).toContain('Wi-Fi 7');
    // The draft's image shows there, through the admin's files cookie.
    await expect
      .poll(() =>
        preview
          .locator('.rich-text img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(64);
    await page.getByText('The preview shows the page visitors will see once it is published.').waitFor();
    // Drawn at a laptop's width and scaled to fit, or at a phone's.
    const frameWidth = () =>
      preview.locator('html').evaluate((html) => html.ownerDocument.defaultView?.innerWidth ?? 0);
    expect(await frameWidth()).toBeGreaterThan(1200);
    await page.getByRole('button', { name: 'Phone' }).click();
    await expect.poll(frameWidth).toBeLessThan(400);
    await page.getByRole('button', { name: 'Desktop' }).click();
    await checkAxe('draft preview');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
  });

  it('formats with the toolbar and takes a pasted image; the stored HTML has them', async () => {
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    // A screenshot pasted from the clipboard is uploaded and placed where the cursor is.
    const pasted = png(32, 24, [200, 60, 40]);
    await body.evaluate(
      (surface, bytes) => {
        const clipboard = new DataTransfer();
        clipboard.items.add(
          new File([new Uint8Array(bytes)], 'pasted-screenshot.png', { type: 'image/png' }),
        );
        surface.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }),
        );
      },
      [...pasted],
    );
    const pastedImage = page.locator('.editor-surface img[alt="pasted screenshot"]');
    await expect
      .poll(() => pastedImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(32);
    await page.getByLabel('Text style').selectOption({ label: 'Heading 2' });
    await page.keyboard.type('Before you start');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('A free wall socket');
    await page.keyboard.press('Enter');
    await page.keyboard.type('The Lumo app');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('The full guide: ');
    await page.getByRole('button', { name: 'Link' }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Link' });
    await linkDialog.getByLabel('Address').fill('https://example.com/lumo-guide');
    await linkDialog.getByRole('button', { name: 'Apply' }).click();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Code block' }).click();
    await page.keyboard.type('lumo pair --router');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => page.locator('.badge-unsaved').count()).toBe(0);

    const saved = (await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body.body_html;
    expect(saved).toMatch(/<h2>Before you start<\/h2>/);
    expect(saved).toMatch(/<ul><li><p>A free wall socket<\/p><\/li><li><p>The Lumo app<\/p><\/li><\/ul>/);
    expect(saved).toContain('<a href="https://example.com/lumo-guide">https://example.com/lumo-guide</a>');
    expect(saved).toMatch(/<pre><code>lumo pair --router<\/code><\/pre>/);
    const pastedSrc = /<img src="(\/files\/\d+\/pasted-screenshot\.png)" alt="pasted screenshot"/.exec(
      saved,
    )?.[1];
    expect(pastedSrc, saved).toBeDefined();
    const stored = await fetch(`${server.url}${pastedSrc}`, { headers: { 'x-auth-token': token } });
    expect(stored.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await stored.arrayBuffer()).equals(pasted)).toBe(true);

    // The preview shows unsaved changes as a save will store them: the probe's handler and script are gone.
    await page.getByRole('button', { name: 'HTML source' }).click();
    const source = page.getByRole('textbox', { name: 'Body' });
    const written = await source.inputValue();
    const probeHtml = `\n<p>Probe</p><img src="data:," onerror="parent.previewRan = true"><script>parent.previewRan = true</script>`;
    await source.fill(written + probeHtml);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('The preview shows unsaved changes as they will be saved').waitFor();
    const frame = page.frameLocator('iframe.preview-frame');
    await expect.poll(() => frame.locator('p', { hasText: 'Probe' }).count()).toBe(1);
    expect(await frame.locator('script, [onerror]').count()).toBe(0);
    // HTML the server will not take (over 1 MiB) is drawn as written, and nothing in it runs: the frame has no scripts.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await source.fill(`${written}${probeHtml}<p>${'x'.repeat(1_048_576)}</p>`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('The preview shows the article as written').waitFor();
    await expect
      .poll(() => frame.locator('img[src^="data:"]').evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    expect(await frame.locator('script').count()).toBe(1);
    expect(await page.evaluate(() => (window as { previewRan?: boolean }).previewRan)).toBeUndefined();
    expect(probe.problems.filter((problem) => SANDBOXED.test(problem)).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await source.fill(written + probeHtml);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Rich text' }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.locator('.badge-unsaved').count()).toBe(0);
  });

  it('publishes: the article is public, its image too, and the search box finds it', async () => {
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => status().innerText()).toContain('Published');
    const html = await (await fetch(`${server.url}/knowledge/instruction/${articleId}`)).text();
    expect(html).toContain(`Set up the ${UNIQUE} router`);
    expect(html).toContain('<table');
    const src = /<img src="(\/files\/[^"]+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect((await fetch(`${server.url}${src}`)).status).toBe(200);

    const visitor = await openPage(browser);
    await visitor.page.goto(`${server.url}/knowledge/`);
    await visitor.page.waitForSelector('html[data-hydrated]');
    await visitor.page.getByRole('combobox').fill(UNIQUE);
    await visitor.page.getByRole('option', { name: new RegExp(UNIQUE) }).waitFor();
    await visitor.context.close();
  });

  it('edits a category: its formatted description and its icon reach the public pages', async () => {
    // From the tree by keyboard: Enter opens a category's page (the Edit category button does too).
    await treeRow('Wi-Fi 7').click();
    expect(await page.getByRole('button', { name: 'Edit category' }).isEnabled()).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Edit category' }).waitFor();
    expect(await treeItem('Wi-Fi 7').getAttribute('aria-current')).toBe('page');
    expect(await page.getByLabel('Name').inputValue()).toBe('Wi-Fi 7');
    await page.getByRole('textbox', { name: 'Description' }).click();
    await page.keyboard.type('Works with ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('every Lumo hub');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('Band steering');
    await page.getByRole('radio', { name: 'An uploaded image' }).check();
    await page
      .getByLabel('Icon image')
      .setInputFiles({ name: 'wifi-icon.png', mimeType: 'image/png', buffer: png(40, 40, [0, 160, 90]) });
    await page.getByRole('img', { name: 'The icon now chosen' }).waitFor();
    await checkAxe('category page');
    await page.getByRole('button', { name: 'Save category' }).click();
    await expect.poll(() => status().innerText()).toContain('Saved at');

    const { categories } = await tree();
    const wifi = categories.find((c) => c.name === 'Wi-Fi 7');
    const routers = categories.find((c) => c.id === wifi?.parent_id);
    if (!wifi || !routers) throw new Error('Wi-Fi 7 should be in Routers');
    // The editor ends a document that ends in a list with an empty paragraph, as it does in articles.
    expect(wifi.description).toContain(
      '<p>Works with <strong>every Lumo hub</strong>.</p><ul><li><p>Band steering</p></li></ul>',
    );
    expect(wifi.icon_type).toBe('file');
    const own = await (await fetch(`${server.url}/knowledge/category/${wifi.id}`)).text();
    expect(own).toContain('<strong>every Lumo hub</strong>.</p><ul><li><p>Band steering</p></li></ul>');
    // The icon is the category's tile on its parent's page, and visitors can load it.
    const parent = await (await fetch(`${server.url}/knowledge/category/${routers.id}`)).text();
    expect(parent).toContain(`<img class="tile-icon" src="${wifi.icon_url}"`);
    expect((await fetch(`${server.url}${wifi.icon_url}`)).status).toBe(200);

    await treeRow(`Set up the ${UNIQUE} router`).click();
    await page.getByRole('heading', { name: 'Edit article' }).waitFor();
  });

  it('edits, compares two revisions and restores the older one', async () => {
    await page.getByLabel('Title').fill(`Set up the ${UNIQUE} router in five minutes`);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Then wait for the green light.');
    // The HTML source view shows what the rich view wrote, and what is typed there comes back.
    await page.getByRole('button', { name: 'HTML source' }).click();
    const source = page.getByRole('textbox', { name: 'Body' });
    expect(await source.inputValue()).toContain('<table');
    await source.fill(`${await source.inputValue()}\n<p>Written in the source view.</p>`);
    await page.getByRole('button', { name: 'Rich text' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Body' }).innerText())
      .toContain('Written in the source view.');
    // Settings and attachments: two files, the second moved up.
    await page.getByLabel('Language').selectOption('it');
    await page.getByLabel('Visitors can send a support request from this article').check();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (
      await chooser
    ).setFiles([
      { name: 'manual.txt', mimeType: 'text/plain', buffer: Buffer.from('the manual') },
      { name: 'warranty.txt', mimeType: 'text/plain', buffer: Buffer.from('the warranty') },
    ]);
    await page.getByRole('button', { name: 'Move warranty.txt up' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => status().innerText()).toContain('Saved at');
    const edited = (await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body;
    expect(edited.files.map((f) => f.name)).toEqual(['warranty.txt', 'manual.txt']);
    expect(edited.lang).toBe('it');
    expect(edited.can_create_issue).toBe(true);
    expect(edited.body_html).toContain('<p>Written in the source view.</p>');
    const publicHtml = await (await fetch(`${server.url}/knowledge/instruction/${articleId}`)).text();
    expect(publicHtml.indexOf('warranty.txt')).toBeLessThan(publicHtml.indexOf('manual.txt'));

    await page.getByRole('button', { name: 'Revisions' }).click();
    await page.getByRole('table').getByRole('row').nth(3).waitFor();
    const revisions = (await api<RevisionList>(`/api/admin/articles/${articleId}/revisions`)).body.items;
    expect(revisions.length).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.locator('.diff');
    await expect
      .poll(() => diff.locator('ins').allInnerTexts())
      .toEqual(expect.arrayContaining([expect.stringContaining('five minutes')]));
    await checkAxe('revisions with a diff');

    const published = revisions.find((r) => r.action === 'published') ?? revisions[1];
    await page.getByRole('button', { name: `Restore revision ${published?.number}` }).click();
    await checkAxe('restore dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe(`Set up the ${UNIQUE} router`);
    const now = (await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body;
    expect(now.title).toBe(`Set up the ${UNIQUE} router`);
    expect(now.body_html).not.toContain('green light');
    expect(now.files).toEqual([]);
    const after = (await api<RevisionList>(`/api/admin/articles/${articleId}/revisions`)).body.items;
    expect(after[0]?.action).toBe('restored');
  });

  it('reorders with the keyboard, announcing where the item went', async () => {
    const before = await tree();
    // The first category of a section with two or more, from the demo help centre.
    const section = before.sections.find(
      (s) => before.categories.filter((c) => c.section_id === s.id && c.parent_id === null).length >= 2,
    );
    const siblings = before.categories
      .filter((c) => c.section_id === section?.id && c.parent_id === null)
      .sort((a, b) => a.position - b.position);
    const [first, second] = siblings;
    if (!first || !second || !section) throw new Error('the demo needs a section with two categories');

    const item = treeItem(section.name);
    await treeRow(section.name).click();
    if ((await item.getAttribute('aria-expanded')) === 'false') await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(`tree-item-category-${first.id}`);
    await page.keyboard.press('Alt+ArrowDown');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Moved' }).innerText())
      .toContain(`Moved “${first.name}” to position 2 of ${siblings.length} in “${section.name}”`);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(`tree-item-category-${first.id}`);
    const after = await tree();
    const order = after.categories
      .filter((c) => c.section_id === section.id && c.parent_id === null)
      .sort((a, b) => a.position - b.position)
      .map((c) => c.id);
    expect(order.slice(0, 2)).toEqual([second.id, first.id]);
    expect(page.url()).toMatch(/\/admin\/articles\/\d+$/);

    // Alt+Right: into the category above; Alt+Left: back out, next to it.
    const announced = () => page.getByRole('status').filter({ hasText: 'Moved' }).innerText();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(announced).toContain(`Moved “${first.name}” to position `);
    await expect.poll(announced).toContain(`in “${second.name}”`);
    expect((await tree()).categories.find((c) => c.id === first.id)?.parent_id).toBe(second.id);
    // The moved item keeps the focus in its new place; the next key goes to it only once it has it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(`tree-item-category-${first.id}`);
    await page.keyboard.press('Alt+ArrowLeft');
    await expect
      .poll(announced)
      .toContain(`Moved “${first.name}” to position 2 of ${siblings.length} in “${section.name}”`);
    expect((await tree()).categories.find((c) => c.id === first.id)?.parent_id).toBeNull();
  });

  it('moves by drag and drop too', async () => {
    const { articles, categories } = await tree();
    const routers = categories.find((c) => c.name === 'Routers');
    const article = articles.find((a) => a.id === articleId);
    expect(article?.category_id).not.toBe(routers?.id);
    await treeRow(`Set up the ${UNIQUE} router`).dragTo(treeRow('Routers'));
    await expect
      .poll(async () => (await tree()).articles.find((a) => a.id === articleId)?.category_id)
      .toBe(routers?.id);

    // Dropped on the upper edge of a sibling, an item goes before it: the last category becomes the first.
    const topLevelOf = async (sectionId: number | undefined) =>
      (await tree()).categories
        .filter((c) => c.section_id === sectionId && c.parent_id === null)
        .sort((a, b) => a.position - b.position);
    const devices = (await tree()).sections.find((s) => s.name === 'Devices and setup');
    const before = await topLevelOf(devices?.id);
    const [first, last] = [before[0], before.at(-1)];
    if (!first || !last || first === last) throw new Error('the demo needs a section with two categories');
    await treeRow(last.name).dragTo(treeRow(first.name), { targetPosition: { x: 60, y: 2 } });
    await expect
      .poll(async () => (await topLevelOf(devices?.id)).map((c) => c.id))
      .toEqual([last.id, ...before.slice(0, -1).map((c) => c.id)]);
  });

  it('moves with the Move to… dialog, keeping the focus on the item', async () => {
    await treeRow('Wi-Fi 7').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move “Wi-Fi 7”' });
    await checkAxe('move dialog');
    await dialog.getByLabel('Move to').selectOption({ label: 'Devices and setup (top level)' });
    await dialog.getByLabel('At the start').check();
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Moved' }).innerText())
      .toContain('Moved “Wi-Fi 7” to position 1 of');
    const { categories, sections } = await tree();
    const devices = sections.find((s) => s.name === 'Devices and setup');
    const wifi = categories.find((c) => c.name === 'Wi-Fi 7');
    expect(wifi?.section_id).toBe(devices?.id);
    expect(wifi?.parent_id).toBeNull();
    const first = categories
      .filter((c) => c.section_id === devices?.id && c.parent_id === null)
      .sort((a, b) => a.position - b.position)[0];
    expect(first?.id).toBe(wifi?.id);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(`tree-item-category-${wifi?.id}`);
  });

  it('deletes a category that is not empty by moving its contents first', async () => {
    await treeRow('Routers').click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Routers”' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByText('is not empty').waitFor();
    await checkAxe('delete a category that is not empty');
    await dialog.getByLabel('Move the contents to').selectOption({ label: 'Getting started' });
    await dialog.getByRole('button', { name: 'Move the contents and delete' }).click();
    await expect.poll(async () => (await tree()).categories.some((c) => c.name === 'Routers')).toBe(false);
    const { articles, categories, sections } = await tree();
    const moved = articles.find((a) => a.id === articleId);
    expect(moved?.category_id).toBeNull();
    expect(moved?.section_id).toBe(sections.find((s) => s.name === 'Getting started')?.id);
    expect(categories.some((c) => c.name === 'Wi-Fi 7')).toBe(true);
  });

  it('changes the logo, background, language and portal link on the branding page; the public site follows', async () => {
    await page.getByRole('link', { name: 'Branding', exact: true }).click();
    await page.getByRole('heading', { name: 'Branding' }).waitFor();
    const preview = page.frameLocator('iframe.header-preview');
    await page.getByLabel('Help centre title', { exact: true }).fill('Ask Lumo anything');
    await expect.poll(() => preview.locator('.hero-title').innerText()).toBe('Ask Lumo anything');
    await page.getByLabel('Language of the public site').selectOption('it');
    await expect
      .poll(() => preview.locator('.search-input').getAttribute('placeholder'))
      .toBe('Scriva la sua domanda');
    await page
      .getByLabel('Logo')
      .setInputFiles({ name: 'lumo-logo.png', mimeType: 'image/png', buffer: png(120, 40, [250, 200, 0]) });
    await expect.poll(() => preview.locator('img.logo').count()).toBe(1);
    await page
      .getByLabel('Background')
      .setInputFiles({ name: 'lumo-sky.png', mimeType: 'image/png', buffer: png(200, 60, [30, 60, 160]) });
    await expect.poll(() => preview.locator('.site-header').getAttribute('style')).toContain('blob:');
    // The links the wide header shows; the burger menu's hold the same and more.
    const navLinks = preview.locator('.nav-wide .nav-link');
    const withPortal = await navLinks.count();
    await page.getByText('The portal is at https://portal.example.com.').waitFor();
    await page
      .getByLabel('Link the customer portal (tickets, new requests, the visitor’s profile)')
      .uncheck();
    await expect.poll(() => navLinks.count()).toBe(withPortal - 1);
    await checkAxe('branding');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).innerText())
      .toContain('public site');

    const visitor = await openPage(browser);
    // The demo is also in English, Russian and Portuguese: a visitor who reads Italian stays on the address
    // without a language, now the site's.
    await visitor.page.setExtraHTTPHeaders({ 'accept-language': 'it' });
    await visitor.page.goto(`${server.url}/knowledge/`);
    await visitor.page.waitForSelector('html[data-hydrated]');
    expect(new URL(visitor.page.url()).search).toBe('');
    expect(await visitor.page.getAttribute('html', 'lang')).toBe('it');
    const logo = visitor.page.locator('img.logo');
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(120);
    expect(await visitor.page.locator('.hero-title').innerText()).toBe('Ask Lumo anything');
    const background = /url\("?(\/files\/[^")]+)"?\)/.exec(
      (await visitor.page.locator('.site-header').getAttribute('style')) ?? '',
    )?.[1];
    expect(background).toMatch(/lumo-sky\.png$/);
    expect((await fetch(`${server.url}${background}`)).status).toBe(200);
    expect(await visitor.page.locator('.site-header a[href$="/issues"]').count()).toBe(0);
    await visitor.context.close();
  });

  it('turns the help centre off and on again, and links the portal again', async () => {
    const home = async () => {
      const response = await fetch(`${server.url}/knowledge/`, { redirect: 'manual' });
      return `${response.status} ${response.headers.get('location') ?? (await response.text())}`;
    };
    const helpCentreOn = page.getByLabel('The help centre is on');
    await helpCentreOn.uncheck();
    await page.getByText('The help centre is off: visitors see the not-found page.').waitFor();
    await page.getByRole('button', { name: 'Save branding' }).click();
    await expect.poll(home).toBe('302 /knowledge/notFound');

    await helpCentreOn.check();
    await page.getByLabel('Link the customer portal (tickets, new requests, the visitor’s profile)').check();
    await page.getByRole('button', { name: 'Save branding' }).click();
    await expect.poll(home).toMatch(/^200 [\s\S]*<a class="nav-link" href="[^"]*\/issues">/);
  });

  it('keeps unsaved changes through a reload and guards in-app navigation', async () => {
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await treeRow(`Set up the ${UNIQUE} router`).click();
    await page.getByRole('heading', { name: 'Edit article' }).waitFor();
    await page.getByLabel('Title').fill('A title nobody saved');
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type(' Unsaved words.');

    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const guard = page.getByRole('dialog', { name: 'Leave without saving?' });
    await guard.waitFor();
    await checkAxe('leave without saving');
    await guard.getByRole('button', { name: 'Stay and keep editing' }).click();
    expect(page.url()).toMatch(/\/admin\/articles\/\d+$/);

    // Give the local draft its moment, then reload; the browser asks first (beforeunload).
    await page.waitForTimeout(600);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await page.getByRole('heading', { name: /Unsaved changes from/ }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe(`Set up the ${UNIQUE} router`);
    await checkAxe('local draft offered');
    await page.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await page.getByLabel('Title').inputValue()).toBe('A title nobody saved');
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Body' }).innerText())
      .toContain('Unsaved words.');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByLabel('Title').inputValue()).toBe(`Set up the ${UNIQUE} router`);
  });

  it('refuses a save over someone else’s and offers to reload', async () => {
    await page.getByLabel('Title').fill('My version of the title');
    const elsewhere = await api<AdminArticle>(`/api/admin/articles/${articleId}`, {
      method: 'PATCH',
      body: JSON.stringify({ title: 'Changed in another tab' }),
    });
    expect(elsewhere.status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved this article' });
    await alert.waitFor();
    await checkAxe('save conflict');
    expect((await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body.title).toBe(
      'Changed in another tab',
    );
    await alert.getByRole('button', { name: 'Reload the article' }).click();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Changed in another tab');
    await expect.poll(() => alert.count()).toBe(0);
  });

  it('unpublishes: the article leaves the public site and is a draft again', async () => {
    expect((await fetch(`${server.url}/api/knowledge/instruction/${articleId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await expect.poll(() => status().innerText()).toContain('Unpublished: the article is a draft again.');
    expect((await fetch(`${server.url}/api/knowledge/instruction/${articleId}`)).status).toBe(404);
    expect((await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body.published).toBe(false);
    await page.getByRole('button', { name: 'Publish' }).waitFor();
    await expect
      .poll(async () => (await treeItem('Changed in another tab').innerText()).trim())
      .toContain('Draft');
  });

  it('saves over someone else’s when asked, and deletes the article once the deletion is confirmed', async () => {
    await page.getByLabel('Title').fill('Mine over theirs');
    const elsewhere = await api<AdminArticle>(`/api/admin/articles/${articleId}`, {
      method: 'PATCH',
      body: JSON.stringify({ title: 'Theirs again' }),
    });
    expect(elsewhere.status).toBe(200);
    await page.getByRole('button', { name: 'Save draft' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved this article' });
    await alert.getByRole('button', { name: 'Save mine over it' }).click();
    await expect
      .poll(async () => (await api<AdminArticle>(`/api/admin/articles/${articleId}`)).body.title)
      .toBe('Mine over theirs');
    await expect.poll(() => alert.count()).toBe(0);

    const confirmation = page.getByRole('dialog', { name: 'Delete this article?' });
    await page.getByRole('button', { name: 'Delete article' }).click();
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirmation.count()).toBe(0);
    expect((await api(`/api/admin/articles/${articleId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete article' }).click();
    await confirmation.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => (await api(`/api/admin/articles/${articleId}`)).status).toBe(404);
    await expect.poll(() => treeItem('Mine over theirs').count()).toBe(0);
  });

  it('manages users', async () => {
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => page.locator('.field-error').count()).toBeGreaterThan(0);
    await checkAxe('users with field errors');
    await page.getByLabel('Name').fill('Nia New');
    await page.getByLabel('Email').fill('nia@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('cell', { name: 'nia@example.com' }).waitFor();
    await page.getByRole('combobox', { name: 'Role of Nia New' }).selectOption('admin');
    await expect
      .poll(
        async () =>
          (await api<{ items: { email: string; role: string }[] }>('/api/admin/users')).body.items.find(
            (u) => u.email === 'nia@example.com',
          )?.role,
      )
      .toBe('admin');
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'nia@example.com' }).count()).toBe(0);
    await checkAxe('customers');
  });

  it('signs out: the token is revoked and the admin app asks to sign in again', async () => {
    const browserToken = await page.evaluate(() => localStorage.getItem('signpost.admin.token'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('signpost.admin.token'))).toBeNull();
    const me = await fetch(`${server.url}/api/user/me`, { headers: { 'x-auth-token': browserToken ?? '' } });
    expect(me.status).toBe(401);
    await page.goto(`${server.url}/admin/branding`);
    await page.waitForURL(/\/admin\/sign-in\?next=%2Fbranding$/);
  });

  it('has no accessibility violations on any admin screen, and nothing on the console', () => {
    expect(axeFindings).toEqual([]);
    // The refusals the journey provokes on purpose: a wrong password, a non-admin, empty fields, a full category,
    // the preview's refusal to run the probe's script.
    const expected = new RegExp(`status of (400|401|403|409) |${SANDBOXED.source}|${CSP_HANDLER.source}`);
    expect(probe.problems.filter((problem) => !expected.test(problem))).toEqual([]);
  });
});
