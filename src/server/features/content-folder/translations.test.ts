import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Instruction, Section } from '../../../shared/api/knowledge.ts';
import type { PagedList } from '../../../shared/api/common.ts';
import { readFolder, withoutIds, writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { updateBranding } from '../../settings/branding.ts';
import { articleSourceText } from '../../content/translation-source.ts';
import { adminAndUserTokens } from '../../testing/admin-content.ts';
import { exportFolder } from './export-folder.ts';
import { importFolder } from './import-folder.ts';
import { FolderErrors } from './read-folder.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * An English help centre with versions in other languages of every kind, written as the export writes them (but for
 * the ids, each database's own), so that exporting what it imports gives these files back byte for byte.
 */
const TRANSLATED: Record<string, string | Buffer> = {
  'guides/_section.md': '---\nname: Guides\nposition: 1\n---\n',
  'guides/_section.ru.md': '---\nname: Руководства\n---\n',
  'guides/_section.pt-BR.md': '---\nname: Guias\npublished: false\n---\n',
  'guides/setup/_category.md':
    '---\nname: Setup\nposition: 1\nfont_icon: fa-solid fa-wrench\n---\n\nGetting **going**.\n',
  'guides/setup/_category.ru.md': '---\nname: Настройка\n---\n\nС чего **начать**.\n',
  'guides/setup/_category.it.md':
    '---\nname: Configurazione\nformat: html\n---\n\n<p>Per <em>iniziare</em></p>\n',
  'guides/setup/install.md': [
    '---',
    'title: Install the app',
    'position: 1',
    'can_create_issue: true',
    'published: true',
    'files:',
    '  - _files/manual.pdf',
    '---',
    '',
    'Download it. ![Screen](_images/screen.png) See [billing](billing.md).',
    '',
  ].join('\n'),
  'guides/setup/install.ru.md': [
    '---',
    'title: Установка приложения',
    'published: true',
    'files:',
    '  - _files/руководство.pdf',
    '---',
    '',
    'Скачайте приложение. ![Экран](_images/screen-ru.png) Об оплате — [здесь](billing.ru.md).',
    '',
  ].join('\n'),
  'guides/setup/install.pt-BR.md':
    '---\ntitle: Instalar o aplicativo\npublished: false\n---\n\nBaixe o aplicativo.\n',
  'guides/setup/billing.md':
    '---\ntitle: Billing basics\nposition: 2\ncan_create_issue: false\npublished: true\n---\n\nHow we bill.\n',
  'guides/setup/billing.ru.md':
    '---\ntitle: Основы оплаты\npublished: true\n---\n\nКак мы выставляем счета.\n',
  'guides/setup/_files/manual.pdf': '%PDF-1.4 manual',
  'guides/setup/_files/руководство.pdf': '%PDF-1.4 руководство',
  'guides/setup/_images/screen.png': PNG,
  'guides/setup/_images/screen-ru.png': Buffer.concat([PNG, Buffer.from('ru')]),
  // Today's single-language article in another language than the site's: no translations, so its lang stays.
  'news/_section.md': '---\nname: News\nposition: 2\n---\n',
  'news/update.md':
    '---\ntitle: Обновление\nposition: 1\ncan_create_issue: false\npublished: true\nlang: ru\n---\n\nНовости.\n',
};

describe.each(testDialects())('translations in a content folder on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const json = async <T>(app: TestApp, url: string): Promise<T> => {
    const response = await app.app.inject(url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const articleAt = (app: TestApp, sourcePath: string) =>
    app.ctx.db
      .selectFrom('articles')
      .selectAll()
      .where('source_path', '=', sourcePath)
      .executeTakeFirstOrThrow();

  it('imports every kind of translation, pins the rows to the site language and answers each language', async () => {
    const summary = await importFolder(t.ctx, writeFolder(TRANSLATED));
    expect(summary.translations).toEqual({ created: 7, updated: 0, unchanged: 0, deleted: 0 });
    expect(summary.articles.created).toBe(3);
    expect(summary.warnings).toEqual([]);

    const install = await articleAt(t, 'guides/setup/install.md');
    const billing = await articleAt(t, 'guides/setup/billing.md');
    expect(install.lang).toBe('en');
    expect((await articleAt(t, 'news/update.md')).lang).toBe('ru');
    const sections = await t.ctx.db.selectFrom('sections').select(['name', 'lang']).orderBy('id').execute();
    expect(sections).toEqual([
      { name: 'Guides', lang: 'en' },
      { name: 'News', lang: null },
    ]);
    expect((await t.ctx.db.selectFrom('categories').select('lang').executeTakeFirstOrThrow()).lang).toBe(
      'en',
    );

    // Each translation was made from its source as imported: none is outdated.
    const ru = await t.ctx.db
      .selectFrom('article_translations')
      .selectAll()
      .where('article_id', '=', install.id)
      .where('lang', '=', 'ru')
      .executeTakeFirstOrThrow();
    expect(ru).toMatchObject({ source_lang: 'en', source_text: articleSourceText(install), published: 1 });
    // And the admin app, which tells outdated by the same snapshot, agrees.
    const { adminToken } = await adminAndUserTokens(t);
    const admin = await t.app.inject({
      url: `/api/admin/articles/${install.id}`,
      headers: { 'x-auth-token': adminToken },
    });
    expect(admin.json<{ translations: { lang: string; outdated: boolean }[] }>().translations).toEqual(
      expect.arrayContaining([expect.objectContaining({ lang: 'ru', outdated: false })]),
    );
    expect(ru.body_source).toContain('Скачайте приложение');
    // A link to a translation's file leads to its article; images are the translation's own.
    expect(ru.body_html).toContain(`href="/knowledge/instruction/${billing.id}"`);
    expect(ru.body_html).toMatch(/src="\/files\/\d+\/screen-ru\.png"/);

    const shown = await json<Instruction>(t, `/api/knowledge/instruction/${install.id}?lang=ru`);
    expect(shown).toMatchObject({ title: 'Установка приложения', lang: 'ru' });
    expect(shown.files.map((file) => file.original_name)).toEqual(['руководство.pdf']);
    const english = await json<Instruction>(t, `/api/knowledge/instruction/${install.id}?lang=en`);
    expect(english.files.map((file) => file.original_name)).toEqual(['manual.pdf']);
    // The Portuguese version is a draft: Portuguese readers get the English one.
    expect(await json<Instruction>(t, `/api/knowledge/instruction/${install.id}?lang=pt-BR`)).toMatchObject({
      title: 'Install the app',
      lang: 'en',
    });
    const sectionsRu = await json<Section[]>(t, '/api/knowledge/all-sections?lang=ru');
    expect(sectionsRu.map((section) => section.name)).toEqual(['Руководства', 'News']);
    const sectionsPt = await json<Section[]>(t, '/api/knowledge/all-sections?lang=pt-BR');
    expect(sectionsPt.map((section) => section.name)).toEqual(['Guides', 'News']);
    const categoryIt = (await json<PagedList<Category>>(t, '/api/knowledge/category?lang=it')).items[0];
    expect(categoryIt).toMatchObject({
      name: 'Configurazione',
      description: '<p>Per <em>iniziare</em></p>',
      lang: 'it',
    });
    const categoryRu = (await json<PagedList<Category>>(t, '/api/knowledge/category?lang=ru')).items[0];
    expect(categoryRu?.description).toBe('<p>С чего <strong>начать</strong>.</p>\n');
  });

  it('exports the translations beside their items, and the folder comes back byte for byte', async () => {
    const first = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-translated-'));
    const summary = await exportFolder(t.ctx, first, { force: true });
    expect(summary.translations).toBe(7);
    const exported = withoutIds(readFolder(first));
    for (const [file, content] of Object.entries(TRANSLATED)) {
      expect(exported.get(file)?.toString('utf8'), file).toBe(Buffer.from(content).toString('utf8'));
    }

    const fresh = await createTestApp(dialect);
    try {
      await importFolder(fresh.ctx, first);
      const again = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-translated-'));
      await exportFolder(fresh.ctx, again, { force: true });
      expect(withoutIds(readFolder(again))).toEqual(exported);
      const install = await articleAt(fresh, 'guides/setup/install.md');
      const url = `/api/knowledge/instruction/${install.id}?lang=ru`;
      const shown = async (app: TestApp) => {
        const { created_at: _created, updated_at: _updated, ...rest } = await json<Instruction>(app, url);
        return rest;
      };
      expect(await shown(fresh)).toEqual(await shown(t));
    } finally {
      await fresh.close();
    }
  });

  it('reports translations added, changed and removed, and keeps an untouched one outdated when its source changed', async () => {
    const install = await articleAt(t, 'guides/setup/install.md');
    const before = await t.ctx.db
      .selectFrom('article_translations')
      .selectAll()
      .where('article_id', '=', install.id)
      .where('lang', '=', 'ru')
      .executeTakeFirstOrThrow();
    const changed: Record<string, string | Buffer> = {
      ...TRANSLATED,
      'guides/setup/install.md': String(TRANSLATED['guides/setup/install.md']).replace(
        'Download it.',
        'Download it now.',
      ),
      'guides/setup/billing.ru.md': '---\ntitle: Оплата\npublished: true\n---\n\nКак мы выставляем счета.\n',
      'guides/setup/billing.it.md': '---\ntitle: Fatturazione\n---\n\nCome fatturiamo.\n',
    };
    delete changed['guides/setup/install.pt-BR.md'];
    const summary = await importFolder(t.ctx, writeFolder(changed));
    expect(summary.translations).toEqual({ created: 1, updated: 1, unchanged: 5, deleted: 1 });
    expect(summary.articles).toMatchObject({ updated: 1, unchanged: 2 });

    const after = await t.ctx.db
      .selectFrom('article_translations')
      .selectAll()
      .where('article_id', '=', install.id)
      .execute();
    expect(after.map((row) => row.lang)).toEqual(['ru']);
    // Its file did not change: it still says what it was made from, which is no longer the source's text.
    expect(after[0]?.source_text).toBe(before.source_text);
    expect(after[0]?.source_text).not.toBe(articleSourceText(await articleAt(t, 'guides/setup/install.md')));

    const billing = await articleAt(t, 'guides/setup/billing.md');
    const billingRu = await t.ctx.db
      .selectFrom('article_translations')
      .selectAll()
      .where('article_id', '=', billing.id)
      .where('lang', '=', 'ru')
      .executeTakeFirstOrThrow();
    expect(billingRu).toMatchObject({ title: 'Оплата', source_text: articleSourceText(billing) });

    // Back to the first folder: and again, the same folder changes nothing.
    await importFolder(t.ctx, writeFolder(TRANSLATED));
    const same = await importFolder(t.ctx, writeFolder(TRANSLATED));
    expect(same.translations).toEqual({ created: 0, updated: 0, unchanged: 7, deleted: 0 });
  });

  it('refuses translations without a source, with what belongs to the item, or in a language already taken, and changes nothing', async () => {
    const count = async () => ({
      articles: (await t.ctx.db.selectFrom('articles').select('id').execute()).length,
      translations: (await t.ctx.db.selectFrom('article_translations').selectAll().execute()).length,
      sections: (await t.ctx.db.selectFrom('section_translations').selectAll().execute()).length,
    });
    const before = await count();
    const folder = writeFolder({
      ...TRANSLATED,
      'guides/setup/orphan.ru.md': '---\ntitle: Сирота\n---\n',
      'guides/setup/billing.it.md': '---\ntitle: Fatturazione\nposition: 3\nnoindex: true\n---\n',
      'guides/setup/billing.sk.md': '---\ntitle: Fakturácia\nlang: ru\n---\n',
      'guides/setup/billing.en.md': '---\ntitle: Billing\n---\n',
      'guides/_section.it.md': '---\nname: Guide\nvisibility: signed_in\n---\n',
      'guides/setup/_category.sk.md': '---\nname: Nastavenie\nfont_icon: fa-solid fa-gear\n---\n',
      'news/update.ru.md': '---\ntitle: Обновление\n---\n',
    });
    const error = await importFolder(t.ctx, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    expect((error as FolderErrors).errors.map((e) => e.message)).toEqual([
      'guides/_section.it.md: visibility belongs to the item, not to one language: set it in _section.md',
      'guides/setup/_category.sk.md: font_icon belongs to the item, not to one language: set it in _category.md',
      "guides/setup/billing.en.md: is in the help centre's language (en), which is billing.md's: write that version in billing.md",
      'guides/setup/billing.it.md: position, noindex belong to the item, not to one language: set them in billing.md',
      'guides/setup/billing.sk.md: lang says ru, but the file name says sk',
      'guides/setup/orphan.ru.md: is a translation (ru) of orphan.md, which is not beside it: a translation needs its source',
      'news/update.ru.md: update.md is in ru already (its lang): one version a language',
    ]);
    expect(await count()).toEqual(before);
  });

  it("keeps an item's own language other than the site's beside translations, and swaps versions when the site's language changed", async () => {
    const other = await createTestApp(dialect);
    try {
      // A Russian article with a Portuguese translation and no English version, in an English help centre.
      const summary = await importFolder(
        other.ctx,
        writeFolder({
          ...TRANSLATED,
          'news/update.pt-BR.md': '---\ntitle: Atualização\npublished: true\n---\n\nNovidades.\n',
        }),
      );
      expect(summary.translations.created).toBe(8);
      expect((await articleAt(other, 'news/update.md')).lang).toBe('ru');

      // The help centre now speaks Russian: the Russian versions are the items' own files, the English ones
      // are translations.
      await updateBranding(other.ctx.db, { lang: 'ru' });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-translated-'));
      await exportFolder(other.ctx, dir, { force: true });
      const files = withoutIds(readFolder(dir));
      const text = (file: string) => files.get(file)?.toString('utf8');
      expect(text('guides/_section.md')).toBe('---\nname: Руководства\nposition: 1\n---\n');
      expect(text('guides/_section.en.md')).toBe('---\nname: Guides\n---\n');
      expect(text('guides/setup/install.md')).toBe(
        [
          '---',
          'title: Установка приложения',
          'position: 1',
          'can_create_issue: true',
          'published: true',
          'files:',
          '  - _files/руководство.pdf',
          '---',
          '',
          'Скачайте приложение. ![Экран](_images/screen-ru.png) Об оплате — [здесь](billing.ru.md).',
          '',
        ].join('\n'),
      );
      expect(text('guides/setup/install.en.md')).toContain(
        'title: Install the app\npublished: true\nfiles:\n',
      );
      expect(text('guides/setup/install.pt-BR.md')).toContain('published: false');
      // Russian is now the help centre's language: the file's name says it.
      expect(text('news/update.md')).not.toContain('lang:');
      expect(text('news/update.pt-BR.md')).toContain('title: Atualização');

      // Read back into a Russian help centre, it answers as before in every language.
      const fresh = await createTestApp(dialect);
      try {
        await updateBranding(fresh.ctx.db, { lang: 'ru' });
        await importFolder(fresh.ctx, dir);
        for (const lang of ['ru', 'en', 'pt-BR', 'it']) {
          const titles = async (app: TestApp) =>
            (await json<PagedList<Instruction>>(app, `/api/knowledge/instruction?lang=${lang}`)).items
              .map((item) => `${item.lang}:${item.title}`)
              .sort();
          expect(await titles(fresh), lang).toEqual(await titles(other));
          const names = async (app: TestApp) =>
            (await json<Section[]>(app, `/api/knowledge/all-sections?lang=${lang}`)).map((s) => s.name);
          expect(await names(fresh), lang).toEqual(await names(other));
        }
      } finally {
        await fresh.close();
      }
    } finally {
      await other.close();
    }
  });
});
