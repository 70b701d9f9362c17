import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createContext } from '../context-factory.ts';
import { adminAndUserTokens, caller, ok, type Call } from '../testing/admin-content.ts';
import { createSearchService } from '../search/search.service.ts';
import { buildArticle, buildSection } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';

describe.each(testDialects())('a change drops exactly the answers it affects on %s', (dialect) => {
  let t: TestApp;
  let admin: Call;
  let a: number;
  let b: number;
  let draft: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = caller(t, (await adminAndUserTokens(t)).adminToken);
    const section = await buildSection(t.ctx.db, { name: 'Thermostats' });
    const article = (title: string, body: string, published: 0 | 1 = 1) =>
      buildArticle(t.ctx.db, { section_id: section.id, title, body_html: body, published });
    a = (await article('Pairing the thermostat', '<p>Hold the dial.</p>')).id;
    b = (await article('Replacing the battery', '<p>Open the lid.</p>')).id;
    draft = (await article('Upcoming firmware', '<p>Soon.</p>', 0)).id;
  });
  afterAll(async () => t?.close());

  // Calls before pages: a page renders from calls, which would otherwise be kept anew before they are asked for.
  const urls = () => ({
    callA: `/api/knowledge/instruction/${a}`,
    callB: `/api/knowledge/instruction/${b}`,
    sections: '/api/knowledge/all-sections',
    bundle: '/api/knowledge/instruction',
    bodies: `/api/knowledge/instruction?query=1&page=1&per_page=100`,
    suggestions: '/api/search/knowledge/suggestions?text=dial',
    branding: '/api/settings/branding',
    pageA: `/knowledge/instruction/${a}`,
    pageB: `/knowledge/instruction/${b}`,
    home: '/knowledge/',
    sitemap: '/sitemap.xml',
    robots: '/robots.txt',
  });
  type Name = keyof ReturnType<typeof urls>;

  /** Each answer fetched once: which came from memory, and the bodies. */
  const fetchAll = async () => {
    const hits = new Set<Name>();
    const bodies = {} as Record<Name, string>;
    for (const [name, url] of Object.entries(urls()) as [Name, string][]) {
      const response = await t.app.inject(url);
      expect(response.statusCode, url).toBe(200);
      if (response.headers['x-cache'] === 'hit') hits.add(name);
      bodies[name] = response.body;
    }
    return { hits, bodies };
  };
  /** Every answer kept: asked twice, as an answer to what visitors type is kept from its second asking. */
  const fill = async () => {
    await fetchAll();
    await fetchAll();
  };
  const everything = () => new Set(Object.keys(urls()) as Name[]);
  const without = (...names: Name[]) => new Set([...everything()].filter((n) => !names.includes(n)));

  it('keeps everything while nothing changes', async () => {
    await fill();
    expect((await fetchAll()).hits).toEqual(everything());
  });

  it('drops one article’s call, the lists of bodies, search and the article pages when its text changes', async () => {
    await fill();
    await ok(
      admin('PATCH', `/api/admin/articles/${a}`, { body_html: '<p>Hold the dial for ten seconds.</p>' }),
    );
    const { hits, bodies } = await fetchAll();
    // The sitemap's lastmod follows the bodies; every article page lists related articles the search finds.
    expect(hits).toEqual(without('pageA', 'pageB', 'callA', 'bodies', 'suggestions', 'sitemap'));
    expect(bodies.pageA).toContain('ten seconds');
    expect(JSON.parse(bodies.callA).description).toContain('ten seconds');
    expect(bodies.bodies).toContain('ten seconds');
    expect(JSON.parse(bodies.suggestions).items[0].snippet).toContain('<mark>');
  });

  it('keeps everything when only a draft changes', async () => {
    await fill();
    await ok(admin('PATCH', `/api/admin/articles/${draft}`, { body_html: '<p>Later.</p>' }));
    expect((await fetchAll()).hits).toEqual(everything());
  });

  it('drops every page when a title changes, since titles are listed on other pages', async () => {
    await fill();
    await ok(admin('PATCH', `/api/admin/articles/${a}`, { title: 'Pairing the smart thermostat' }));
    const { hits, bodies } = await fetchAll();
    expect([...hits].sort()).toEqual(['branding', 'robots']);
    expect(bodies.pageB).toContain('Pairing the smart thermostat'); // the section's list beside B
    expect(bodies.home).toContain('Pairing the smart thermostat');
  });

  it('drops the pages, the branding and search, not the content calls, when the branding changes', async () => {
    await fill();
    await ok(admin('PATCH', '/api/admin/branding', { knowledge_title: 'Thermostat help' }));
    const { hits, bodies } = await fetchAll();
    // The sitemap is empty while the help centre is off, so it follows the branding too.
    expect([...hits].sort()).toEqual(['bodies', 'bundle', 'callA', 'callB', 'robots', 'sections']);
    expect(bodies.home).toContain('Thermostat help');
  });

  it('drops search and what lists search results when the synonyms change, which then apply', async () => {
    await fill();
    await ok(admin('PUT', '/api/admin/synonyms', { sets: { en: [['knob', 'dial']] } }));
    const { hits } = await fetchAll();
    // Article pages list related articles, found by search.
    expect(hits).toEqual(without('suggestions', 'pageA', 'pageB'));
    const found = await t.app.inject('/api/search/knowledge/suggestions?text=knob');
    expect(found.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([a]);
  });

  it('drops search when what visitors taught it moves, not at every vote', async () => {
    const vote = async (from: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/search/events',
        payload: { type: 'open', query: 'thermostats', id: b },
        remoteAddress: from,
      });
      expect(response.statusCode).toBe(200);
    };
    await fill();
    // Two votes are stored but are not yet a pattern: nothing kept is dropped.
    await vote('10.1.0.1');
    await vote('10.1.0.2');
    expect((await fetchAll()).hits).toEqual(everything());
    // The third is: every server's search answers (and the pages listing them) are made again.
    await vote('10.1.0.3');
    expect((await fetchAll()).hits).toEqual(without('suggestions', 'pageA', 'pageB'));
  });

  it('keeps nothing rendered from a failed call', async () => {
    const article = await buildArticle(t.ctx.db, {
      title: 'Mounting plate',
      body_html: '<p>Two screws.</p>',
    });
    const url = `/knowledge/instruction/${article.id}`;
    await sql`alter table article_files rename to article_files_away`.execute(t.ctx.db);
    try {
      const failed = await t.app.inject(url);
      expect(failed.headers['cache-control']).toBe('no-store');
      expect(failed.headers['x-cache']).toBeUndefined();
    } finally {
      await sql`alter table article_files_away rename to article_files`.execute(t.ctx.db);
    }
    const page = await t.app.inject(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Two screws.');
  });
});

describe.each(testDialects())('writes through a server that checks the revision rarely, on %s', (dialect) => {
  it('show to their author at once', async () => {
    const t = await createTestApp(dialect, { REVISION_CHECK_MS: '60000' });
    try {
      const { adminToken } = await adminAndUserTokens(t);
      const article = await buildArticle(t.ctx.db, { title: 'Wiring', body_html: '<p>Red to R.</p>' });
      // A fresh app, so the revision it reads first is the one after the writes above.
      const ctx = await createContext(t.environment.config);
      const app = await buildApp(ctx);
      try {
        const url = `/knowledge/instruction/${article.id}`;
        expect((await app.inject(url)).body).toContain('Red to R.');
        expect((await app.inject(url)).headers['x-cache']).toBe('hit');
        const patch = await app.inject({
          method: 'PATCH',
          url: `/api/admin/articles/${article.id}`,
          headers: { 'x-auth-token': adminToken },
          payload: { body_html: '<p>Red to Rh.</p>' },
        });
        expect(patch.statusCode, patch.body).toBe(200);
        const after = await app.inject(url);
        expect(after.body).toContain('Red to Rh.');
        expect((await app.inject(url)).headers['x-cache']).toBe('hit');
      } finally {
        await app.close();
        await ctx.database.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())('search answers from an index still being rebuilt on %s', (dialect) => {
  it('are sent but never kept, and the rebuilt index’s are', async () => {
    const t = await createTestApp(dialect);
    try {
      const articles = [];
      for (let i = 0; i < 10; i++)
        articles.push(await buildArticle(t.ctx.db, { title: `Router model ${i}` }));
      // Rebuilt in the background from five articles, so ten make a large help centre here.
      const search = createSearchService(t.ctx.db, { backgroundRebuildFrom: 5 });
      const app = await buildApp({ ...t.ctx, search });
      try {
        const url = '/api/search/knowledge/suggestions?text=router';
        const titles = async () => {
          const response = await app.inject(url);
          return { response, titles: response.json().items.map((i: { title: string }) => i.title) };
        };
        expect((await titles()).titles).toHaveLength(10);
        // Kept from its second asking.
        expect((await titles()).response.headers['x-cache']).toBe('miss');
        expect((await titles()).response.headers['x-cache']).toBe('hit');

        const { touchContent } = await import('../revisions/revision.repository.ts');
        const retitle = async (ids: number[], title: string) => {
          await t.ctx.db
            .updateTable('articles')
            .set({ title, updated_at: Date.now() + 1 })
            .where('id', 'in', ids)
            .execute();
          await touchContent(t.ctx.db);
        };
        // Each time, the first search after a large change starts the rebuild and answers from the old index.
        await retitle(
          articles.slice(0, 8).map((a) => a.id),
          'Wireless guide',
        );
        const page = await app.inject('/knowledge/search?query=router');
        expect(page.body).toContain('Router model 0');
        expect(page.headers['cache-control']).toBe('no-store');
        await search.settled();
        expect((await app.inject('/knowledge/search?query=router')).body).not.toContain('Router model 0');

        await retitle(
          articles.slice(0, 8).map((a) => a.id),
          'Router guide',
        );
        const during = await titles();
        expect(during.titles).toHaveLength(2);
        expect(during.response.headers['cache-control']).toBe('no-store');
        await search.settled();
        const after = await titles();
        expect(after.titles).toHaveLength(10);
        expect(after.response.headers['x-cache']).toBe('miss');
        expect((await titles()).response.headers['x-cache']).toBe('hit');
      } finally {
        await app.close();
      }
    } finally {
      await t.close();
    }
  });
});
