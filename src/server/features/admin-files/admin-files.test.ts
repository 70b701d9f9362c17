import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminFileList,
  type AdminArticle,
  type AdminFileList as AdminFileListType,
} from '../../../shared/api/admin.ts';
import { UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { malformedMultipart } from '../../testing/malformed-multipart.ts';
import { partialUploads } from '../../testing/stored-files.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { adminAndUserTokens, caller, multipart, ok, PNG, type Call } from '../../testing/admin-content.ts';

describe.each(testDialects())('admin uploads and who may download them on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let asUser: Call;
  let adminId: number;
  let sectionId: number;

  const upload = async (files: { name: string; content: string | Buffer }[]) => {
    const body = multipart(files);
    return (await ok<AdminFileListType>(as('POST', '/api/admin/files', body.payload, body.headers), 201))
      .items;
  };
  const fileCount = async () => (await t.ctx.db.selectFrom('files').select('id').execute()).length;
  const publicGet = (url: string) => t.app.inject(url);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tokens = await adminAndUserTokens(t);
    as = caller(t, tokens.adminToken);
    asUser = caller(t, tokens.userToken);
    adminId = tokens.admin.id;
    sectionId = (await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'Files' }), 201)).id;
  });
  afterAll(async () => t?.close());

  it('stores multipart file parts as content files and answers them', async () => {
    const body = multipart([
      { name: 'screen.png', content: PNG },
      { name: 'Návod «v2».pdf', content: '%PDF-1.4' },
    ]);
    const response = await as('POST', '/api/admin/files', body.payload, body.headers);
    expect(response.statusCode, response.body).toBe(201);
    const list = response.json<AdminFileListType>();
    expect(Value.Check(AdminFileList, list)).toBe(true);
    expect(list.items.map(({ name, size, mime_type }) => ({ name, size, mime_type }))).toEqual([
      { name: 'screen.png', size: PNG.length, mime_type: 'image/png' },
      { name: 'Návod «v2».pdf', size: 8, mime_type: 'application/pdf' },
    ]);
    expect(list.items[0]!.url).toBe(`/files/${list.items[0]!.id}/screen.png`);
    const rows = await t.ctx.db
      .selectFrom('files')
      .select(['kind', 'owner_key'])
      .where(
        'id',
        'in',
        list.items.map((f) => f.id),
      )
      .execute();
    expect(rows).toEqual([
      { kind: 'content', owner_key: `user:${adminId}` },
      { kind: 'content', owner_key: `user:${adminId}` },
    ]);
  });

  it('refuses more than 10 files, a file over 25 MB, other fields and other bodies, keeping nothing', async () => {
    const before = await fileCount();
    const eleven = multipart(
      Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, content: `file ${i}` })),
    );
    const tooMany = expectApiError(await as('POST', '/api/admin/files', eleven.payload, eleven.headers), 413);
    expect(tooMany.code).toBe('too_many_files');

    const big = multipart([
      { name: 'small.txt', content: 'fine' },
      { name: 'big.bin', content: Buffer.alloc(UPLOAD_FILE_MAX_BYTES + 1, 1) },
    ]);
    const tooBig = expectApiError(await as('POST', '/api/admin/files', big.payload, big.headers), 413, [
      'file',
    ]);
    expect(tooBig.code).toBe('file_too_large');

    const wrongField = multipart([{ name: 'x.txt', content: 'x' }]);
    const payload = Buffer.from(
      wrongField.payload.toString('latin1').replace('name="file"', 'name="other"'),
      'latin1',
    );
    expectApiError(await as('POST', '/api/admin/files', payload, wrongField.headers), 400, ['other']);
    expectApiError(await as('POST', '/api/admin/files', { file: 'x' }), 415, ['file']);
    expect(await fileCount()).toBe(before);
  });

  it('answers 400 naming file to a malformed multipart body, keeping nothing', async () => {
    const before = await fileCount();
    for (const [variant, type, body] of malformedMultipart('file')) {
      const response = await as('POST', '/api/admin/files', body, { 'content-type': type });
      expect(response.statusCode, variant).toBe(400);
      expectApiError(response, 400, ['file']);
    }
    expect(await fileCount()).toBe(before);
    expect(await partialUploads(t.ctx)).toBe(0);
  });

  it('shows a fresh upload only to admins: by header, or by the cookie the admin API sets', async () => {
    const [file] = await upload([{ name: 'fresh.png', content: Buffer.concat([PNG, Buffer.from('fresh')]) }]);
    expectApiError(await publicGet(file!.url), 404);
    expectApiError(await asUser('GET', file!.url), 404);

    const byHeader = await as('GET', file!.url);
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.headers['cache-control']).toBe('private, no-store');

    const treeResponse = await as('GET', '/api/admin/tree');
    const setCookie = String(treeResponse.headers['set-cookie']);
    expect(setCookie).toMatch(/^signpost_admin=[^;]+; Path=\/files; HttpOnly; SameSite=Strict/);
    // One caller's answer (it carries a token): kept by nobody.
    expect(treeResponse.headers['cache-control']).toBe('private, no-store');
    const cookie = setCookie.split(';')[0]!;
    const byCookie = await t.app.inject({ url: file!.url, headers: { cookie } });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.rawPayload.subarray(0, PNG.length).equals(PNG)).toBe(true);
    expectApiError(await t.app.inject({ url: file!.url, headers: { cookie: 'signpost_admin=forged' } }), 404);
  });

  it('makes the images and attachments of an article public while it is published, and only then', async () => {
    const [image, attachment, linked] = await upload([
      { name: 'step.png', content: Buffer.concat([PNG, Buffer.from('step')]) },
      { name: 'manual.pdf', content: '%PDF manual' },
      { name: 'linked.txt', content: 'linked from the body' },
    ]);
    const article = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', {
        section_id: sectionId,
        title: 'Pictured',
        body_html: `<p><img src="${image!.url}" alt="Step"> see <a href="${linked!.url}">notes</a></p>`,
        file_ids: [attachment!.id],
      }),
      201,
    );
    expect(article.body_html).toContain(`<img src="${image!.url}" alt="Step" loading="lazy" />`);
    for (const file of [image, attachment, linked]) {
      expectApiError(await publicGet(file!.url), 404);
      expect((await as('GET', file!.url)).statusCode).toBe(200);
    }

    await ok(as('PATCH', `/api/admin/articles/${article.id}`, { published: true }));
    for (const file of [image, attachment, linked]) {
      const response = await publicGet(file!.url);
      expect(response.statusCode, file!.name).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    }

    await ok(as('PATCH', `/api/admin/articles/${article.id}`, { published: false }));
    for (const file of [image, attachment, linked]) expectApiError(await publicGet(file!.url), 404);
  });

  it('makes a logo public once the branding uses it', async () => {
    const [logo, notImage] = await upload([
      { name: 'logo.png', content: Buffer.concat([PNG, Buffer.from('logo')]) },
      { name: 'logo.svg', content: '<svg onload="alert(1)"/>' },
    ]);
    expectApiError(await publicGet(logo!.url), 404);
    expectApiError(await as('PATCH', '/api/admin/branding', { logo_file_id: notImage!.id }), 400, [
      'logo_file_id',
    ]);
    await ok(as('PATCH', '/api/admin/branding', { logo_file_id: logo!.id }));
    expect((await publicGet('/api/settings/branding')).json()).toMatchObject({ logo_url: logo!.url });
    expect((await publicGet(logo!.url)).statusCode).toBe(200);
    await ok(as('PATCH', '/api/admin/branding', { logo_file_id: null }));
    expect((await publicGet('/api/settings/branding')).json()).toMatchObject({ logo_url: null });
    expectApiError(await publicGet(logo!.url), 404);
  });
});
