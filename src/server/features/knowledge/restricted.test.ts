import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../shared/constants.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import { PNG, signIn } from '../../testing/admin-content.ts';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import { contentLinkSigner } from '../../files/content-file-links.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildCategory, buildFile, buildSection, buildUser } from '../../testing/factories.ts';
import { sendHttp } from '../../testing/http-client.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

/** Words that appear only in what is for signed-in visitors. */
const HIDDEN_WORDS = [
  'Partner pricing',
  'Partners',
  'Deal desk',
  'Members area',
  'Members welcome',
  'zanzibar',
];

describe.each(testDialects())('content for signed-in visitors on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  let guides: SectionRow, members: SectionRow;
  let setup: CategoryRow, partners: CategoryRow, deals: CategoryRow, vault: CategoryRow;
  let install: ArticleRow, pricing: ArticleRow, dealDesk: ArticleRow, welcome: ArticleRow;
  let sheet: FileRow, icon: FileRow, openManual: FileRow;
  let cookie: string;
  let token: string;
  let adminToken: string;

  beforeAll(async () => {
    // Revisions known fresh for a minute: kept answers then go out before the framework (serveFromMemory).
    t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none', REVISION_CHECK_MS: '60000' });
    const { db } = t.ctx;
    guides = await buildSection(db, { name: 'Guides', position: 1 });
    members = await buildSection(db, { name: 'Members area', position: 2, visibility: 'signed_in' });
    setup = await buildCategory(db, { section_id: guides.id, name: 'Setup', position: 1 });
    icon = await buildFile(t.ctx, { name: 'partners.png', content: PNG });
    partners = await buildCategory(db, {
      section_id: guides.id,
      name: 'Partners',
      position: 2,
      visibility: 'signed_in',
      icon_file_id: icon.id,
      icon_type: 'file',
    });
    deals = await buildCategory(db, { parent_id: partners.id, name: 'Deals', position: 1 });
    install = await buildArticle(db, {
      category_id: setup.id,
      title: 'Install the router',
      body_html: '<p>Plug the router in and wait.</p>',
      position: 1,
    });
    pricing = await buildArticle(db, {
      category_id: setup.id,
      title: 'Partner pricing',
      body_html: '<p>The zanzibar discount for routers.</p>',
      visibility: 'signed_in',
      position: 2,
    });
    dealDesk = await buildArticle(db, {
      category_id: deals.id,
      title: 'Deal desk',
      body_html: '<p>Ask the zanzibar desk about routers.</p>',
    });
    welcome = await buildArticle(db, {
      section_id: members.id,
      title: 'Members welcome',
      body_html: '<p>Welcome, zanzibar members.</p>',
    });
    // Beside the welcome (restricted by its section), one restricted by itself: both counted for a member.
    await buildArticle(db, {
      section_id: members.id,
      title: 'Members handbook',
      body_html: '<p>Rules.</p>',
      visibility: 'signed_in',
    });
    // Open itself, but everything in it is for signed-in visitors.
    vault = await buildCategory(db, { section_id: guides.id, name: 'Vault', position: 3 });
    await buildArticle(db, {
      category_id: vault.id,
      title: 'Vault contents',
      body_html: '<p>Inside.</p>',
      visibility: 'signed_in',
    });
    sheet = await buildFile(t.ctx, {
      name: 'price-sheet.pdf',
      content: '%PDF-1.4 prices',
      articleId: pricing.id,
    });
    openManual = await buildFile(t.ctx, {
      name: 'manual.pdf',
      content: '%PDF-1.4 manual',
      articleId: install.id,
    });

    await buildUser(db, { name: 'Cora Member', email: 'cora@example.com' });
    token = await signIn(t, 'cora@example.com');
    cookie = `${SESSION_COOKIE}=${token}`;
    await buildUser(db, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin' });
    adminToken = await signIn(t, 'ada@example.com');

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const anonymous = (url: string) => t.app.inject({ url });
  const asMember = (url: string) => t.app.inject({ url, headers: { cookie } });
  const expectSignInRequired = (response: Parameters<typeof expectApiError>[0]) =>
    expect(expectApiError(response, 401).code).toBe('sign_in_required');
  const expectNothingHidden = (body: string, url: string) => {
    for (const word of HIDDEN_WORDS) expect(body, `${url} shows ${word}`).not.toContain(word);
  };

  it('leaves it out of every list, count and search for a visitor who is not signed in', async () => {
    const sections = await anonymous('/api/knowledge/all-sections');
    expect(sections.json<{ name: string }[]>().map((s) => s.name)).toEqual(['Guides']);
    expect(sections.json<{ count_category: number }[]>()[0]?.count_category).toBe(1);

    const categories = await anonymous('/api/knowledge/category');
    expect(categories.json<{ items: { name: string }[] }>().items.map((c) => c.name)).toEqual(['Setup']);
    const setupCounts = categories.json<{ items: { count_instruction: number }[] }>().items[0];
    expect(setupCounts?.count_instruction).toBe(1);

    const bundle = await anonymous('/api/knowledge/instruction');
    expect(bundle.json<{ items: { title: string }[] }>().items.map((a) => a.title)).toEqual([
      'Install the router',
    ]);
    const page = await anonymous(`/api/knowledge/instruction?category_id=${setup.id}&page=1&per_page=10`);
    expect(page.json<{ items: { title: string }[] }>().items.map((a) => a.title)).toEqual([
      'Install the router',
    ]);
    expect(page.json<{ _meta: { totalCount: number } }>()._meta.totalCount).toBe(1);

    const found = await anonymous('/api/search/knowledge/suggestions?text=zanzibar&limit=10&perPage=10');
    expect(found.json<{ items: unknown[] }>().items).toEqual([]);
    const routers = await anonymous('/api/search/knowledge/suggestions?text=routers&limit=10&perPage=10');
    expect(routers.json<{ items: { title: string }[] }>().items.map((i) => i.title)).toEqual([
      'Install the router',
    ]);
    // Setup holds one article for this visitor, which its page lists (a lone category is shown, not skipped).
    const setupPage = await anonymous(`/knowledge/category/${setup.id}`);
    expect(setupPage.statusCode).toBe(200);
    expect(setupPage.body).toContain(`/knowledge/instruction/${install.id}`);
    expectNothingHidden(setupPage.body, 'the Setup page');

    for (const url of [
      '/api/knowledge/all-sections',
      '/api/knowledge/category',
      '/api/knowledge/instruction',
      `/api/knowledge/instruction?section_id=${members.id}&page=1&per_page=10`,
      '/api/search/knowledge/suggestions?text=zanzibar&limit=10&perPage=10',
      '/knowledge/',
      `/knowledge/instruction/${install.id}`,
      `/api/knowledge/instruction/${install.id}/nearby`,
      '/knowledge/search?query=discount',
    ]) {
      const answer = await anonymous(url);
      expect(answer.statusCode, url).toBe(200);
      expectNothingHidden(answer.body, url);
    }
  });

  it('answers a direct link with a prompt to sign in (401) that shows nothing of it', async () => {
    for (const id of [pricing.id, dealDesk.id, welcome.id]) {
      const call = await anonymous(`/api/knowledge/instruction/${id}`);
      expectSignInRequired(call);
      expectNothingHidden(call.body, `instruction ${id}`);
      const nearby = await anonymous(`/api/knowledge/instruction/${id}/nearby`);
      expectSignInRequired(nearby);
      expectNothingHidden(nearby.body, `what is near instruction ${id}`);
      const page = await anonymous(`/knowledge/instruction/${id}`);
      expect(page.statusCode).toBe(401);
      expect(page.body).toContain('Sign in to read this page');
      expect(page.body).toContain('/login?from=knowledge_base');
      expectNothingHidden(page.body, `page of ${id}`);
    }
    for (const id of [partners.id, deals.id, vault.id]) {
      expectSignInRequired(
        await anonymous(`/api/knowledge/category?category_parent_id=${id}&page=1&per_page=10`),
      );
      expectSignInRequired(
        await anonymous(`/api/knowledge/instruction?category_id=${id}&page=1&per_page=10`),
      );
      const page = await anonymous(`/knowledge/category/${id}`);
      expect(page.statusCode).toBe(401);
      expect(page.body).toContain('Sign in to read this page');
      expectNothingHidden(page.body, `category page ${id}`);
    }
    // What does not exist stays not found.
    expectApiError(await anonymous('/api/knowledge/instruction/999999'), 404);
    expectApiError(await anonymous('/api/knowledge/instruction/999999/nearby'), 404);
    expectApiError(await anonymous('/api/knowledge/category?category_parent_id=999999&page=1'), 404);
    expect((await anonymous('/knowledge/category/999999')).statusCode).toBe(404);
  });

  it('serves its files only to a signed-in visitor', async () => {
    for (const file of [sheet, icon]) {
      expectApiError(await anonymous(`/files/${file.id}/${file.original_name}`), 404);
      const mine = await asMember(`/files/${file.id}/${file.original_name}`);
      expect(mine.statusCode, file.original_name).toBe(200);
      expect(mine.headers['cache-control']).toBe('private, no-store');
    }
    const open = await anonymous(`/files/${openManual.id}/manual.pdf`);
    expect(open.statusCode).toBe(200);
    expect(open.headers['cache-control']).toMatch(/^public/);
  });

  it('gives a visitor known by the token alone signed links to its files, that open those files only', async () => {
    // A browser signed in through a portal elsewhere sends the token with the site's calls, not with a link or <img>.
    const sheetPath = `/files/${sheet.id}/price-sheet.pdf`;
    await t.ctx.db
      .updateTable('articles')
      .set({
        body_html:
          `<p>The zanzibar discount for routers.</p><p><img src="${sheetPath}" alt=""></p>` +
          `<p><a href="/files/${sheet.id}/it's%20(1).pdf">Old prices</a></p>`,
      })
      .where('id', '=', pricing.id)
      .execute();
    try {
      const headers = { 'x-auth-token': token };
      const read = async (url: string) => {
        const response = await t.app.inject({ url, headers });
        expect(response.statusCode, url).toBe(200);
        return response.json<{ items?: Instruction[] } & Instruction>();
      };
      const article = await read(`/api/knowledge/instruction/${pricing.id}`);
      const link = article.files[0]?.link ?? '';
      expect(link).toMatch(new RegExp(`^${sheetPath}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      expect(article.description).toContain(`src="${link.replaceAll('&', '&amp;')}"`);
      // A name with a quote or brackets (encodeURIComponent keeps them) is signed whole too.
      const named = /href="(\/files\/\d+\/it's%20\(1\)\.pdf\?[^"]+)"/.exec(article.description)?.[1] ?? '';
      expect((await anonymous(named.replaceAll('&amp;', '&'))).statusCode).toBe(200);
      // The same link on the category's page of articles; an open article's files stay plain.
      const listed = await read(`/api/knowledge/instruction?category_id=${setup.id}&page=1&per_page=10`);
      const byTitle = new Map(listed.items?.map((item) => [item.title, item]));
      expect(byTitle.get('Partner pricing')?.files[0]?.link).toBe(link);
      expect(byTitle.get('Install the router')?.files[0]?.link).toBe(`/files/${openManual.id}/manual.pdf`);

      const opened = await anonymous(link);
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toBe('%PDF-1.4 prices');
      expect(opened.headers['cache-control']).toBe('private, no-store');
      const query = link.slice(link.indexOf('?'));
      expectApiError(await anonymous(`/files/${icon.id}/partners.png${query}`), 404);
      expectApiError(
        await anonymous(`${sheetPath}${query.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`),
        404,
      );
      const yesterday = await contentLinkSigner(t.ctx.db, Date.now() - 3 * 24 * 60 * 60 * 1000);
      expectApiError(await anonymous(yesterday.path(sheet.id, sheetPath)), 404);
    } finally {
      await t.ctx.db
        .updateTable('articles')
        .set({ body_html: '<p>The zanzibar discount for routers.</p>' })
        .where('id', '=', pricing.id)
        .execute();
    }
  });

  it('shows everything to a signed-in visitor with a confirmed email, by cookie or token, kept by nobody', async () => {
    for (const headers of [{ cookie }, { 'x-auth-token': token }]) {
      const sections = await t.app.inject({ url: '/api/knowledge/all-sections', headers });
      expect(sections.json<{ name: string }[]>().map((s) => s.name)).toEqual(['Guides', 'Members area']);
      expect(sections.headers['cache-control']).toBe('private, no-store');
      const bundle = await t.app.inject({ url: '/api/knowledge/instruction', headers });
      expect(bundle.json<{ items: unknown[] }>().items).toHaveLength(6);
      const members = sections.json<{ name: string; count_instruction: number }[]>()[1];
      expect(members?.count_instruction).toBe(2);
      const found = await t.app.inject({
        url: '/api/search/knowledge/suggestions?text=zanzibar&limit=10&perPage=10',
        headers,
      });
      expect(
        found
          .json<{ items: { title: string }[] }>()
          .items.map((i) => i.title)
          .sort(),
      ).toEqual(['Deal desk', 'Members welcome', 'Partner pricing']);
      const article = await t.app.inject({ url: `/api/knowledge/instruction/${dealDesk.id}`, headers });
      expect(article.statusCode).toBe(200);
      expect(article.json<{ title: string }>().title).toBe('Deal desk');
    }
    const page = await asMember(`/knowledge/instruction/${pricing.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Partner pricing');
    expect(page.headers['cache-control']).toBe('private, no-store');
    const category = await asMember(`/knowledge/category/${partners.id}`);
    expect(category.statusCode).toBe(200);
    expect(category.body).toContain('Deals');
  });

  it('never answers a signed-in visitor from the answers kept for everyone, over a real connection', async () => {
    for (const path of ['/knowledge/', '/api/knowledge/all-sections']) {
      await sendHttp(port, { path });
      const kept = await sendHttp(port, { path });
      expect(kept.headers['x-cache'], path).toBe('hit');
      expectNothingHidden(kept.body, path);
      const mine = await sendHttp(port, { path, headers: { cookie } });
      expect(mine.headers['x-cache'], path).toBeUndefined();
      expect(mine.body, path).toContain('Members area');
      expect(mine.headers['cache-control'], path).toBe('private, no-store');
    }
    // A call with the token alone (a browser signed in through a portal elsewhere) is theirs too.
    const path = '/api/knowledge/all-sections';
    const byToken = await sendHttp(port, { path, headers: { 'x-auth-token': token } });
    expect(byToken.body).toContain('Members area');
    expect(byToken.headers['cache-control']).toBe('private, no-store');
  });

  it('treats an account whose email is not confirmed as anyone else', async () => {
    const user = await buildUser(t.ctx.db, { email: 'unconfirmed@example.com' });
    const own = await signIn(t, 'unconfirmed@example.com');
    await t.ctx.db.updateTable('users').set({ email_verified_at: null }).where('id', '=', user.id).execute();
    expectSignInRequired(
      await t.app.inject({
        url: `/api/knowledge/instruction/${pricing.id}`,
        headers: { 'x-auth-token': own },
      }),
    );
  });

  it('follows the team when they restrict or open something, in lists and search at once', async () => {
    const admin = { 'x-auth-token': adminToken };
    const tree = await t.app.inject({ url: '/api/admin/tree', headers: admin });
    const stored = tree.json<{ articles: { id: number; visibility: string }[] }>().articles;
    expect(stored.find((a) => a.id === pricing.id)?.visibility).toBe('signed_in');

    const closed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/articles/${install.id}`,
      headers: admin,
      payload: { visibility: 'signed_in' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<{ visibility: string }>().visibility).toBe('signed_in');
    const routers = await anonymous('/api/search/knowledge/suggestions?text=routers&limit=10&perPage=10');
    expect(routers.json<{ items: unknown[] }>().items).toEqual([]);
    expect((await anonymous('/api/knowledge/all-sections')).json<unknown[]>()).toEqual([]);
    expectApiError(await anonymous(`/files/${openManual.id}/manual.pdf`), 404);

    const opened = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/categories/${partners.id}`,
      headers: admin,
      payload: { visibility: 'everyone' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const deskFound = await anonymous('/api/search/knowledge/suggestions?text=desk&limit=10&perPage=10');
    expect(deskFound.json<{ items: { title: string }[] }>().items.map((i) => i.title)).toEqual(['Deal desk']);
    expect((await anonymous(`/api/knowledge/instruction/${dealDesk.id}`)).statusCode).toBe(200);

    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/sections/${members.id}`,
      headers: admin,
      payload: { visibility: 'friends' },
    });
    expectApiError(refused, 400, ['visibility']);
  });
});
