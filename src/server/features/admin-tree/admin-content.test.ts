import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminArticle,
  AdminCategory,
  AdminSection,
  AdminTree,
  type AdminArticle as AdminArticleType,
  type AdminCategory as AdminCategoryType,
  type AdminSection as AdminSectionType,
  type AdminTree as AdminTreeType,
} from '../../../shared/api/admin.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { readSetting } from '../../settings/settings.repository.ts';
import { adminAndUserTokens, caller, multipart, ok, PNG, type Call } from '../../testing/admin-content.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(testDialects())('the admin content API on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let asUser: Call;
  let anonymous: Call;

  const tree = () => ok<AdminTreeType>(as('GET', '/api/admin/tree'));
  const section = (name: string, position?: number) =>
    ok<AdminSectionType>(as('POST', '/api/admin/sections', { name, position }), 201);
  const category = (body: Record<string, unknown>) =>
    ok<AdminCategoryType>(as('POST', '/api/admin/categories', body), 201);
  const article = (body: Record<string, unknown>) =>
    ok<AdminArticleType>(as('POST', '/api/admin/articles', body), 201);
  const names = (items: { name?: string; title?: string; position: number }[]) =>
    [...items].sort((a, b) => a.position - b.position).map((item) => item.name ?? item.title);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tokens = await adminAndUserTokens(t);
    as = caller(t, tokens.adminToken);
    asUser = caller(t, tokens.userToken);
    anonymous = caller(t, undefined);
  });
  afterAll(async () => t?.close());

  describe('permissions', () => {
    /** One valid request per admin route of the contract, so a missing check would change something. */
    const requests = async () => {
      const s = await section('Guarded');
      const c = await category({ section_id: s.id, name: 'Guarded category' });
      const a = await article({ section_id: s.id, category_id: c.id, title: 'Guarded article' });
      const other = await ok<{ id: number }>(
        as('POST', '/api/admin/users', {
          email: `guarded${s.id}@example.com`,
          name: 'G',
          password: 'password123',
        }),
        201,
      );
      const r = a.revision_id;
      const upload = multipart([{ name: 'x.png', content: PNG }]);
      return [
        ['GET /api/admin/tree', 'GET', '/api/admin/tree'],
        ['POST /api/admin/sections', 'POST', '/api/admin/sections', { name: 'X' }],
        ['PATCH /api/admin/sections/:id', 'PATCH', `/api/admin/sections/${s.id}`, { name: 'X' }],
        ['DELETE /api/admin/sections/:id', 'DELETE', `/api/admin/sections/${s.id}?content=delete`],
        ['POST /api/admin/categories', 'POST', '/api/admin/categories', { section_id: s.id, name: 'X' }],
        ['PATCH /api/admin/categories/:id', 'PATCH', `/api/admin/categories/${c.id}`, { name: 'X' }],
        ['DELETE /api/admin/categories/:id', 'DELETE', `/api/admin/categories/${c.id}?content=delete`],
        ['GET /api/admin/articles/:id', 'GET', `/api/admin/articles/${a.id}`],
        ['POST /api/admin/articles', 'POST', '/api/admin/articles', { section_id: s.id, title: 'X' }],
        [
          'PATCH /api/admin/articles/:id',
          'PATCH',
          `/api/admin/articles/${a.id}`,
          { title: 'X', published: true },
        ],
        ['DELETE /api/admin/articles/:id', 'DELETE', `/api/admin/articles/${a.id}`],
        ['POST /api/admin/move', 'POST', '/api/admin/move', { kind: 'section', id: s.id, index: 0 }],
        ['POST /api/admin/preview', 'POST', '/api/admin/preview', { html: '<p>x</p>' }],
        [
          'POST /api/admin/preview/article',
          'POST',
          '/api/admin/preview/article',
          {
            section_id: s.id,
            category_id: c.id,
            title: 'P',
            body_html: '<p>x</p>',
            can_create_issue: false,
            file_ids: [],
          },
        ],
        ['GET /api/admin/articles/:id/revisions', 'GET', `/api/admin/articles/${a.id}/revisions`],
        [
          'GET /api/admin/articles/:id/revisions/:revision',
          'GET',
          `/api/admin/articles/${a.id}/revisions/${r}`,
        ],
        ['GET /api/admin/articles/:id/diff', 'GET', `/api/admin/articles/${a.id}/diff?from=${r}&to=${r}`],
        [
          'POST /api/admin/articles/:id/revisions/:revision/restore',
          'POST',
          `/api/admin/articles/${a.id}/revisions/${r}/restore`,
        ],
        ['GET /api/admin/branding', 'GET', '/api/admin/branding'],
        ['GET /api/admin/feedback', 'GET', '/api/admin/feedback'],
        ['GET /api/admin/synonyms', 'GET', '/api/admin/synonyms'],
        ['PUT /api/admin/synonyms', 'PUT', '/api/admin/synonyms', { sets: { en: [['hack', 'crack']] } }],
        ['GET /api/admin/search-learning', 'GET', '/api/admin/search-learning'],
        ['DELETE /api/admin/search-learning', 'DELETE', '/api/admin/search-learning'],
        ['PATCH /api/admin/branding', 'PATCH', '/api/admin/branding', { site_title: 'Hacked' }],
        ['GET /api/admin/users', 'GET', '/api/admin/users'],
        [
          'POST /api/admin/users',
          'POST',
          '/api/admin/users',
          { email: 'intruder@example.com', name: 'I', password: 'password123', role: 'admin' },
        ],
        ['PATCH /api/admin/users/:id', 'PATCH', `/api/admin/users/${other.id}`, { role: 'admin' }],
        ['DELETE /api/admin/users/:id', 'DELETE', `/api/admin/users/${other.id}`],
        [
          'POST /api/admin/invitations',
          'POST',
          '/api/admin/invitations',
          { email: 'invited@example.com', name: 'Invited' },
        ],
        ['POST /api/admin/files', 'POST', '/api/admin/files', upload.payload, upload.headers],
        ['GET /api/admin/translations', 'GET', '/api/admin/translations'],
        ...(['sections', 'categories', 'articles'] as const).flatMap((kind) => {
          const id = kind === 'sections' ? s.id : kind === 'categories' ? c.id : a.id;
          const path = `/api/admin/${kind}/${id}/translations/ru`;
          const route = `/api/admin/${kind}/:id/translations/:lang`;
          const text = kind === 'articles' ? { title: 'X' } : { name: 'X' };
          return [
            [`GET ${route}`, 'GET', path],
            [`PUT ${route}`, 'PUT', path, text],
            [`DELETE ${route}`, 'DELETE', path],
            [`PUT ${route}/published`, 'PUT', `${path}/published`, { published: true }],
          ];
        }),
      ] as [string, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string, unknown?, Record<string, string>?][];
    };

    const state = async () => ({
      tree: await tree(),
      users: (await as('GET', '/api/admin/users')).json(),
      branding: (await anonymous('GET', '/api/settings/branding')).json(),
      files: (await t.ctx.db.selectFrom('files').select('id').execute()).length,
      revisions: (await t.ctx.db.selectFrom('article_revisions').select('id').execute()).length,
      contentRevision: await readSetting(t.ctx.db, 'content_revision'),
      synonyms: await readSetting(t.ctx.db, 'search_synonyms'),
    });

    it('covers every admin route of the contract', async () => {
      const covered = (await requests()).map(([route]) => route).sort();
      const contract = Object.values(endpoints)
        .filter(
          (e) => e.path.startsWith('/api/admin/') && e.role === 'admin' && !/search-report/.test(e.path),
        )
        .map((e) => `${e.method} ${e.path}`);
      expect(covered).toEqual(contract.sort());
    });

    it('answers 401 to anonymous callers and 403 to users who are not admins, changing nothing', async () => {
      const list = await requests();
      const before = await state();
      for (const [route, method, url, payload, headers] of list) {
        expectApiError(await anonymous(method, url, payload, headers), 401);
        expectApiError(await caller(t, 'not-a-token')(method, url, payload, headers), 401);
        const forbidden = expectApiError(await asUser(method, url, payload, headers), 403);
        expect(forbidden.code, route).toBe('forbidden');
      }
      expect(await state()).toEqual(before);
    });
  });

  describe('branding', () => {
    it("clears a title to bring back the interface's own, in the site's language", async () => {
      await ok(
        as('PATCH', '/api/admin/branding', { knowledge_title: 'Ask us', site_title: 'Acme', lang: 'it' }),
      );
      const cleared = await ok<{ knowledge_title: string; site_title: string }>(
        as('PATCH', '/api/admin/branding', { knowledge_title: '  ', site_title: '' }),
      );
      // The admin app edits what is set (nothing); visitors read the defaults in Italian.
      expect(cleared).toMatchObject({ knowledge_title: '', site_title: '', lang: 'it' });
      expect(await ok(as('GET', '/api/admin/branding'))).toMatchObject({
        knowledge_title: '',
        site_title: '',
      });
      expect(await ok(anonymous('GET', '/api/settings/branding'))).toMatchObject({
        knowledge_title: 'Come possiamo aiutarla?',
        site_title: 'Centro assistenza',
      });
      await ok(as('PATCH', '/api/admin/branding', { lang: 'en' }));
    });
  });

  describe('sections', () => {
    it('creates, renames and orders sections, answering ISO times', async () => {
      const first = await section('Alpha');
      expect(Value.Check(AdminSection, first)).toBe(true);
      expect(first.updated_at).toMatch(ISO);
      const second = await section('Beta');
      const inFront = await section('Gamma', 0);
      const sections = (await tree()).sections;
      const ours = sections.filter((s) => [first.id, second.id, inFront.id].includes(s.id));
      expect(names(ours)).toEqual(['Gamma', 'Alpha', 'Beta']);
      expect(sections.map((s) => s.position)).toEqual(sections.map((_, i) => i));

      const renamed = await ok<AdminSectionType>(
        as('PATCH', `/api/admin/sections/${first.id}`, { name: ' Alpha 2 ' }),
      );
      expect(renamed.name).toBe('Alpha 2');
      expectApiError(await as('PATCH', `/api/admin/sections/${first.id}`, { name: '   ' }), 400, ['name']);
      expectApiError(await as('PATCH', `/api/admin/sections/${first.id}`, { name: '' }), 400, ['name']);
      expectApiError(await as('PATCH', '/api/admin/sections/999999', { name: 'x' }), 404);
    });

    it('refuses to delete a section with content (409 not_empty) unless told what to do with it', async () => {
      const s = await section('Full');
      const c = await category({ section_id: s.id, name: 'Inside' });
      await article({ section_id: s.id, category_id: c.id, title: 'Deep' });
      await article({ section_id: s.id, title: 'Top' });
      const before = await tree();
      const refused = expectApiError(await as('DELETE', `/api/admin/sections/${s.id}`), 409);
      expect(refused.code).toBe('not_empty');
      expect(refused.message).toMatch(/1 category and 2 articles.*content=delete/);
      expect(await tree()).toEqual(before);

      expectApiError(
        await as('DELETE', `/api/admin/sections/${s.id}?content=delete&move_to_section_id=${s.id}`),
        400,
        ['content', 'move_to_section_id'],
      );
      expectApiError(await as('DELETE', `/api/admin/sections/${s.id}?move_to_section_id=${s.id}`), 400, [
        'move_to_section_id',
      ]);
      expectApiError(await as('DELETE', `/api/admin/sections/${s.id}?move_to_category_id=${c.id}`), 409, [
        'move_to_category_id',
      ]);

      expect(await ok(as('DELETE', `/api/admin/sections/${s.id}?content=delete`))).toEqual({ ok: true });
      const after = await tree();
      expect(after.sections.some((x) => x.id === s.id)).toBe(false);
      expect(after.categories.some((x) => x.section_id === s.id)).toBe(false);
      expect(after.articles.some((x) => x.section_id === s.id)).toBe(false);
      expect(await ok(as('DELETE', `/api/admin/sections/${(await section('Empty')).id}`))).toEqual({
        ok: true,
      });
      expect((await tree()).sections.map((x) => x.position)).toEqual(after.sections.map((_, i) => i));
    });

    it('moves a section’s content to another section, or into a category, before deleting it', async () => {
      const from = await section('Leaving');
      const c = await category({ section_id: from.id, name: 'Carried' });
      const sub = await category({ section_id: from.id, parent_id: c.id, name: 'Carried child' });
      const deep = await article({ section_id: from.id, category_id: sub.id, title: 'Carried deep' });
      const top = await article({ section_id: from.id, title: 'Carried top' });
      const to = await section('Staying');
      await ok(as('DELETE', `/api/admin/sections/${from.id}?move_to_section_id=${to.id}`));
      const after = await tree();
      expect(after.categories.find((x) => x.id === c.id)).toMatchObject({
        section_id: to.id,
        parent_id: null,
      });
      expect(after.categories.find((x) => x.id === sub.id)).toMatchObject({
        section_id: to.id,
        parent_id: c.id,
      });
      expect(after.articles.find((x) => x.id === deep.id)).toMatchObject({
        section_id: to.id,
        category_id: sub.id,
      });
      expect(after.articles.find((x) => x.id === top.id)).toMatchObject({
        section_id: to.id,
        category_id: null,
      });

      const another = await section('Leaving too');
      const loose = await article({ section_id: another.id, title: 'Into a category' });
      await ok(as('DELETE', `/api/admin/sections/${another.id}?move_to_category_id=${c.id}`));
      expect((await tree()).articles.find((x) => x.id === loose.id)).toMatchObject({
        section_id: to.id,
        category_id: c.id,
      });
    });
  });

  describe('categories', () => {
    it('creates categories at any depth with sanitised descriptions and icons', async () => {
      const s = await section('Categories');
      const top = await category({
        section_id: s.id,
        name: 'Top',
        description: '<p onclick="x()">Hello <script>alert(1)</script><b>there</b></p>',
        font_icon: 'fa-wrench',
      });
      expect(Value.Check(AdminCategory, top)).toBe(true);
      expect(top).toMatchObject({
        description: '<p>Hello <b>there</b></p>',
        icon_type: 'font',
        font_icon: 'fa-wrench',
        icon_url: null,
        parent_id: null,
      });
      let parent = top;
      for (let depth = 0; depth < 6; depth++) {
        parent = await category({ section_id: s.id, parent_id: parent.id, name: `Level ${depth}` });
      }
      expect(parent.parent_id).not.toBeNull();

      const upload = multipart([{ name: 'icon.png', content: PNG }]);
      const [icon] = (
        await ok<{ items: { id: number; url: string }[] }>(
          as('POST', '/api/admin/files', upload.payload, upload.headers),
          201,
        )
      ).items;
      const withIcon = await ok<AdminCategoryType>(
        as('PATCH', `/api/admin/categories/${top.id}`, { icon_file_id: icon!.id }),
      );
      expect(withIcon).toMatchObject({ icon_type: 'file', font_icon: null, icon_url: icon!.url });
      const none = await ok<AdminCategoryType>(
        as('PATCH', `/api/admin/categories/${top.id}`, { icon_file_id: null }),
      );
      expect(none).toMatchObject({ icon_type: null, icon_url: null });
      expectApiError(
        await as('PATCH', `/api/admin/categories/${top.id}`, { icon_file_id: icon!.id, font_icon: 'fa-x' }),
        400,
        ['icon_file_id'],
      );
      expectApiError(await as('PATCH', `/api/admin/categories/${top.id}`, { icon_file_id: 999999 }), 400, [
        'icon_file_id',
      ]);
      expectApiError(await as('PATCH', `/api/admin/categories/${top.id}`, { font_icon: 'Bad Icon' }), 400, [
        'font_icon',
      ]);

      const shim = await ok<AdminCategoryType>(
        as('PATCH', `/api/admin/categories/${top.id}`, { font_icon: 'fa fa-credit-card' }),
      );
      expect(shim).toMatchObject({ icon_type: 'font', font_icon: 'fa fa-credit-card' });
      const stored = await t.ctx.db
        .selectFrom('categories')
        .select(['icon_type', 'font_icon'])
        .where('id', '=', top.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ icon_type: 'font', font_icon: 'fa fa-credit-card' });
      const longest = `fa-solid ${'x'.repeat(91)}`;
      expect(
        await ok<AdminCategoryType>(as('PATCH', `/api/admin/categories/${top.id}`, { font_icon: longest })),
      ).toMatchObject({ font_icon: longest });
      for (const hostile of [
        'fa-wifi" onmouseover="alert(1)',
        'fa fa-wifi<script>',
        'fa;color:red',
        'fa\tfa-wifi',
        ' fa fa-wifi',
        'fa  fa-wifi',
        'fa fa-wifi ',
        `fa-solid ${'x'.repeat(92)}`,
        'a b c d e f g h i',
      ]) {
        expectApiError(await as('PATCH', `/api/admin/categories/${top.id}`, { font_icon: hostile }), 400, [
          'font_icon',
        ]);
        expectApiError(
          await as('POST', '/api/admin/categories', {
            section_id: s.id,
            name: 'Hostile',
            font_icon: hostile,
          }),
          400,
          ['font_icon'],
        );
      }
      expect(
        await t.ctx.db
          .selectFrom('categories')
          .select('font_icon')
          .where('id', '=', top.id)
          .executeTakeFirst(),
      ).toEqual({ font_icon: longest });

      const other = await section('Other');
      expectApiError(
        await as('POST', '/api/admin/categories', { section_id: other.id, parent_id: top.id, name: 'Wrong' }),
        400,
        ['parent_id'],
      );
      expectApiError(
        await as('POST', '/api/admin/categories', { section_id: 999999, name: 'Nowhere' }),
        404,
        ['section_id'],
      );
    });

    it('refuses to delete a category with content, and deletes or moves it when told', async () => {
      const s = await section('Deleting categories');
      const c = await category({ section_id: s.id, name: 'Holder' });
      const child = await category({ section_id: s.id, parent_id: c.id, name: 'Child' });
      const grandchild = await category({ section_id: s.id, parent_id: child.id, name: 'Grandchild' });
      const a = await article({ section_id: s.id, category_id: c.id, title: 'Held' });
      const deep = await article({ section_id: s.id, category_id: grandchild.id, title: 'Held deep' });

      const refused = expectApiError(await as('DELETE', `/api/admin/categories/${c.id}`), 409);
      expect(refused.code).toBe('not_empty');
      expect(refused.message).toContain('Holder');
      expectApiError(
        await as('DELETE', `/api/admin/categories/${c.id}?move_to_category_id=${grandchild.id}`),
        409,
        ['move_to_category_id'],
      );

      const target = await section('Receiving');
      await ok(as('DELETE', `/api/admin/categories/${c.id}?move_to_section_id=${target.id}`));
      let after = await tree();
      expect(after.categories.some((x) => x.id === c.id)).toBe(false);
      expect(after.categories.find((x) => x.id === child.id)).toMatchObject({
        section_id: target.id,
        parent_id: null,
      });
      expect(after.categories.find((x) => x.id === grandchild.id)).toMatchObject({ section_id: target.id });
      expect(after.articles.find((x) => x.id === a.id)).toMatchObject({
        section_id: target.id,
        category_id: null,
      });
      expect(after.articles.find((x) => x.id === deep.id)).toMatchObject({ section_id: target.id });

      await ok(as('DELETE', `/api/admin/categories/${child.id}?content=delete`));
      after = await tree();
      expect(after.categories.some((x) => x.id === grandchild.id)).toBe(false);
      expect(after.articles.some((x) => x.id === deep.id)).toBe(false);
      expect(after.articles.some((x) => x.id === a.id)).toBe(true);
    });
  });

  describe('articles', () => {
    it('previews HTML as a save would store it, storing nothing', async () => {
      const stored = async () => ({
        revision: await readSetting(t.ctx.db, 'content_revision'),
        articles: (await t.ctx.db.selectFrom('articles').select('id').execute()).length,
      });
      const before = await stored();
      const html =
        '<h2>Start</h2><p>Plug it <img src="x" onerror="alert(1)"> in.</p><script>alert(2)</script>';
      const preview = await ok<{ html: string }>(as('POST', '/api/admin/preview', { html }));
      expect(preview).toEqual({ html: '<h2>Start</h2><p>Plug it <img src="x" loading="lazy" /> in.</p>' });
      expect(await stored()).toEqual(before);
      const s = await section('Previewed');
      expect((await article({ section_id: s.id, title: 'Same', body_html: html })).body_html).toBe(
        preview.html,
      );
      expectApiError(await as('POST', '/api/admin/preview', {}), 400, ['html']);
      expectApiError(await as('POST', '/api/admin/preview', { html: 'x'.repeat(1_048_577) }), 400, ['html']);
    });

    it('draws an article, saved or not, as its public page would be once published, storing nothing', async () => {
      const s = await section('Preview shelf');
      const shelf = await category({ section_id: s.id, name: 'Hidden shelf' });
      const inner = await category({ section_id: s.id, parent_id: shelf.id, name: 'Inner shelf' });
      await article({ section_id: s.id, title: 'Neighbour', published: true });
      const draft = await article({ section_id: s.id, category_id: inner.id, title: 'Stored title' });
      const upload = multipart([{ name: 'wiring.pdf', content: Buffer.from('%PDF-1.4 wiring') }]);
      const [file] = (
        await ok<{ items: { id: number }[] }>(
          as('POST', '/api/admin/files', upload.payload, upload.headers),
          201,
        )
      ).items;
      const other = await section('Elsewhere');
      const stored = async () => ({
        revision: await readSetting(t.ctx.db, 'content_revision'),
        articles: await t.ctx.db.selectFrom('articles').selectAll().orderBy('id').execute(),
      });
      const before = await stored();
      const body = {
        article_id: draft.id,
        section_id: s.id,
        category_id: inner.id,
        title: 'Unsaved title',
        body_html:
          '<h2>Wiring</h2><p>Red to red.<img src="x" onerror="alert(1)"></p><script>alert(2)</script>',
        can_create_issue: true,
        file_ids: [file!.id],
      };
      const { document } = await ok<{ document: string }>(as('POST', '/api/admin/preview/article', body));
      expect(document).toMatch(/^<!doctype html>/);
      // The public page: header, trail through the categories nobody can see yet, body as a save cleans it,
      // the attachment, the request form's button and the section's other articles.
      expect(document).toContain('class="site-header"');
      expect(document).toMatch(/Preview shelf[\s\S]*Hidden shelf[\s\S]*Inner shelf/);
      expect(document).toContain('<h1>Unsaved title</h1>');
      // The heading as the article page shows it: an id to link to, and its anchor.
      expect(document).toMatch(
        /<h2 id="user-content-wiring">Wiring<a class="heading-anchor"[^>]*>#<\/a><\/h2><p>Red to red.<img src="x" loading="lazy"/,
      );
      expect(document).not.toContain('rel="canonical"');
      expect(document).toContain('wiring.pdf');
      expect(document).toContain('Make a request');
      expect(document).toContain('Neighbour');
      expect(document).not.toContain('Stored title');
      // Nothing runs in it: no script of the page, none of the body, no handler.
      expect(document).not.toMatch(/<script|onerror/);
      expect(await stored()).toEqual(before);

      // An article not saved yet has a page too, in its place among the others.
      const fresh = await ok<{ document: string }>(
        as('POST', '/api/admin/preview/article', {
          section_id: s.id,
          category_id: null,
          title: '',
          body_html: '<p>Fresh</p>',
          can_create_issue: false,
          file_ids: [],
        }),
      );
      expect(fresh.document).toContain('<h1>Untitled article</h1>');
      expect(fresh.document).toContain('Neighbour');
      expect(fresh.document).not.toContain('Make a request');
      // In a section nothing published makes visible yet, the trail still names it.
      const lonely = await ok<{ document: string }>(
        as('POST', '/api/admin/preview/article', {
          section_id: other.id,
          category_id: null,
          title: 'Alone',
          body_html: '',
          can_create_issue: false,
          file_ids: [],
        }),
      );
      expect(lonely.document).toMatch(/<nav class="trail"[\s\S]*Elsewhere[\s\S]*<\/nav>/);

      expectApiError(await as('POST', '/api/admin/preview/article', { ...body, section_id: other.id }), 400, [
        'category_id',
      ]);
      expectApiError(await as('POST', '/api/admin/preview/article', { ...body, section_id: 999_999 }), 404, [
        'section_id',
      ]);
      expectApiError(await as('POST', '/api/admin/preview/article', { ...body, file_ids: [999_999] }), 400, [
        'file_ids',
      ]);
      expectApiError(
        await as('POST', '/api/admin/preview/article', { ...body, body_html: 'x'.repeat(1_048_577) }),
        400,
        ['body_html'],
      );
      expect(await stored()).toEqual(before);
    });

    it("lists an unsaved article's related articles as its page will once published: by its title's words as written", async () => {
      const shelf = await section('Related shelf');
      const elsewhere = await section('Related elsewhere');
      await article({ section_id: elsewhere.id, title: 'Router placement', published: true });
      const draft = (title: string) => ({
        section_id: shelf.id,
        category_id: null,
        title,
        body_html: '<p>Draft</p>',
        can_create_issue: false,
        file_ids: [],
      });
      const preview = async (title: string) =>
        (await ok<{ document: string }>(as('POST', '/api/admin/preview/article', draft(title)))).document;
      const nearbyOnceSaved = async (title: string) => {
        const saved = await article({ ...draft(title), published: true });
        const nearby = await t.app.inject(`/api/knowledge/instruction/${saved.id}/nearby`);
        await as('DELETE', `/api/admin/articles/${saved.id}`);
        return nearby.json<{ related: { title: string }[] }>().related.map((related) => related.title);
      };

      // Its words find it: related in the preview and once published.
      expect(await preview('Router placement tips')).toContain('Router placement');
      expect(await nearbyOnceSaved('Router placement tips')).toEqual(['Router placement']);
      // A word's start is a visitor typing, not a title: neither lists it.
      expect(await preview('Cable rout')).not.toContain('Router placement');
      expect(await nearbyOnceSaved('Cable rout')).toEqual([]);
    });

    it('creates drafts, saves, publishes and deletes articles', async () => {
      const s = await section('Articles');
      const created = await article({
        section_id: s.id,
        title: 'First steps',
        body_html: '<h2>Start</h2><p>Plug it <img src="x" onerror="alert(1)"> in.</p>',
        can_create_issue: true,
        lang: 'sk',
      });
      expect(Value.Check(AdminArticle, created)).toBe(true);
      expect(created).toMatchObject({
        title: 'First steps',
        published: false,
        can_create_issue: true,
        lang: 'sk',
        category_id: null,
        files: [],
        body_html: '<h2>Start</h2><p>Plug it <img src="x" loading="lazy" /> in.</p>',
      });
      expect(created.revision_id).toBeGreaterThan(0);
      expect(created.created_at).toMatch(ISO);
      const row = await t.ctx.db
        .selectFrom('articles')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.body_source).toBeNull();
      expectApiError(await anonymous('GET', `/api/knowledge/instruction/${created.id}`), 404);

      const saved = await ok<AdminArticleType>(
        as('PATCH', `/api/admin/articles/${created.id}`, {
          published: true,
          base_revision_id: created.revision_id,
        }),
      );
      expect(saved.published).toBe(true);
      expect(saved.revision_id).toBeGreaterThan(created.revision_id);
      expect((await anonymous('GET', `/api/knowledge/instruction/${created.id}`)).statusCode).toBe(200);

      // Sending back what the API answered changes nothing: the sanitiser is stable on its own output.
      const again = await ok<AdminArticleType>(
        as('PATCH', `/api/admin/articles/${created.id}`, { body_html: saved.body_html, title: saved.title }),
      );
      expect(again.revision_id).toBe(saved.revision_id);
      expect(await ok(as('GET', `/api/admin/articles/${created.id}`))).toEqual(again);

      expectApiError(await as('PATCH', `/api/admin/articles/${created.id}`, { lang: 'de' }), 400, ['lang']);
      expectApiError(await as('PATCH', `/api/admin/articles/${created.id}`, { file_ids: [999999] }), 400, [
        'file_ids',
      ]);
      expectApiError(await as('PATCH', '/api/admin/articles/999999', { title: 'x' }), 404);
      expectApiError(await as('POST', '/api/admin/articles', { section_id: s.id, title: ' ' }), 400, [
        'title',
      ]);
      const elsewhere = await category({ section_id: (await section('Elsewhere')).id, name: 'Elsewhere' });
      expectApiError(
        await as('POST', '/api/admin/articles', {
          section_id: s.id,
          category_id: elsewhere.id,
          title: 'Lost',
        }),
        400,
        ['category_id'],
      );

      await ok(as('DELETE', `/api/admin/articles/${created.id}`));
      expectApiError(await as('GET', `/api/admin/articles/${created.id}`), 404);
      expectApiError(await anonymous('GET', `/api/knowledge/instruction/${created.id}`), 404);
      const revisions = await t.ctx.db
        .selectFrom('article_revisions')
        .select('id')
        .where('article_id', '=', created.id)
        .execute();
      expect(revisions).toEqual([]);
    });

    it('attaches uploaded files in their order', async () => {
      const s = await section('Attachments');
      const upload = multipart([
        { name: 'b.pdf', content: '%PDF b' },
        { name: 'a.txt', content: 'a' },
      ]);
      const files = (
        await ok<{ items: { id: number; name: string }[] }>(
          as('POST', '/api/admin/files', upload.payload, upload.headers),
          201,
        )
      ).items;
      const a = await article({
        section_id: s.id,
        title: 'With files',
        file_ids: files.map((f) => f.id).reverse(),
      });
      expect(a.files.map((f) => f.name)).toEqual(['a.txt', 'b.pdf']);
      const b = await ok<AdminArticleType>(
        as('PATCH', `/api/admin/articles/${a.id}`, { file_ids: [files[0]!.id] }),
      );
      expect(b.files.map((f) => f.name)).toEqual(['b.pdf']);
      expectApiError(
        await as('PATCH', `/api/admin/articles/${a.id}`, { file_ids: [files[0]!.id, files[0]!.id] }),
        400,
        ['file_ids'],
      );
    });

    it('is found by search once published and gone once unpublished', async () => {
      const s = await section('Searchable');
      const a = await article({
        section_id: s.id,
        title: 'Quasar calibration',
        body_html: '<p>Zephyrine steps</p>',
      });
      const search = async () =>
        (await anonymous('GET', '/api/search/knowledge/suggestions?text=zephyrine')).json<{
          items: { id: number }[];
        }>().items;
      expect(await search()).toEqual([]);
      await ok(as('PATCH', `/api/admin/articles/${a.id}`, { published: true }));
      expect((await search()).map((x) => x.id)).toEqual([a.id]);
      await ok(as('PATCH', `/api/admin/articles/${a.id}`, { body_html: '<p>Zephyrine and more</p>' }));
      expect((await search()).map((x) => x.id)).toEqual([a.id]);
      await ok(as('PATCH', `/api/admin/articles/${a.id}`, { published: false }));
      expect(await search()).toEqual([]);
    });

    it('sets updated_at and the content revision on every write', async () => {
      const s = await section('Stamps');
      const a = await article({ section_id: s.id, title: 'Stamped' });
      const before = await readSetting<number>(t.ctx.db, 'content_revision');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const saved = await ok<AdminArticleType>(
        as('PATCH', `/api/admin/articles/${a.id}`, { title: 'Stamped again' }),
      );
      expect(Date.parse(saved.updated_at)).toBeGreaterThan(Date.parse(a.updated_at));
      expect(await readSetting<number>(t.ctx.db, 'content_revision')).toBeGreaterThan(before ?? 0);
    });
  });

  describe('moving and ordering', () => {
    it('reorders siblings and numbers them 0..n', async () => {
      const s = await section('Ordering');
      const ids: number[] = [];
      for (const title of ['A', 'B', 'C', 'D']) ids.push((await article({ section_id: s.id, title })).id);
      const moved = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', { kind: 'article', id: ids[3], index: 1 }),
      );
      expect(Value.Check(AdminTree, moved)).toBe(true);
      const here = moved.articles.filter((a) => a.section_id === s.id);
      expect(names(here)).toEqual(['A', 'D', 'B', 'C']);
      expect(here.map((a) => a.position).sort()).toEqual([0, 1, 2, 3]);
      const last = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', { kind: 'article', id: ids[0], index: 99 }),
      );
      expect(names(last.articles.filter((a) => a.section_id === s.id))).toEqual(['D', 'B', 'C', 'A']);

      const sections = (await tree()).sections;
      const moveFirst = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', { kind: 'section', id: s.id, index: 0 }),
      );
      expect(moveFirst.sections[0]?.id).toBe(s.id);
      expect(moveFirst.sections.map((x) => x.position)).toEqual(sections.map((_, i) => i));
    });

    it('moves a category with its whole subtree and articles to another section', async () => {
      const from = await section('Move from');
      const to = await section('Move to');
      const c = await category({ section_id: from.id, name: 'Branch' });
      const sibling = await category({ section_id: from.id, name: 'Sibling' });
      const child = await category({ section_id: from.id, parent_id: c.id, name: 'Twig' });
      const leaf = await article({ section_id: from.id, category_id: child.id, title: 'Leaf' });
      const target = await category({ section_id: to.id, name: 'Trunk' });

      const moved = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', {
          kind: 'category',
          id: c.id,
          section_id: to.id,
          parent_id: target.id,
          index: 0,
        }),
      );
      expect(moved.categories.find((x) => x.id === c.id)).toMatchObject({
        section_id: to.id,
        parent_id: target.id,
        position: 0,
      });
      expect(moved.categories.find((x) => x.id === child.id)).toMatchObject({
        section_id: to.id,
        parent_id: c.id,
      });
      expect(moved.articles.find((x) => x.id === leaf.id)).toMatchObject({
        section_id: to.id,
        category_id: child.id,
      });
      expect(moved.categories.find((x) => x.id === sibling.id)?.position).toBe(0);

      const before = await tree();
      const intoSelf = expectApiError(
        await as('POST', '/api/admin/move', { kind: 'category', id: c.id, parent_id: c.id, index: 0 }),
        409,
        ['parent_id'],
      );
      expect(intoSelf.code).toBe('invalid_move');
      expectApiError(
        await as('POST', '/api/admin/move', { kind: 'category', id: c.id, parent_id: child.id, index: 0 }),
        409,
        ['parent_id'],
      );
      expectApiError(
        await as('POST', '/api/admin/move', {
          kind: 'category',
          id: c.id,
          section_id: from.id,
          parent_id: target.id,
          index: 0,
        }),
        400,
        ['parent_id'],
      );
      expectApiError(await as('POST', '/api/admin/move', { kind: 'category', id: 999999, index: 0 }), 404);
      expectApiError(await as('POST', '/api/admin/move', { kind: 'shelf', id: c.id, index: 0 }), 400, [
        'kind',
      ]);
      expect(await tree()).toEqual(before);

      // Back to the top level of the first section.
      const back = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', {
          kind: 'category',
          id: c.id,
          section_id: from.id,
          parent_id: null,
          index: 5,
        }),
      );
      expect(back.categories.find((x) => x.id === c.id)).toMatchObject({
        section_id: from.id,
        parent_id: null,
        position: 1,
      });
      expect(back.articles.find((x) => x.id === leaf.id)?.section_id).toBe(from.id);
    });

    it('moves an article into a category of another section, keeping a revision', async () => {
      const from = await section('Article from');
      const to = await section('Article to');
      const c = await category({ section_id: to.id, name: 'Shelf' });
      const a = await article({ section_id: from.id, title: 'Traveller' });
      const moved = await ok<AdminTreeType>(
        as('POST', '/api/admin/move', { kind: 'article', id: a.id, parent_id: c.id, index: 0 }),
      );
      expect(moved.articles.find((x) => x.id === a.id)).toMatchObject({
        section_id: to.id,
        category_id: c.id,
      });
      const revisions = await ok<{ items: { action: string }[] }>(
        as('GET', `/api/admin/articles/${a.id}/revisions`),
      );
      expect(revisions.items.map((r) => r.action)).toEqual(['moved', 'created']);
    });
  });

  it('sees articles made outside the API, and keeps their first state as a revision on the first save', async () => {
    const outside = await buildArticle(t.ctx.db, { title: 'Made elsewhere' });
    const read = await ok<AdminArticleType>(as('GET', `/api/admin/articles/${outside.id}`));
    expect(read.revision_id).toBe(0);
    await ok(as('PATCH', `/api/admin/articles/${outside.id}`, { title: 'Edited here' }));
    const revisions = await ok<{ items: { action: string; title: string }[] }>(
      as('GET', `/api/admin/articles/${outside.id}/revisions`),
    );
    expect(revisions.items.map((r) => [r.action, r.title])).toEqual([
      ['edited', 'Edited here'],
      ['imported', 'Made elsewhere'],
    ]);
  });
});
