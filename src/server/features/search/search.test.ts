import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suggestion } from '../../../shared/api/search.ts';
import type { ArticleRow, CategoryRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildCategory } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { createSearchService, loadSearchDocuments } from '../../search/search.service.ts';

describe.each(testDialects())('search suggestions API on %s', (dialect) => {
  let t: TestApp;
  let category: CategoryRow;
  let titleMatch: ArticleRow, bodyMatch: ArticleRow, laterTitleMatch: ArticleRow, slovak: ArticleRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    category = await buildCategory(db, { name: 'Billing' });
    // The body-only match comes first by position, so only ranking can put the title matches ahead of it.
    bodyMatch = await buildArticle(db, {
      category_id: category.id,
      title: 'Payment methods',
      body_html: '<p>You can see every <strong>invoice</strong> in your account.</p>',
      position: 1,
    });
    titleMatch = await buildArticle(db, {
      category_id: category.id,
      title: 'Download an invoice',
      body_html: '<p>Open the billing page.</p>',
      position: 2,
    });
    laterTitleMatch = await buildArticle(db, {
      section_id: category.section_id,
      title: 'Invoice history',
      body_html: '<p>All past payments.</p>',
      position: 3,
    });
    slovak = await buildArticle(db, {
      title: 'Ako nahrať súbor',
      body_html: '<p>Kliknite na tlačidlo Nahrať.</p>',
    });
    await buildArticle(db, { title: 'Invoice drafts', body_html: '<p>invoice</p>', published: 0 });
    await buildArticle(db, {
      title: 'Links',
      body_html: '<p><a href="https://example.com/kubernetes">the cluster guide</a></p>',
    });
    for (let i = 0; i < 12; i++) await buildArticle(db, { title: `Printer guide ${i}`, position: 10 + i });
  });
  afterAll(async () => t?.close());

  const suggest = async (query: string) => {
    const response = await t.app.inject(`/api/search/knowledge/suggestions?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Suggestion[] }>().items;
  };

  it('answers id, title, category_id and section_id, title matches first', async () => {
    const items = (await suggest('text=invoice&limit=10&perPage=10')).map(
      ({ snippet: _snippet, ...item }) => item,
    );
    // Both title matches, in the order of their relevance, then the body-only match, though it comes first by position.
    expect(items.slice(0, 2)).toEqual(
      expect.arrayContaining([
        {
          id: titleMatch.id,
          title: 'Download an invoice',
          lang: 'en',
          category_id: category.id,
          section_id: category.section_id,
        },
        {
          id: laterTitleMatch.id,
          title: 'Invoice history',
          lang: 'en',
          category_id: null,
          section_id: category.section_id,
        },
      ]),
    );
    expect(items[2]).toEqual({
      id: bodyMatch.id,
      title: 'Payment methods',
      lang: 'en',
      category_id: category.id,
      section_id: category.section_id,
    });
    expect(items).toHaveLength(3);
  });

  it('never suggests an unpublished article', async () => {
    const titles = (await suggest('text=drafts')).map((s) => s.title);
    expect(titles).toEqual([]);
  });

  it('respects limit and perPage, 10 by default', async () => {
    expect(await suggest('text=printer')).toHaveLength(10);
    expect(await suggest('text=printer&limit=3')).toHaveLength(3);
    expect(await suggest('text=printer&perPage=4')).toHaveLength(4);
    expect(await suggest('text=printer&limit=50&perPage=50')).toHaveLength(12);
  });

  it('folds case and diacritics both ways', async () => {
    expect((await suggest('text=subor')).map((s) => s.id)).toEqual([slovak.id]);
    expect((await suggest(`text=${encodeURIComponent('SÚBOR')}`)).map((s) => s.id)).toEqual([slovak.id]);
    expect((await suggest(`text=${encodeURIComponent('nahrat subor')}`)).map((s) => s.id)).toEqual([
      slovak.id,
    ]);
  });

  it('matches the start of the last word as the visitor types', async () => {
    expect((await suggest('text=invo')).map((s) => s.id)).toContain(titleMatch.id);
    expect((await suggest('text=inv')).map((s) => s.id)).toContain(titleMatch.id);
  });

  it('completes three or four letters from titles and names, and from bodies from the fifth', async () => {
    // 'account' is in a body only: its beginning is too common a start in bodies until a fifth letter.
    expect((await suggest('text=accou')).map((s) => s.id)).toContain(bodyMatch.id);
    expect((await suggest('text=acc')).map((s) => s.id)).not.toContain(bodyMatch.id);
    // A short word found whole in a body still counts, and a category's name completes from three letters.
    expect((await suggest('text=page')).map((s) => s.id)).toContain(titleMatch.id);
    expect((await suggest('text=bil')).map((s) => s.id)).toEqual(
      expect.arrayContaining([bodyMatch.id, titleMatch.id]),
    );
  });

  it('waits for a third letter before matching the start of a word, which one or two would make most words', async () => {
    expect(await suggest('text=in')).toEqual([]);
    expect(await suggest('text=i')).toEqual([]);
  });

  it('finds nothing for only words that every article has', async () => {
    expect(await suggest('text=how%20do%20i%20the')).toEqual([]);
    // Among other words, they do not count against an article.
    expect((await suggest('text=how%20do%20i%20download%20the%20invoice')).map((s) => s.title)[0]).toBe(
      'Download an invoice',
    );
  });

  it('ranks articles with every word above those with only some', async () => {
    const titles = (await suggest('text=download%20invoice')).map((s) => s.title);
    expect(titles[0]).toBe('Download an invoice');
    expect(titles).toContain('Invoice history');
  });

  it('marks the matched words in an escaped snippet of the body', async () => {
    const [first] = await suggest('text=cluster');
    expect(first?.snippet).toBe('the <mark>cluster</mark> guide');
    const payment = (await suggest('text=invoices')).find((s) => s.id === bodyMatch.id);
    expect(payment?.snippet).toBe('You can see every <mark>invoice</mark> in your account.');
  });

  it('searches the text of a body, not its markup', async () => {
    expect(await suggest('text=kubernetes')).toEqual([]);
    expect((await suggest('text=cluster')).map((s) => s.title)).toEqual(['Links']);
  });

  it('answers empty items for empty text or text without words', async () => {
    expect(await suggest('text=')).toEqual([]);
    expect(await suggest('text=%20%20')).toEqual([]);
    expect(await suggest(`text=${encodeURIComponent('?! -')}`)).toEqual([]);
  });

  it('answers 400 naming the parameter for bad input', async () => {
    const url = (query: string) => `/api/search/knowledge/suggestions?${query}`;
    expectApiError(await t.app.inject(url(`text=${'a'.repeat(201)}`)), 400, ['text']);
    expect((await t.app.inject(url(`text=${'a'.repeat(200)}`))).statusCode).toBe(200);
    expectApiError(await t.app.inject(url('limit=5')), 400, ['text']);
    for (const limit of ['abc', '0', '-1', '1.5', '51']) {
      expectApiError(await t.app.inject(url(`text=a&limit=${limit}`)), 400, ['limit']);
      expectApiError(await t.app.inject(url(`text=a&perPage=${limit}`)), 400, ['perPage']);
    }
  });
});

describe.each(testDialects())('search under odd input on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await buildArticle(t.ctx.db, {
      title: 'Сброс пароля',
      body_html: '<p>Нажмите «Забыли пароль?»</p>',
      lang: 'ru',
    });
    await buildArticle(t.ctx.db, { title: 'Reset your password', body_html: '<p>Use the link.</p>' });
  });
  afterAll(async () => t?.close());

  it.each([
    ['only punctuation', '?!?!... ---'],
    ['only emoji', '🔥🔥🙈'],
    ['one letter, the longest allowed', 'a'.repeat(200)],
    ['many words', Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ')],
    ['mixed scripts', 'пароль password ПАРОЛЬ'],
  ])('answers %s with 200', async (_name, text) => {
    const response = await t.app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('never fails on text that is not proper UTF-8', async () => {
    for (const raw of ['%ED%A0%BD', '%FF%FE', '%E2%82', '%']) {
      const response = await t.app.inject(`/api/search/knowledge/suggestions?text=${raw}`);
      expect(response.statusCode, raw).toBeLessThan(500);
    }
  });

  it('refuses 10,000 characters of one letter with 400 naming the text', async () => {
    const response = await t.app.inject(`/api/search/knowledge/suggestions?text=${'a'.repeat(10_000)}`);
    expectApiError(response, 400, ['text']);
  });

  it('finds an article by a word in another script than the rest of the query', async () => {
    const response = await t.app.inject(
      `/api/search/knowledge/suggestions?text=${encodeURIComponent('пароля')}`,
    );
    expect(response.json().items.map((i: Suggestion) => i.title)).toEqual(['Сброс пароля']);
  });
});

describe('two servers on one database', () => {
  it.runIf(testDialects().includes('postgres'))(
    'search a change made through the other at once',
    async () => {
      const a = await createTestApp('postgres');
      const { createContext } = await import('../../context-factory.ts');
      const { buildApp } = await import('../../app.ts');
      const ctxB = await createContext(a.environment.config);
      const b = await buildApp(ctxB, { forceCloseConnections: true });
      try {
        const before = await b.inject('/api/search/knowledge/suggestions?text=geofencing');
        expect(before.json().items).toEqual([]);
        await buildArticle(a.ctx.db, { title: 'Geofencing explained' });
        const after = await b.inject('/api/search/knowledge/suggestions?text=geofencing');
        expect(after.json().items.map((i: Suggestion) => i.title)).toEqual(['Geofencing explained']);
      } finally {
        await b.close();
        await ctxB.database.close();
        await a.close();
      }
    },
  );
});

describe.each(testDialects())('the index follows edits in place on %s', (dialect) => {
  it('finds an edited title at once, and forgets an unpublished or deleted article', async () => {
    const t = await createTestApp(dialect);
    try {
      const { touchContent } = await import('../../revisions/revision.repository.ts');
      const first = await buildArticle(t.ctx.db, { title: 'Pairing the hub' });
      const second = await buildArticle(t.ctx.db, { title: 'Replacing the battery' });
      const titles = async (text: string) =>
        (await t.app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`))
          .json()
          .items.map((i: Suggestion) => i.title);
      expect(await titles('pairing')).toEqual(['Pairing the hub']);

      await t.ctx.db
        .updateTable('articles')
        .set({ title: 'Connecting the hub', updated_at: Date.now() + 1 })
        .where('id', '=', first.id)
        .execute();
      await touchContent(t.ctx.db);
      expect(await titles('pairing')).toEqual([]);
      expect(await titles('connecting')).toEqual(['Connecting the hub']);

      await t.ctx.db.updateTable('articles').set({ published: 0 }).where('id', '=', second.id).execute();
      await touchContent(t.ctx.db);
      expect(await titles('battery')).toEqual([]);
      await t.ctx.db.deleteFrom('articles').where('id', '=', first.id).execute();
      await touchContent(t.ctx.db);
      expect(await titles('hub')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())('a large change to a large index on %s', (dialect) => {
  it('is indexed in the background while searches answer from the index there is', async () => {
    const t = await createTestApp(dialect);
    try {
      const { touchContent } = await import('../../revisions/revision.repository.ts');
      const articles = [];
      for (let i = 0; i < 10; i++)
        articles.push(await buildArticle(t.ctx.db, { title: `Router model ${i}` }));
      const search = createSearchService(t.ctx.db, { backgroundRebuildFrom: 5 });
      const titles = async (text: string) =>
        (await search.suggest(text, 20, 'everyone')).items.map((item) => item.title).sort();
      expect(await titles('router')).toHaveLength(10);

      await t.ctx.db
        .updateTable('articles')
        .set({ title: 'Wireless guide', updated_at: Date.now() + 1 })
        .where(
          'id',
          'in',
          articles.slice(0, 8).map((a) => a.id),
        )
        .execute();
      await touchContent(t.ctx.db);
      // Eight of ten changed: a rebuild, started by this search, which still answers from the index it has.
      expect(await titles('router')).toHaveLength(10);
      await search.settled();
      expect(await titles('router')).toEqual(['Router model 8', 'Router model 9']);
      expect(await titles('wireless')).toHaveLength(8);
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())('restricting much of a large index on %s', (dialect) => {
  it('hides what was restricted at once, while the rest is indexed in the background', async () => {
    const t = await createTestApp(dialect);
    try {
      const { touchContent } = await import('../../revisions/revision.repository.ts');
      const section = (await buildArticle(t.ctx.db, { title: 'Router basics' })).section_id;
      for (let i = 0; i < 9; i++)
        await buildArticle(t.ctx.db, { section_id: section, title: `Router model ${i}` });
      const search = createSearchService(t.ctx.db, { backgroundRebuildFrom: 5 });
      const found = async (audience: 'everyone' | 'signed_in') =>
        (await search.suggest('router', 20, audience)).items.length;
      expect(await found('everyone')).toBe(10);

      await t.ctx.db
        .updateTable('sections')
        .set({ visibility: 'signed_in' })
        .where('id', '=', section)
        .execute();
      await touchContent(t.ctx.db);
      // Every article changed: a rebuild in the background, yet nobody else finds them from the index meanwhile.
      expect(await found('everyone')).toBe(0);
      expect(await found('signed_in')).toBe(10);
      await search.settled();
      expect(await found('everyone')).toBe(0);
      expect(await found('signed_in')).toBe(10);
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())('each language analysed as it is written, on %s', (dialect) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    const article = async (key: string, title: string, lang: ArticleRow['lang'], extra = {}) => {
      ids[key] = (await buildArticle(db, { title, body_html: '<p>Steps.</p>', lang, ...extra })).id;
    };
    await article('en', 'Configure the thermostat schedule', 'en');
    await article('ru', 'Сброс пароля', 'ru');
    await article('pt', 'Pagamento da fatura mensal', 'pt-BR');
    await article('it', 'Scaricare la fattura elettronica', 'it');
    await article('sk', 'Nahrať súbor do aplikácie', 'sk');
    await article('yo', 'Ёжик в тумане', 'ru');
    const category = await buildCategory(db, { name: 'Warranty claims' });
    await article('named', 'Sending the form', 'en', {
      category_id: category.id,
      section_id: category.section_id,
    });
  });
  afterAll(async () => t?.close());

  const first = async (text: string) => {
    const response = await t.app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`);
    return response.json<{ items: Suggestion[] }>().items[0]?.id;
  };

  it.each([
    ['en', 'configuring schedules'],
    ['ru', 'паролем'],
    ['pt', 'faturas'],
    ['it', 'fatture'],
    ['sk', 'súbory'],
    ['sk', 'subor'],
    ['yo', 'ежик'],
    ['yo', 'ЕЖИКИ'],
    ['named', 'warranty'],
  ])('finds the %s article by “%s”', async (key, text) => {
    expect(await first(text)).toBe(ids[key]);
  });

  it('finds a section by its name', async () => {
    const article = await buildArticle(t.ctx.db, { title: 'Opening hours' });
    const section = await t.ctx.db
      .selectFrom('sections')
      .select('name')
      .where('id', '=', article.section_id)
      .executeTakeFirstOrThrow();
    const found = await t.app.inject(
      `/api/search/knowledge/suggestions?text=${encodeURIComponent(section.name)}&limit=50&perPage=50`,
    );
    expect(found.json<{ items: Suggestion[] }>().items.map((s) => s.id)).toContain(article.id);
  });
});

describe.each(testDialects())('the language articles are analysed in, on %s', (dialect) => {
  it('is the article’s own, else the branding’s, followed when the branding changes', async () => {
    const t = await createTestApp(dialect);
    try {
      const { updateBranding } = await import('../../settings/branding.ts');
      const { touchContent } = await import('../../revisions/revision.repository.ts');
      const own = await buildArticle(t.ctx.db, { title: 'Fattura', lang: 'it' });
      const inherited = await buildArticle(t.ctx.db, { title: 'Сброс пароля', lang: null });
      const languages = async () =>
        Object.fromEntries((await loadSearchDocuments(t.ctx.db)).map((d) => [d.id, d.lang]));
      expect(await languages()).toEqual({ [own.id]: 'it', [inherited.id]: 'en' });
      await updateBranding(t.ctx.db, { lang: 'ru' });
      await touchContent(t.ctx.db);
      expect(await languages()).toEqual({ [own.id]: 'it', [inherited.id]: 'ru' });
      // The index takes the change: the article is analysed again, in Russian, and still found.
      const found = await t.app.inject(
        `/api/search/knowledge/suggestions?text=${encodeURIComponent('паролей')}`,
      );
      expect(found.json<{ items: Suggestion[] }>().items.map((s) => s.id)).toEqual([inherited.id]);
    } finally {
      await t.close();
    }
  });
});
