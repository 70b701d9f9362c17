import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import type { ArticleRow } from '../../db/tables.ts';
import { SESSION_COOKIE } from '../../../shared/constants.ts';
import { ADMIN_FILES_COOKIE } from '../../accounts/admin-session.ts';
import { PNG, signIn } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildCategory, buildFile, buildUser } from '../../testing/factories.ts';
import { updateBranding } from '../../settings/branding.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

/** The name a browser saves: RFC 6266's filename* when present, else the plain filename. */
function savedName(disposition: string | undefined): string | undefined {
  const extended = /filename\*=UTF-8''([^;]+)/.exec(disposition ?? '');
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  return /filename="([^"]*)"/.exec(disposition ?? '')?.[1];
}

describe.each(testDialects())('file downloads on %s', (dialect) => {
  let t: TestApp;
  let published: ArticleRow;
  let draft: ArticleRow;
  const link = (file: { id: number; original_name: string }) =>
    `/files/${file.id}/${encodeURIComponent(file.original_name)}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    published = await buildArticle(t.ctx.db, { title: 'Published' });
    draft = await buildArticle(t.ctx.db, { title: 'Draft', published: 0 });
  });
  afterAll(async () => t?.close());

  it('downloads an attachment with its original name, type, size and nosniff', async () => {
    const file = await buildFile(t.ctx, {
      name: 'manual.pdf',
      content: '%PDF-1.4 manual',
      articleId: published.id,
    });
    const response = await t.app.inject(link(file));
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('%PDF-1.4 manual');
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-length']).toBe(String('%PDF-1.4 manual'.length));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    expect(response.headers['content-disposition']).toContain('filename="manual.pdf"');
    expect(savedName(response.headers['content-disposition'])).toBe('manual.pdf');
  });

  it('keeps a non-ASCII name exactly, with an ASCII fallback', async () => {
    const name = 'Руководство «пользователя» "v2".txt';
    const file = await buildFile(t.ctx, { name, content: 'инструкция', articleId: published.id });
    const article = (await t.app.inject(`/api/knowledge/instruction/${published.id}`)).json<Instruction>();
    const ref = article.files.find((f) => f.id === file.id);
    expect(ref).toEqual({
      id: file.id,
      original_name: name,
      file_size: Buffer.byteLength('инструкция'),
      link: link(file),
    });

    const response = await t.app.inject(ref?.link ?? '');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('инструкция');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const disposition = response.headers['content-disposition'] as string;
    expect(savedName(disposition)).toBe(name);
    // The fallback is plain ASCII and cannot end the quoted string early.
    expect(/filename="([^"]*)"/.exec(disposition)?.[1]).toMatch(/^[\x20-\x7e]+\.txt$/);
  });

  it('names the file as stored whatever name the URL carries', async () => {
    const file = await buildFile(t.ctx, {
      name: 'report.csv',
      content: 'a,b\n1,2\n',
      articleId: published.id,
    });
    const response = await t.app.inject(`/files/${file.id}/other.html`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(savedName(response.headers['content-disposition'])).toBe('report.csv');
  });

  it('shows safe images inline and makes everything else a download', async () => {
    const png = await buildFile(t.ctx, { name: 'screen.png', content: PNG, articleId: published.id });
    const image = await t.app.inject(link(png));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toMatch(/^inline; filename="screen.png"/);
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const cases: [string, string][] = [
      ['drawing.svg', 'image/svg+xml'],
      ['page.html', 'text/html; charset=utf-8'],
      ['data.bin', 'application/octet-stream'],
      ['NO-EXTENSION', 'application/octet-stream'],
    ];
    for (const [name, type] of cases) {
      const file = await buildFile(t.ctx, {
        name,
        content: `<svg onload="alert(1)">${name}</svg>`,
        articleId: published.id,
      });
      const response = await t.app.inject(link(file));
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type'], name).toBe(type);
      expect(response.headers['content-disposition'], name).toMatch(/^attachment;/);
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      expect(response.headers['content-security-policy'], name).toBe("default-src 'none'; sandbox");
    }
  });

  it('sends SVG and text as attachments and PNG inline, each sandboxed and nosniff, 304s included', async () => {
    const expectations: [string, string | Buffer, RegExp][] = [
      [
        'diagram.svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        /^attachment;/,
      ],
      ['DIAGRAM.SVG', '<svg onload="alert(1)"/>', /^attachment;/],
      ['notes.txt', '<script>alert(1)</script>', /^attachment;/],
      ['photo.png', Buffer.concat([PNG, Buffer.from('photo')]), /^inline;/],
    ];
    for (const [name, content, disposition] of expectations) {
      const file = await buildFile(t.ctx, { name, content, articleId: published.id });
      const first = await t.app.inject(link(file));
      const again = await t.app.inject({
        url: link(file),
        headers: { 'if-none-match': first.headers.etag as string },
      });
      for (const response of [first, again]) {
        expect(response.headers['content-disposition'], name).toMatch(disposition);
        expect(response.headers['content-security-policy'], name).toBe("default-src 'none'; sandbox");
        expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      }
      expect(again.statusCode, name).toBe(304);
    }
  });

  it('serves a file attached to no article when it is the logo or an icon, and hides it otherwise', async () => {
    const logo = await buildFile(t.ctx, {
      name: 'logo.png',
      content: Buffer.concat([PNG, Buffer.from('logo')]),
    });
    // An upload nothing uses yet is the admin's alone.
    expectApiError(await t.app.inject(link(logo)), 404, []);
    await updateBranding(t.ctx.db, { logo_url: link(logo) });
    expect((await t.app.inject(link(logo))).statusCode).toBe(200);

    const icon = await buildFile(t.ctx, {
      name: 'icon.png',
      content: Buffer.concat([PNG, Buffer.from('icon')]),
    });
    const category = await buildCategory(t.ctx.db, { icon_file_id: icon.id, icon_type: 'file' });
    await buildArticle(t.ctx.db, { category_id: category.id });
    expect((await t.app.inject(link(icon))).statusCode).toBe(200);
  });

  it('serves a category’s icon and the files in its description only while visitors can see the category', async () => {
    const icon = await buildFile(t.ctx, {
      name: 'hidden-icon.png',
      content: Buffer.concat([PNG, Buffer.from('h')]),
    });
    const inText = await buildFile(t.ctx, { name: 'plan.pdf', content: 'the plan for next year' });
    const category = await buildCategory(t.ctx.db, {
      icon_file_id: icon.id,
      icon_type: 'file',
      description: `<p>See <a href="${link(inText)}">the plan</a>.</p>`,
    });
    const child = await buildCategory(t.ctx.db, { parent_id: category.id });
    const article = await buildArticle(t.ctx.db, { category_id: child.id, published: 0 });
    // Nothing published below it: the category is hidden, and so are its files.
    for (const file of [icon, inText]) expectApiError(await t.app.inject(link(file)), 404, []);
    await t.ctx.db.updateTable('articles').set({ published: 1 }).where('id', '=', article.id).execute();
    for (const file of [icon, inText]) expect((await t.app.inject(link(file))).statusCode).toBe(200);
  });

  it('answers 404 for a file attached only to unpublished articles', async () => {
    const secret = await buildFile(t.ctx, {
      name: 'secret.pdf',
      content: 'secret plans',
      articleId: draft.id,
    });
    const otherDraft = await buildArticle(t.ctx.db, { published: 0 });
    await t.ctx.db
      .insertInto('article_files')
      .values({ article_id: otherDraft.id, file_id: secret.id, position: 0 })
      .execute();
    const error = expectApiError(await t.app.inject(link(secret)), 404, []);
    expect(error.code).toBe('not_found');
  });

  it('follows the articles: published with one of them, hidden when it is unpublished', async () => {
    const shared = await buildFile(t.ctx, {
      name: 'shared.pdf',
      content: 'shared bytes',
      articleId: draft.id,
    });
    const article = await buildArticle(t.ctx.db);
    await t.ctx.db
      .insertInto('article_files')
      .values({ article_id: article.id, file_id: shared.id, position: 0 })
      .execute();
    expect((await t.app.inject(link(shared))).statusCode).toBe(200);

    await t.ctx.db.updateTable('articles').set({ published: 0 }).where('id', '=', article.id).execute();
    expectApiError(await t.app.inject(link(shared)), 404);
  });

  it('knows the editor by the header or the files cookie, and a visitor by the session cookie alone', async () => {
    const admin = await signIn(t, (await buildUser(t.ctx.db, { role: 'admin' })).email);
    const customer = await signIn(t, (await buildUser(t.ctx.db)).email);
    const restricted = await buildArticle(t.ctx.db, { title: 'Members', visibility: 'signed_in' });
    const draftFile = await buildFile(t.ctx, { name: 'draft.png', content: PNG, articleId: draft.id });
    const membersFile = await buildFile(t.ctx, {
      name: 'members.png',
      content: PNG,
      articleId: restricted.id,
    });
    const status = async (file: { id: number; original_name: string }, headers: Record<string, string>) =>
      (await t.app.inject({ url: link(file), headers })).statusCode;
    const stale = 'x'.repeat(43);

    // A draft's file: the editor's alone, an admin known by the header or by the files cookie an <img> sends.
    expect(await status(draftFile, { 'x-auth-token': admin })).toBe(200);
    expect(await status(draftFile, { cookie: `${ADMIN_FILES_COOKIE}=${admin}` })).toBe(200);
    expect(
      await status(draftFile, { cookie: `${SESSION_COOKIE}=${customer}; ${ADMIN_FILES_COOKIE}=${admin}` }),
    ).toBe(200);
    // The session cookie makes an admin a visitor only; a header decides who the editor is, a stale one no one.
    expect(await status(draftFile, { cookie: `${SESSION_COOKIE}=${admin}` })).toBe(404);
    expect(
      await status(draftFile, { 'x-auth-token': customer, cookie: `${ADMIN_FILES_COOKIE}=${admin}` }),
    ).toBe(404);
    expect(await status(draftFile, { 'x-auth-token': stale, cookie: `${ADMIN_FILES_COOKIE}=${admin}` })).toBe(
      404,
    );

    // A file for signed-in visitors: theirs by the session cookie; a caller known by the header alone takes the
    // signed link its page gave.
    expect(await status(membersFile, { cookie: `${SESSION_COOKIE}=${customer}` })).toBe(200);
    expect(await status(membersFile, { cookie: `${SESSION_COOKIE}=${stale}` })).toBe(404);
    expect(await status(membersFile, { 'x-auth-token': customer })).toBe(404);
    expect(await status(membersFile, { 'x-auth-token': admin })).toBe(200);
    expect(await status(membersFile, {})).toBe(404);
  });

  it('answers 404 for an unknown file and for an uploaded (non-content) file', async () => {
    expectApiError(await t.app.inject('/files/999999/nothing.pdf'), 404, []);
    const upload = await buildFile(t.ctx, { name: 'upload.pdf', content: 'a visitor upload' });
    await t.ctx.db.updateTable('files').set({ kind: 'upload' }).where('id', '=', upload.id).execute();
    expectApiError(await t.app.inject(link(upload)), 404, []);
  });

  it('answers 400 naming id for a bad file id', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectApiError(await t.app.inject(`/files/${id}/x.pdf`), 400, ['id']);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const file = await buildFile(t.ctx, { name: 'cached.txt', content: 'cache me', articleId: published.id });
    const first = await t.app.inject(link(file));
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({ url: link(file), headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers the uniform 500, not a half-sent download, when the stored bytes are gone', async () => {
    const file = await buildFile(t.ctx, {
      name: 'lost.pdf',
      content: 'bytes that will be lost',
      articleId: published.id,
    });
    await t.ctx.storage.remove(file.storage_key);
    const response = await t.app.inject(link(file));
    const error = expectApiError(response, 500, []);
    expect(error.code).toBe('internal_error');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.headers['cache-control'] ?? '').not.toContain('public');
    expect(response.body).not.toContain(file.storage_key);
  });
});

describe.each(testDialects())('token lookups of a download on %s', (dialect) => {
  /** The queries that read or write auth_tokens, counted on the app's own database handle. */
  let lookups = 0;
  const countTokenQueries: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (JSON.stringify(node).includes('"auth_tokens"')) lookups++;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, {}, (ctx) => ({ ...ctx, db: ctx.db.withPlugin(countTokenQueries) }));
  });
  afterAll(async () => t?.close());

  it('looks no token up for a file everyone may read, and at most one for any other', async () => {
    const admin = await signIn(t, (await buildUser(t.ctx.db, { role: 'admin' })).email);
    const customer = await signIn(t, (await buildUser(t.ctx.db)).email);
    const other = await signIn(t, (await buildUser(t.ctx.db)).email);
    const open = await buildArticle(t.ctx.db, { title: 'Open' });
    const members = await buildArticle(t.ctx.db, { title: 'Members', visibility: 'signed_in' });
    const draft = await buildArticle(t.ctx.db, { title: 'Draft', published: 0 });
    const openFile = await buildFile(t.ctx, { name: 'open.png', content: PNG, articleId: open.id });
    const membersFile = await buildFile(t.ctx, { name: 'members.png', content: PNG, articleId: members.id });
    const draftFile = await buildFile(t.ctx, { name: 'draft.png', content: PNG, articleId: draft.id });
    const everyToken = (editor: string) => ({
      'x-auth-token': editor,
      cookie: `${SESSION_COOKIE}=${other}; ${ADMIN_FILES_COOKIE}=${admin}`,
    });
    const download = async (file: { id: number }, headers: Record<string, string>) => {
      lookups = 0;
      const response = await t.app.inject({ url: `/files/${file.id}/x.png`, headers });
      return { status: response.statusCode, lookups };
    };

    expect(await download(openFile, everyToken(customer))).toEqual({ status: 200, lookups: 0 });
    expect(await download({ id: 999_999 }, everyToken(customer))).toEqual({ status: 404, lookups: 0 });
    // The header names a visitor, not the editor: the session cookie's visitor reads the members' file.
    expect(await download(membersFile, everyToken(customer))).toEqual({ status: 200, lookups: 1 });
    expect(await download(membersFile, everyToken(admin))).toEqual({ status: 200, lookups: 1 });
    expect(await download(draftFile, everyToken(customer))).toEqual({ status: 404, lookups: 1 });
    expect(await download(draftFile, everyToken(admin))).toEqual({ status: 200, lookups: 1 });
    expect(await download(draftFile, {})).toEqual({ status: 404, lookups: 0 });
  });
});
