import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminArticle, AdminCategory, AdminSection, AdminTree } from '../../../shared/api/admin.ts';
import {
  ArticleTranslationView,
  TranslationStatus,
  type ArticleTranslationView as ArticleView,
  type CategoryTranslationView,
  type SectionTranslationView,
  type TranslationStatus as Status,
} from '../../../shared/api/admin-translations.ts';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import type { Branding } from '../../../shared/api/settings.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { adminAndUserTokens, caller, ok, type Call } from '../../testing/admin-content.ts';
import { buildFile } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

describe.each(testDialects())('translating, for the team, on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let asUser: Call;
  let sectionId: number;

  const article = (id: number) => `/api/admin/articles/${id}`;
  const newArticle = (title: string, body_html: string, published = true) =>
    ok<AdminArticle>(
      as('POST', '/api/admin/articles', { section_id: sectionId, title, body_html, published }),
      201,
    );
  const publicArticle = async (id: number, lang: string) => {
    const response = await t.app.inject(`/api/knowledge/instruction/${id}?lang=${lang}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Instruction>();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tokens = await adminAndUserTokens(t);
    as = caller(t, tokens.adminToken);
    asUser = caller(t, tokens.userToken);
    sectionId = (await ok<AdminSection>(as('POST', '/api/admin/sections', { name: 'Guides' }), 201)).id;
  });
  afterAll(async () => t?.close());

  it('saves an article translation as a draft, pins the article to the site language, publishes it for visitors', async () => {
    const a = await newArticle('Reset the router', '<p>Hold the button.</p>');
    expect(a.lang).toBeNull();
    expect(a.translations).toEqual([]);

    const empty = await ok<ArticleView>(as('GET', `${article(a.id)}/translations/ru`));
    expect(empty).toMatchObject({ exists: false, outdated: false, item_lang: 'en', title: '' });
    expect(empty.source).toEqual({
      lang: 'en',
      text: { title: 'Reset the router', body_html: '<p>Hold the button.</p>' },
    });

    const saved = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/ru`, {
        title: '  Сброс роутера ',
        body_html: '<p>Зажмите кнопку.</p><script>alert(1)</script>',
      }),
    );
    expect(Value.Check(ArticleTranslationView, saved)).toBe(true);
    expect(saved).toMatchObject({ exists: true, published: false, outdated: false, title: 'Сброс роутера' });
    expect(saved.body_html).toBe('<p>Зажмите кнопку.</p>');

    const admin = await ok<AdminArticle>(as('GET', article(a.id)));
    expect(admin.lang).toBe('en');
    expect(admin.translations).toMatchObject([{ lang: 'ru', published: false, outdated: false }]);
    // A draft translation is not shown: the English version is.
    expect(await publicArticle(a.id, 'ru')).toMatchObject({ title: 'Reset the router', lang: 'en' });

    const published = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/ru/published`, { published: true }),
    );
    expect(published.published).toBe(true);
    // The revision moved: the kept answer is dropped and the public call answers the translation.
    expect(await publicArticle(a.id, 'ru')).toMatchObject({ title: 'Сброс роутера', lang: 'ru' });

    await ok(
      as('PUT', `${article(a.id)}/translations/ru`, {
        title: 'Сброс роутера',
        body_html: '<p>Новый текст</p>',
      }),
    );
    expect((await publicArticle(a.id, 'ru')).description).toContain('Новый текст');

    await ok(as('PUT', `${article(a.id)}/translations/ru/published`, { published: false }));
    expect(await publicArticle(a.id, 'ru')).toMatchObject({ lang: 'en' });

    await ok(as('DELETE', `${article(a.id)}/translations/ru`));
    expect((await ok<AdminArticle>(as('GET', article(a.id)))).translations).toEqual([]);
    expectApiError(await as('DELETE', `${article(a.id)}/translations/ru`), 404, ['lang']);
    expectApiError(await as('PUT', `${article(a.id)}/translations/ru/published`, { published: true }), 404, [
      'lang',
    ]);
  });

  it('marks a translation outdated when its source changes, with the diff, until it is saved again', async () => {
    const a = await newArticle('Pair the remote', '<h2>Steps</h2><p>Press A.</p><p>Wait.</p>');
    await ok(
      as('PUT', `${article(a.id)}/translations/it`, {
        title: 'Associa il telecomando',
        body_html: '<p>Premi A.</p>',
        published: true,
      }),
    );
    await ok(
      as('PATCH', article(a.id), {
        title: 'Pair the new remote',
        body_html: '<h2>Steps</h2><p>Press B.</p><p>Wait.</p>',
      }),
    );

    expect((await ok<AdminArticle>(as('GET', article(a.id)))).translations).toMatchObject([
      { lang: 'it', outdated: true },
    ]);
    const stale = await ok<ArticleView>(as('GET', `${article(a.id)}/translations/it`));
    expect(stale.outdated).toBe(true);
    expect(stale.source.text.title).toBe('Pair the new remote');
    const title = stale.source_diff.find((d) => d.field === 'title')!;
    expect(title.parts.filter((p) => p.op !== 'equal')).toEqual([{ op: 'insert', text: 'new ' }]);
    const body = stale.source_diff.find((d) => d.field === 'body_html')!;
    expect(body.parts.filter((p) => p.op !== 'equal')).toEqual([
      { op: 'delete', text: 'Press A.\n' },
      { op: 'insert', text: 'Press B.\n' },
    ]);

    // Publishing does not say the translation follows the new text; saving it does.
    await ok(as('PUT', `${article(a.id)}/translations/it/published`, { published: true }));
    expect((await ok<ArticleView>(as('GET', `${article(a.id)}/translations/it`))).outdated).toBe(true);
    const fresh = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/it`, {
        title: 'Associa il nuovo telecomando',
        body_html: '<p>Premi B.</p>',
      }),
    );
    expect(fresh).toMatchObject({ outdated: false, source_diff: [], published: true });
    expect((await ok<AdminArticle>(as('GET', article(a.id)))).translations).toMatchObject([
      { lang: 'it', outdated: false },
    ]);
  });

  it('takes the source from the site language version when the article was written in another', async () => {
    const a = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', {
        section_id: sectionId,
        title: 'Только по-русски',
        lang: 'ru',
        published: true,
      }),
      201,
    );
    expectApiError(await as('PUT', `${article(a.id)}/translations/ru`, { title: 'Same' }), 400, ['lang']);
    const en = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/en`, { title: 'Russian only', published: true }),
    );
    expect(en.source.lang).toBe('ru');
    const sk = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/sk`, { title: 'Len po rusky' }),
    );
    expect(sk.source).toMatchObject({ lang: 'en', text: { title: 'Russian only' } });
    await ok(as('PUT', `${article(a.id)}/translations/en`, { title: 'Only in Russian' }));
    expect((await ok<ArticleView>(as('GET', `${article(a.id)}/translations/sk`))).outdated).toBe(true);
    expect((await ok<ArticleView>(as('GET', `${article(a.id)}/translations/en`))).outdated).toBe(false);
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const a = await newArticle('Refusals', '<p>Body</p>');
    const path = `${article(a.id)}/translations/pt-BR`;
    expectApiError(await as('PUT', path, { title: '   ' }), 400, ['title']);
    expectApiError(await as('PUT', path, { title: 'x'.repeat(201) }), 400, ['title']);
    expectApiError(await as('PUT', path, { title: 'Ok', file_ids: [999999] }), 400, ['file_ids']);
    expectApiError(await as('PUT', path, { title: 'Ok', body_html: 'a'.repeat(2 * 1_048_576) }), 413, [
      'body_html',
    ]);
    expectApiError(await as('PUT', `${article(a.id)}/translations/de`, { title: 'Ok' }), 400, ['lang']);
    expectApiError(await as('PUT', `${article(999999)}/translations/ru`, { title: 'Ok' }), 404);
    expectApiError(await asUser('PUT', path, { title: 'Ok' }), 403);
    expect((await ok<AdminArticle>(as('GET', article(a.id)))).translations).toEqual([]);
    // Nothing was saved, so nothing was pinned either.
    expect((await ok<AdminArticle>(as('GET', article(a.id)))).lang).toBeNull();
  });

  it("gives a published translation's own files to visitors", async () => {
    const a = await newArticle('With a manual', '<p>See the manual.</p>');
    const manual = await buildFile(t.ctx, { name: 'manual-sk.pdf', content: 'manuál' });
    const download = () => t.app.inject(`/files/${manual.id}/manual-sk.pdf`);
    await ok(as('PUT', `${article(a.id)}/translations/sk`, { title: 'S manuálom', file_ids: [manual.id] }));
    expect((await download()).statusCode).toBe(404);
    const view = await ok<ArticleView>(
      as('PUT', `${article(a.id)}/translations/sk/published`, { published: true }),
    );
    expect(view.files.map((f) => f.id)).toEqual([manual.id]);
    expect((await download()).statusCode).toBe(200);
    expect((await publicArticle(a.id, 'sk')).files.map((f) => f.id)).toEqual([manual.id]);
  });

  it('translates sections and categories, pinning them, and lists the summaries in the tree', async () => {
    const section = await ok<AdminSection>(as('POST', '/api/admin/sections', { name: 'Billing' }), 201);
    const category = await ok<AdminCategory>(
      as('POST', '/api/admin/categories', {
        section_id: section.id,
        name: 'Invoices',
        description: '<p>Paying</p>',
      }),
      201,
    );
    const s = await ok<SectionTranslationView>(
      as('PUT', `/api/admin/sections/${section.id}/translations/ru`, { name: 'Оплата' }),
    );
    expect(s).toMatchObject({ name: 'Оплата', published: true, exists: true, item_lang: 'en' });
    const c = await ok<CategoryTranslationView>(
      as('PUT', `/api/admin/categories/${category.id}/translations/ru`, {
        name: 'Счета',
        description: '<p>Оплата</p><img src=x onerror=alert(1)>',
        published: false,
      }),
    );
    expect(c).toMatchObject({ name: 'Счета', published: false });
    expect(c.description).not.toContain('onerror');
    expectApiError(
      await as('PUT', `/api/admin/categories/${category.id}/translations/en`, { name: 'Own' }),
      400,
      ['lang'],
    );
    expectApiError(await as('PUT', `/api/admin/sections/${section.id}/translations/ru`, { name: '' }), 400, [
      'name',
    ]);

    const tree = await ok<AdminTree>(as('GET', '/api/admin/tree'));
    expect(tree.sections.find((x) => x.id === section.id)).toMatchObject({
      lang: 'en',
      translations: [{ lang: 'ru', published: true, outdated: false }],
    });
    expect(tree.categories.find((x) => x.id === category.id)?.translations).toMatchObject([
      { lang: 'ru', published: false },
    ]);

    await ok(as('PATCH', `/api/admin/categories/${category.id}`, { description: '<p>Paying bills</p>' }));
    const stale = await ok<CategoryTranslationView>(
      as('GET', `/api/admin/categories/${category.id}/translations/ru`),
    );
    expect(stale.outdated).toBe(true);
    expect(stale.source_diff.map((d) => d.field)).toEqual(['description']);

    await ok(
      as('PUT', `/api/admin/categories/${category.id}/translations/ru/published`, { published: true }),
    );
    const sections = await t.app.inject('/api/knowledge/category?lang=ru');
    expect(sections.statusCode).toBe(200);

    await ok(as('DELETE', `/api/admin/sections/${section.id}/translations/ru`));
    await ok(as('DELETE', `/api/admin/categories/${category.id}/translations/ru`));
    const after = await ok<AdminSection>(
      as('PATCH', `/api/admin/sections/${section.id}`, { name: 'Billing' }),
    );
    expect(after.translations).toEqual([]);
  });

  it('counts per language what is missing, outdated and unpublished, and lists them for one', async () => {
    const own = await createTestApp(dialect);
    try {
      const admin = caller(own, (await adminAndUserTokens(own)).adminToken);
      const sec = await ok<AdminSection>(admin('POST', '/api/admin/sections', { name: 'Only' }), 201);
      const one = await ok<AdminArticle>(
        admin('POST', '/api/admin/articles', { section_id: sec.id, title: 'One' }),
        201,
      );
      const two = await ok<AdminArticle>(
        admin('POST', '/api/admin/articles', { section_id: sec.id, title: 'Two' }),
        201,
      );
      const ru = await ok<AdminArticle>(
        admin('POST', '/api/admin/articles', { section_id: sec.id, title: 'Три', lang: 'ru' }),
        201,
      );
      await ok(
        admin('PUT', `/api/admin/articles/${one.id}/translations/ru`, { title: 'Один', published: true }),
      );
      await ok(admin('PUT', `/api/admin/articles/${two.id}/translations/ru`, { title: 'Два' }));
      await ok(admin('PATCH', `/api/admin/articles/${two.id}`, { title: 'Two, changed' }));

      const status = await ok<Status>(admin('GET', '/api/admin/translations?lang=ru'));
      expect(Value.Check(TranslationStatus, status)).toBe(true);
      const count = (lang: string) => status.counts.find((c) => c.lang === lang);
      // Russian: the section has no Russian name; "two" is outdated and unpublished; "one" is done.
      expect(count('ru')).toEqual({ lang: 'ru', missing: 1, outdated: 1, unpublished: 1, done: 1 });
      // English (the site's): only the article written in Russian lacks a version.
      expect(count('en')).toEqual({ lang: 'en', missing: 1, outdated: 0, unpublished: 0, done: 0 });
      expect(count('it')).toMatchObject({ missing: 4 });
      expect(status.missing.map((i) => [i.kind, i.id])).toEqual([['section', sec.id]]);
      expect(status.outdated).toMatchObject([
        { kind: 'article', id: two.id, title: 'Two, changed', source_lang: 'en' },
      ]);

      const english = await ok<Status>(admin('GET', '/api/admin/translations?lang=en'));
      expect(english.missing).toMatchObject([
        { kind: 'article', id: ru.id, title: 'Три', source_lang: 'ru' },
      ]);
      expect((await ok<Status>(admin('GET', '/api/admin/translations'))).lang).toBe('ru');
      expectApiError(await admin('GET', '/api/admin/translations?lang=xx'), 400, ['lang']);
    } finally {
      await own.close();
    }
  });

  it('takes branding titles per language other than the site language', async () => {
    const saved = await ok<Branding>(
      as('PATCH', '/api/admin/branding', {
        titles: { ru: { knowledge_title: ' База знаний ', site_title: '' } },
      }),
    );
    expect(saved.titles).toEqual({ ru: { knowledge_title: 'База знаний' } });
    expectApiError(
      await as('PATCH', '/api/admin/branding', { titles: { en: { site_title: 'Help' } } }),
      400,
      ['titles.en'],
    );
    expectApiError(
      await as('PATCH', '/api/admin/branding', { titles: { xx: { site_title: 'Help' } } }),
      400,
      ['titles.xx'],
    );
    const public_ = await t.app.inject('/api/settings/branding?lang=ru');
    expect(public_.json<Branding>().knowledge_title).toBe('База знаний');
    expect((await ok<Branding>(as('PATCH', '/api/admin/branding', { titles: {} }))).titles).toEqual({});
  });
});
