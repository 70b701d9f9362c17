import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createContext } from '../../context-factory.ts';
import type { ArticleRow, CategoryRow } from '../../db/tables.ts';
import {
  buildArticle,
  buildArticleTranslation,
  buildCategory,
  buildCategoryTranslation,
  buildSection,
  buildSectionTranslation,
} from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { issueOpenBody, OPEN_REQUESTS_CONFIG } from '../../testing/ticket-fixtures.ts';
import { acceptedLanguages } from '../../languages/index.ts';

const ORIGIN = 'http://help.example.com';

describe('Accept-Language as the help centre reads it', () => {
  it('orders by q, then by order, and takes a tag by its primary subtag', () => {
    expect(acceptedLanguages('de, ru;q=0.5, en;q=0.7', ['en', 'ru'])).toEqual(['en', 'ru']);
    expect(acceptedLanguages('pt-PT,pt;q=0.9', ['en', 'pt-BR'])).toEqual(['pt-BR']);
    expect(acceptedLanguages('PT-br', ['en', 'pt-BR'])).toEqual(['pt-BR']);
    expect(acceptedLanguages('*, ru;q=0', ['en', 'ru'])).toEqual([]);
    expect(acceptedLanguages(undefined, ['en', 'ru'])).toEqual([]);
  });
});

describe.each(testDialects())('the visitor’s language on the pages on %s', (dialect) => {
  /** An English help centre with Setup and one article translated into Russian, one article in English only. */
  let t: TestApp;
  let setup: CategoryRow, both: ArticleRow, english: ArticleRow;

  beforeAll(async () => {
    t = await createTestApp(dialect, { ...OPEN_REQUESTS_CONFIG, PUBLIC_URL: ORIGIN });
    const { db } = t.ctx;
    const guides = await buildSection(db, { name: 'Guides', lang: 'en' });
    await buildSectionTranslation(db, { section_id: guides.id, lang: 'ru', name: 'Руководства' });
    setup = await buildCategory(db, { section_id: guides.id, name: 'Setup', lang: 'en' });
    await buildCategoryTranslation(db, { category_id: setup.id, lang: 'ru', name: 'Настройка' });
    both = await buildArticle(db, {
      category_id: setup.id,
      title: 'Install the app',
      lang: 'en',
      can_create_issue: 1,
    });
    await buildArticleTranslation(db, {
      article_id: both.id,
      lang: 'ru',
      title: 'Установка приложения',
      body_html: '<p>Скачайте приложение</p>',
    });
    english = await buildArticle(db, { category_id: setup.id, title: 'Billing basics', lang: 'en' });
  });
  afterAll(async () => t?.close());

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  it('sends a visitor whose Accept-Language prefers a language the content is in to its address (302)', async () => {
    const answer = await page(`/knowledge/instruction/${both.id}`, {
      'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5',
    });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe(`/knowledge/instruction/${both.id}?lang=ru`);
    expect(answer.headers.vary).toBe('Accept-Language, Cookie');
    // The search keeps its query.
    const search = await page('/knowledge/search?query=app&utm_source=x', { 'accept-language': 'ru' });
    expect(search.headers.location).toBe('/knowledge/search?query=app&lang=ru');
  });

  it('follows the remembered choice (the cookie) before Accept-Language', async () => {
    const chosen = await page('/knowledge/', { cookie: 'a=1; signpost_lang=ru', 'accept-language': 'en' });
    expect(chosen.statusCode).toBe(302);
    expect(chosen.headers.location).toBe('/knowledge/?lang=ru');
    // The site's own language chosen: the address without lang answers, whatever the browser says.
    const english = await page('/knowledge/', { cookie: 'signpost_lang=en', 'accept-language': 'ru' });
    expect(english.statusCode).toBe(200);
    // A language the content is not in is no choice: Accept-Language decides.
    const unknown = await page('/knowledge/', { cookie: 'signpost_lang=sk', 'accept-language': 'ru' });
    expect(unknown.headers.location).toBe('/knowledge/?lang=ru');
  });

  it('answers the address without lang in the site’s language to anyone else, saying it varies by both', async () => {
    const asked: Record<string, string>[] = [
      {},
      { 'accept-language': 'en-GB' },
      { 'accept-language': 'de, fr;q=0.5' },
    ];
    for (const headers of asked) {
      const answer = await page('/knowledge/', headers);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toMatch(/<html lang="en">/);
      expect(String(answer.headers.vary)).toMatch(/^Accept-Language, Cookie(, Accept-Encoding)?$/);
    }
  });

  it('answers an address with lang the same for everyone, without varying by language', async () => {
    const answer = await page(`/knowledge/instruction/${both.id}?lang=ru`, { 'accept-language': 'en' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(/<html lang="ru">/);
    expect(answer.body).toContain('<h1>Установка приложения</h1>');
    expect(String(answer.headers.vary ?? '')).not.toMatch(/Accept-Language/);
    // Links to the site's own pages keep the language.
    expect(answer.body).toContain(`href="/knowledge/category/${setup.id}?lang=ru"`);
    expect(answer.body).toContain('href="/knowledge/?lang=ru"');
  });

  it('drops an invalid lang with a permanent redirect', async () => {
    const answer = await page('/knowledge/search?query=app&lang=xx');
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe('/knowledge/search?query=app');
    expect((await page('/knowledge/?lang=')).headers.location).toBe('/knowledge/');
  });

  it('marks an article shown in the site’s language for want of a translation, with a note', async () => {
    const answer = await page(`/knowledge/instruction/${english.id}?lang=ru`);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('<h1 lang="en">Billing basics</h1>');
    expect(answer.body).toContain('Эта статья ещё не переведена на русский язык');
    // The interface is Russian, the trail's category translated.
    expect(answer.body).toMatch(/<a href="\/knowledge\/category\/\d+\?lang=ru"[^>]*>Настройка<\/a>/);
  });

  it('names every language’s address with hreflang, and its own as canonical', async () => {
    const english = await page(`/knowledge/instruction/${both.id}`);
    const russian = await page(`/knowledge/instruction/${both.id}?lang=ru`);
    const path = `${ORIGIN}/knowledge/instruction/${both.id}`;
    for (const answer of [english, russian]) {
      expect(answer.body).toContain(`<link rel="alternate" hreflang="en" href="${path}">`);
      expect(answer.body).toContain(`<link rel="alternate" hreflang="ru" href="${path}?lang=ru">`);
      expect(answer.body).toContain(`<link rel="alternate" hreflang="x-default" href="${path}">`);
    }
    expect(english.body).toContain(`<link rel="canonical" href="${path}">`);
    expect(russian.body).toContain(`<link rel="canonical" href="${path}?lang=ru">`);
    // The site's own language named explicitly is the same page: its canonical is the address without lang.
    expect((await page(`/knowledge/instruction/${both.id}?lang=en`)).body).toContain(
      `<link rel="canonical" href="${path}">`,
    );
  });

  it('lists each page in every language in the sitemap, each naming the others', async () => {
    const sitemap = (await page('/sitemap.xml')).body;
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const path = `${ORIGIN}/knowledge/instruction/${english.id}`;
    const links =
      `<xhtml:link rel="alternate" hreflang="en" href="${path}"/>` +
      `<xhtml:link rel="alternate" hreflang="ru" href="${path}?lang=ru"/>` +
      `<xhtml:link rel="alternate" hreflang="x-default" href="${path}"/>`;
    expect(sitemap).toContain(`<url><loc>${path}</loc>`);
    const russian = sitemap.split('\n').find((line) => line.startsWith(`<url><loc>${path}?lang=ru</loc>`));
    expect(russian).toMatch(/<\/lastmod>/);
    expect(russian?.replace(/<lastmod>[^<]+<\/lastmod>/, '')).toBe(
      `<url><loc>${path}?lang=ru</loc>${links}</url>`,
    );
  });

  it('records the language a request was sent in, and answers its field errors in it', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ name: '', lang: 'ru' }),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().data.errors).toEqual([{ field: 'name', message: 'Это поле обязательно' }]);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ lang: 'ru' }),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const ticket = await t.ctx.db
      .selectFrom('tickets')
      .select('lang')
      .where('id', '=', sent.json().data.id)
      .executeTakeFirstOrThrow();
    expect(ticket.lang).toBe('ru');
    const plain = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody(),
    });
    const site = await t.ctx.db
      .selectFrom('tickets')
      .select('lang')
      .where('id', '=', plain.json().data.id)
      .executeTakeFirstOrThrow();
    expect(site.lang).toBe('en');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ lang: 'xx' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('lang');
  });

  it('never answers a kept page to a visitor who should be sent to their language', async () => {
    // A fresh app on a real port: kept answers go out there before the framework sees the request.
    const ctx = await createContext(t.environment.config);
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/knowledge/category/${setup.id}`;
    const get = (headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
    try {
      expect((await get()).headers.get('x-cache')).toBe('miss');
      const kept = await get({ 'accept-language': 'en' });
      expect(kept.headers.get('x-cache')).toBe('hit');
      expect(kept.headers.get('vary')).toBe('Accept-Language, Cookie, Accept-Encoding');
      const russian: Record<string, string>[] = [
        { 'accept-language': 'ru,en;q=0.5' },
        { cookie: 'signpost_lang=ru' },
      ];
      for (const headers of russian) {
        const sent = await get(headers);
        expect(sent.status).toBe(302);
        expect(sent.headers.get('location')).toBe(`/knowledge/category/${setup.id}?lang=ru`);
        expect(sent.headers.get('x-cache')).toBeNull();
      }
      // And the kept page is still there for everyone else.
      expect((await get()).headers.get('x-cache')).toBe('hit');
    } finally {
      await app.close();
      await ctx.database.close();
    }
  });
});

describe.each(testDialects())('kept pages as the content’s languages change on %s', (dialect) => {
  it('sends a visitor to a language once content is published in it, though the same header was answered from memory', async () => {
    const t = await createTestApp(dialect, { PUBLIC_URL: ORIGIN, REVISION_CHECK_MS: '60000' });
    try {
      const guides = await buildSection(t.ctx.db, { name: 'Guides', lang: 'en' });
      await buildSectionTranslation(t.ctx.db, { section_id: guides.id, lang: 'ru', name: 'Руководства' });
      const setup = await buildCategory(t.ctx.db, { section_id: guides.id, name: 'Setup', lang: 'en' });
      await buildArticle(t.ctx.db, { category_id: setup.id, title: 'Install the app', lang: 'en' });
      // A fresh app that trusts its revision for a minute: kept answers go out before the framework.
      const ctx = await createContext(t.environment.config);
      const app = await buildApp(ctx);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/knowledge/category/${setup.id}`;
      const italianFirst = { 'accept-language': 'it,en;q=0.5' };
      const get = (headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
      try {
        expect((await get()).headers.get('x-cache')).toBe('miss');
        for (let i = 0; i < 3; i++) {
          const kept = await get(italianFirst);
          expect(kept.status).toBe(200);
          expect(kept.headers.get('x-cache')).toBe('hit');
        }
        await buildCategoryTranslation(t.ctx.db, {
          category_id: setup.id,
          lang: 'it',
          name: 'Configurazione',
        });
        // As a write through this server does: the next request reads the revision.
        ctx.revisions.invalidate();
        for (let i = 0; i < 3; i++) {
          const sent = await get(italianFirst);
          expect(sent.status).toBe(302);
          expect(sent.headers.get('location')).toBe(`/knowledge/category/${setup.id}?lang=it`);
        }
        // The translation dropped the kept page: rendered again, then kept for those read in English.
        expect((await get()).headers.get('x-cache')).toBe('miss');
        expect((await get({ 'accept-language': 'en' })).headers.get('x-cache')).toBe('hit');
      } finally {
        await app.close();
        await ctx.database.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())('a help centre in one language on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_URL: ORIGIN });
    await buildArticle(t.ctx.db, { title: 'Only English', lang: 'en' });
  });
  afterAll(async () => t?.close());

  it('sends nobody anywhere, varies by nothing but the encoding, and names no alternates', async () => {
    const answer = await t.app.inject({
      url: '/knowledge/',
      headers: { 'accept-language': 'ru', cookie: 'signpost_lang=ru' },
    });
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers.vary ?? '')).not.toMatch(/Accept-Language/);
    expect(answer.body).not.toContain('hreflang');
    expect(answer.body).not.toContain('lang-switcher');
    expect((await t.app.inject('/sitemap.xml')).body).not.toContain('xhtml');
  });
});
