import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../db/schema-helpers.ts';
import {
  buildArticle,
  buildArticleTranslation,
  buildCategory,
  buildCategoryTranslation,
  buildFile,
  buildSection,
  buildSectionTranslation,
} from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { updateBranding } from '../../settings/branding.ts';
import { restoreBackup, writeBackup } from './backup.service.ts';

/** Each way between the two databases, or a round trip on the one available. */
function directions(): [Dialect, Dialect][] {
  const dialects = testDialects();
  if (dialects.length === 1) return [[dialects[0]!, dialects[0]!]];
  return [
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ];
}

const LANGS = ['en', 'ru', 'pt-BR', 'it', 'sk'];

/** Every public call for the content, in every language, and every content file's address. */
async function publicUrls(t: TestApp): Promise<string[]> {
  const urls: string[] = [];
  const articles = (await t.ctx.db.selectFrom('articles').select('id').orderBy('id').execute()).map(
    (row) => row.id,
  );
  const categories = (await t.ctx.db.selectFrom('categories').select('id').orderBy('id').execute()).map(
    (row) => row.id,
  );
  for (const lang of LANGS) {
    urls.push(
      `/api/settings/branding?lang=${lang}`,
      `/api/knowledge/all-sections?lang=${lang}`,
      `/api/knowledge/category?lang=${lang}`,
      `/api/knowledge/instruction?lang=${lang}`,
      `/api/search/knowledge/suggestions?text=${encodeURIComponent('приложение')}&lang=${lang}`,
      `/api/search/knowledge/suggestions?text=install&lang=${lang}`,
    );
    for (const id of categories) urls.push(`/api/knowledge/instruction?category_id=${id}&lang=${lang}`);
    for (const id of articles) urls.push(`/api/knowledge/instruction/${id}?lang=${lang}`);
  }
  const files = await t.ctx.db.selectFrom('files').select(['id', 'original_name']).orderBy('id').execute();
  for (const file of files) urls.push(`/files/${file.id}/${encodeURIComponent(file.original_name)}`);
  return urls;
}

describe.each(directions())('translations backed up on %s and restored on %s', (from, to) => {
  let source: TestApp;
  let target: TestApp;
  let folder: string;
  let installId: number;

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(from), createTestApp(to)]);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backup-translations-'));
    const { db } = source.ctx;
    await updateBranding(db, {
      site_title: 'Lumo Help',
      titles: { ru: { site_title: 'Справка Lumo', knowledge_title: 'База знаний' } },
    });
    const guides = await buildSection(db, { name: 'Guides', lang: 'en' });
    await buildSectionTranslation(db, { section_id: guides.id, lang: 'ru', name: 'Руководства' });
    await buildSectionTranslation(db, {
      section_id: guides.id,
      lang: 'it',
      name: 'Guide',
      published: 0,
      source_lang: 'en',
      source_text: JSON.stringify({ name: 'Guides' }),
    });
    const setup = await buildCategory(db, {
      section_id: guides.id,
      name: 'Setup',
      description: '<p>Getting going</p>',
      lang: 'en',
    });
    await buildCategoryTranslation(db, {
      category_id: setup.id,
      lang: 'ru',
      name: 'Настройка',
      description: '<p>С чего начать</p>',
      description_source: 'С чего начать',
    });
    const install = await buildArticle(db, {
      category_id: setup.id,
      title: 'Install the app',
      body_html: '<p>Download the app</p>',
      lang: 'en',
    });
    installId = install.id;
    await buildFile(source.ctx, { name: 'manual.pdf', content: '%PDF manual', articleId: install.id });
    const manualRu = await buildFile(source.ctx, { name: 'руководство.pdf', content: '%PDF руководство' });
    const manualPt = await buildFile(source.ctx, { name: 'manual-pt.pdf', content: '%PDF manual pt' });
    await buildArticleTranslation(db, {
      article_id: install.id,
      lang: 'ru',
      title: 'Установка приложения',
      body_html: '<p>Скачайте приложение</p>',
      body_source: 'Скачайте приложение',
      source_lang: 'en',
      source_text: JSON.stringify({ title: 'Install the app', body_html: '<p>Download the app</p>' }),
      fileIds: [manualRu.id],
    });
    await buildArticleTranslation(db, {
      article_id: install.id,
      lang: 'pt-BR',
      title: 'Instalar o aplicativo',
      published: 0,
      fileIds: [manualPt.id],
    });
    const onlyRu = await buildArticle(db, {
      section_id: guides.id,
      title: 'Draft',
      published: 0,
      lang: 'en',
    });
    await buildArticleTranslation(db, { article_id: onlyRu.id, lang: 'ru', title: 'Только по-русски' });
    await source.ctx.search.refresh();
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('keeps every translation, its files and snapshot, and answers the same in every language', async () => {
    const file = path.join(folder, 'help.signpost.gz');
    const header = await writeBackup(source.ctx, file);
    expect(header.tables).toMatchObject({
      section_translations: 2,
      category_translations: 1,
      article_translations: 3,
      article_translation_files: 2,
    });
    await restoreBackup(target.ctx, file);
    await target.ctx.search.refresh();

    for (const table of [
      'section_translations',
      'category_translations',
      'article_translations',
      'article_translation_files',
    ] as const) {
      const rows = (app: TestApp) => app.ctx.db.selectFrom(table).selectAll().orderBy('lang').execute();
      expect(await rows(target), table).toEqual(await rows(source));
    }

    const urls = await publicUrls(source);
    expect(urls.length).toBeGreaterThan(40);
    const statuses = new Map<string, number>();
    for (const url of urls) {
      const [a, b] = await Promise.all([source.app.inject(url), target.app.inject(url)]);
      statuses.set(url, b.statusCode);
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.rawPayload.equals(a.rawPayload), url).toBe(true);
    }
    // Every call answers; the only file nobody may read is the one of a translation still a draft.
    expect([...statuses].filter(([, status]) => status !== 200).map(([url]) => url)).toEqual([
      expect.stringMatching(/\/manual-pt\.pdf$/),
    ]);
    const ru = await target.app.inject(`/api/knowledge/instruction/${installId}?lang=ru`);
    expect(ru.body).toContain('Установка приложения');
    expect(ru.body).toContain('руководство.pdf');
    expect((await target.app.inject('/api/settings/branding?lang=ru')).body).toContain('Справка Lumo');
  });
});
