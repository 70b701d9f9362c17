import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Instruction, InstructionSummary, Section } from '../../../shared/api/knowledge.ts';
import type { PagedList } from '../../../shared/api/common.ts';
import type { Branding } from '../../../shared/api/settings.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
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
import { touchContent } from '../../revisions/revision.repository.ts';
import { buildUser } from '../../testing/factories.ts';
import { signIn } from '../../testing/admin-content.ts';

describe.each(testDialects())('content in several languages on %s', (dialect) => {
  /**
   * An English site. Guides (also in Russian) > Setup (also in Russian, with its own description) holds:
   * both (English and Russian, each with its own file), english (English only), russian (an English draft and a
   * published Russian translation), draftRu (English, with a Russian translation still a draft). News (English
   * only) holds members, for signed-in visitors, translated into Russian.
   */
  let t: TestApp;
  let guides: SectionRow, news: SectionRow, setup: CategoryRow;
  let both: ArticleRow, english: ArticleRow, russian: ArticleRow, draftRu: ArticleRow, members: ArticleRow;
  let manual: FileRow, manualRu: FileRow;

  const json = async <T>(url: string, headers: Record<string, string> = {}): Promise<T> => {
    const response = await t.app.inject({ url, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const bundle = (lang?: string) =>
    json<PagedList<InstructionSummary>>(`/api/knowledge/instruction${lang ? `?lang=${lang}` : ''}`);
  const byId = <T extends { id: number }>(items: T[], id: number) => items.find((item) => item.id === id);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    guides = await buildSection(db, { name: 'Guides', position: 1, lang: 'en' });
    news = await buildSection(db, { name: 'News', position: 2 });
    await buildSectionTranslation(db, { section_id: guides.id, lang: 'ru', name: 'Руководства' });
    setup = await buildCategory(db, {
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
    });
    both = await buildArticle(db, {
      category_id: setup.id,
      title: 'Install the app',
      lang: 'en',
      position: 1,
    });
    manual = await buildFile(t.ctx, { name: 'manual.pdf', content: 'manual', articleId: both.id });
    manualRu = await buildFile(t.ctx, { name: 'руководство.pdf', content: 'руководство' });
    await buildArticleTranslation(db, {
      article_id: both.id,
      lang: 'ru',
      title: 'Установка приложения',
      body_html: '<p>Скачайте приложение</p>',
      fileIds: [manualRu.id],
    });
    english = await buildArticle(db, { category_id: setup.id, title: 'Billing basics', position: 2 });
    russian = await buildArticle(db, {
      category_id: setup.id,
      title: 'Draft in English',
      published: 0,
      lang: 'en',
      position: 3,
    });
    await buildArticleTranslation(db, { article_id: russian.id, lang: 'ru', title: 'Только по-русски' });
    draftRu = await buildArticle(db, {
      category_id: setup.id,
      title: 'Reset a password',
      lang: 'en',
      position: 4,
    });
    await buildArticleTranslation(db, {
      article_id: draftRu.id,
      lang: 'ru',
      title: 'Сброс пароля',
      published: 0,
    });
    members = await buildArticle(db, {
      section_id: news.id,
      title: 'Members news',
      lang: 'en',
      visibility: 'signed_in',
    });
    await buildArticleTranslation(db, { article_id: members.id, lang: 'ru', title: 'Новости для своих' });
  });
  afterAll(async () => t?.close());

  it("answers every item in the language asked for, and the site's where it has no version in it", async () => {
    const sections = await json<Section[]>('/api/knowledge/all-sections?lang=ru');
    expect(byId(sections, guides.id)).toMatchObject({ name: 'Руководства', lang: 'ru' });

    const categories = await json<PagedList<Category>>('/api/knowledge/category?lang=ru');
    expect(byId(categories.items, setup.id)).toMatchObject({
      name: 'Настройка',
      description: '<p>С чего начать</p>',
      lang: 'ru',
    });

    const items = (await bundle('ru')).items;
    expect(byId(items, both.id)).toMatchObject({ title: 'Установка приложения', lang: 'ru' });
    expect(byId(items, english.id)).toMatchObject({ title: 'Billing basics', lang: 'en' });
    expect(byId(items, russian.id)).toMatchObject({ title: 'Только по-русски', lang: 'ru' });
    // A translation still a draft is not shown: the English version is, marked as such.
    expect(byId(items, draftRu.id)).toMatchObject({ title: 'Reset a password', lang: 'en' });
  });

  it('hides nothing for lack of a translation: a version only in Russian is shown to English readers, marked', async () => {
    const items = (await bundle('en')).items;
    expect(items.map((item) => item.id).sort((a, b) => a - b)).toEqual(
      [both.id, english.id, russian.id, draftRu.id].sort((a, b) => a - b),
    );
    expect(byId(items, russian.id)).toMatchObject({ title: 'Только по-русски', lang: 'ru' });
    expect(byId(items, both.id)).toMatchObject({ title: 'Install the app', lang: 'en' });
    // Without `lang`, the site's language.
    expect((await bundle()).items).toEqual(items);
    // A language the content is not in at all: the site's, everywhere it can be.
    const italian = (await bundle('it')).items;
    expect(byId(italian, both.id)).toMatchObject({ title: 'Install the app', lang: 'en' });
    expect(byId(italian, russian.id)).toMatchObject({ lang: 'ru' });
  });

  it('counts the same articles whichever the language, so tiles and lists agree with what is shown', async () => {
    for (const lang of ['en', 'ru', 'sk']) {
      const sections = await json<Section[]>(`/api/knowledge/all-sections?lang=${lang}`);
      // News holds only an article for signed-in visitors: anonymous readers see no News in any language.
      expect(sections.map((section) => section.id)).toEqual([guides.id]);
      const categories = await json<PagedList<Category>>(`/api/knowledge/category?lang=${lang}`);
      expect(byId(categories.items, setup.id)?.count_instruction).toBe(4);
      const page = await json<PagedList<Instruction>>(
        `/api/knowledge/instruction?category_id=${setup.id}&lang=${lang}`,
      );
      expect(page._meta.totalCount).toBe(4);
      expect(page.items).toHaveLength(4);
    }
  });

  it("answers an article in the reader's language with that version's own body and files", async () => {
    const ru = await json<Instruction>(`/api/knowledge/instruction/${both.id}?lang=ru`);
    expect(ru).toMatchObject({
      title: 'Установка приложения',
      lang: 'ru',
      description: '<p>Скачайте приложение</p>',
    });
    expect(ru.files.map((file) => file.id)).toEqual([manualRu.id]);
    const en = await json<Instruction>(`/api/knowledge/instruction/${both.id}?lang=en`);
    expect(en).toMatchObject({ title: 'Install the app', lang: 'en' });
    expect(en.files.map((file) => file.id)).toEqual([manual.id]);
    // An article whose own version is a draft is read through its published translation, in any language.
    const onlyRu = await json<Instruction>(`/api/knowledge/instruction/${russian.id}?lang=en`);
    expect(onlyRu).toMatchObject({ title: 'Только по-русски', lang: 'ru' });
    // The page of a category, in Russian: full articles with their Russian bodies.
    const page = await json<PagedList<Instruction>>(
      `/api/knowledge/instruction?category_id=${setup.id}&lang=ru`,
    );
    expect(byId(page.items, both.id)).toMatchObject({
      lang: 'ru',
      description: '<p>Скачайте приложение</p>',
    });
    expect(byId(page.items, both.id)?.files.map((file) => file.id)).toEqual([manualRu.id]);
  });

  it("searches the reader's language first, then the fallback, and answers each article in the version shown", async () => {
    type Found = { items: { id: number; title: string; lang: string; snippet: string }[] };
    const suggest = (text: string, lang?: string) =>
      json<Found>(
        `/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}${lang ? `&lang=${lang}` : ''}`,
      ).then((found) => found.items);
    const [ru] = await suggest('установка', 'ru');
    expect(ru).toMatchObject({ id: both.id, title: 'Установка приложения', lang: 'ru' });
    expect(ru?.snippet).toBe('Скачайте приложение');
    expect((await suggest('скачайте', 'ru'))[0]?.snippet).toContain('<mark>Скачайте</mark>');
    // Found by its English words, shown to a Russian reader as they read it: in Russian, once.
    const byEnglish = await suggest('install', 'ru');
    expect(byEnglish.filter((item) => item.id === both.id)).toEqual([
      expect.objectContaining({ title: 'Установка приложения', lang: 'ru' }),
    ]);
    expect((await suggest('install', 'en'))[0]).toMatchObject({
      id: both.id,
      title: 'Install the app',
      lang: 'en',
    });
    expect((await suggest('install'))[0]).toMatchObject({ id: both.id, lang: 'en' });
    // A fallback is found and marked: English for a Russian reader, the only Russian version for an English one.
    expect((await suggest('billing', 'ru'))[0]).toMatchObject({ id: english.id, lang: 'en' });
    expect((await suggest('только', 'en'))[0]).toMatchObject({ id: russian.id, lang: 'ru' });
    // A translation still a draft is not searched.
    expect((await suggest('сброс', 'ru')).map((item) => item.id)).not.toContain(draftRu.id);
    // Nor is a language neither the reader's nor the site's, for an article shown in another.
    expect((await suggest('установка', 'it')).map((item) => item.id)).not.toContain(both.id);

    // A translation added is searched from the next search on, and one removed no longer is.
    await buildArticleTranslation(t.ctx.db, {
      article_id: english.id,
      lang: 'it',
      title: 'Fatturazione di base',
    });
    expect((await suggest('fatturazione', 'it'))[0]).toMatchObject({ id: english.id, lang: 'it' });
    await t.ctx.db.deleteFrom('article_translations').where('lang', '=', 'it').execute();
    await touchContent(t.ctx.db);
    expect(await suggest('fatturazione', 'it')).toEqual([]);
    expect((await suggest('billing', 'it'))[0]).toMatchObject({ id: english.id, lang: 'en' });
  });

  it('keeps what is for signed-in visitors from anonymous ones in every language', async () => {
    expectApiError(await t.app.inject(`/api/knowledge/instruction/${members.id}?lang=ru`), 401);
    const user = await buildUser(t.ctx.db);
    const token = await signIn(t, user.email);
    const ru = await json<Instruction>(`/api/knowledge/instruction/${members.id}?lang=ru`, {
      'x-auth-token': token,
    });
    expect(ru).toMatchObject({ title: 'Новости для своих', lang: 'ru' });
  });

  it('refuses a language it does not speak, naming the field', async () => {
    for (const url of [
      '/api/knowledge/all-sections?lang=xx',
      '/api/knowledge/category?lang=de',
      `/api/knowledge/instruction?lang=EN`,
      `/api/knowledge/instruction/${both.id}?lang=`,
      '/api/settings/branding?lang=klingon',
      '/api/search/knowledge/suggestions?text=install&lang=fr',
    ]) {
      expectApiError(await t.app.inject(url), 400, ['lang']);
    }
  });

  it("answers the branding's titles in the language asked for, and the languages the content is in", async () => {
    await updateBranding(t.ctx.db, {
      site_title: 'Acme help',
      knowledge_title: '',
      titles: { ru: { site_title: 'Помощь Acme' } },
    });
    const ru = await json<Branding>('/api/settings/branding?lang=ru');
    expect(ru).toMatchObject({
      lang: 'en',
      site_title: 'Помощь Acme',
      // Left empty: the interface's own title in Russian.
      knowledge_title: 'Чем мы можем вам помочь?',
      languages: ['en', 'ru'],
    });
    // No title in Italian: the site's own name rather than a generic phrase.
    expect(await json<Branding>('/api/settings/branding?lang=it')).toMatchObject({
      site_title: 'Acme help',
      knowledge_title: 'Come possiamo aiutarla?',
    });
  });

  it("re-points the fallback when the site's language changes; what has no version in it keeps its own", async () => {
    // As the admin app's change does: the answers kept for the old language are dropped.
    await updateBranding(t.ctx.db, { lang: 'ru' });
    await touchContent(t.ctx.db);
    try {
      const items = (await bundle()).items;
      expect(byId(items, both.id)).toMatchObject({ title: 'Установка приложения', lang: 'ru' });
      // Written in English and never translated, pinned to English: shown in English, marked.
      expect(byId(items, draftRu.id)).toMatchObject({ title: 'Reset a password', lang: 'en' });
      expect(byId((await bundle('en')).items, both.id)).toMatchObject({
        title: 'Install the app',
        lang: 'en',
      });
      const branding = await json<Branding>('/api/settings/branding');
      expect(branding.languages).toEqual(['ru', 'en']);
    } finally {
      await updateBranding(t.ctx.db, { lang: 'en' });
      await touchContent(t.ctx.db);
    }
  });
});
