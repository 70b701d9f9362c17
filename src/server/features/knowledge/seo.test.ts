import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndUserTokens, caller, ok, type Call } from '../../testing/admin-content.ts';
import { buildArticle, buildCategory, buildSection } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { updateBranding } from '../../settings/branding.ts';
import { SITEMAP_URLS_MAX } from './sitemap.ts';
import { touchContent } from '../../revisions/revision.repository.ts';

const ORIGIN = 'https://help.example.com';

type Json = Record<string, unknown>;

/** The parts of a page's head a crawler reads. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const attribute = (pattern: RegExp) => pattern.exec(head)?.[1]?.replace(/&amp;/g, '&') ?? null;
  const meta = (property: string) => attribute(new RegExp(`<meta property="${property}" content="([^"]*)">`));
  return {
    canonical: attribute(/<link rel="canonical" href="([^"]*)">/),
    robots: attribute(/<meta name="robots" content="([^"]*)">/),
    og: {
      type: meta('og:type'),
      title: meta('og:title'),
      description: meta('og:description'),
      url: meta('og:url'),
      image: meta('og:image'),
      siteName: meta('og:site_name'),
    },
    jsonLd: [...head.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (match) => JSON.parse(match[1] ?? '') as Json,
    ),
  };
}

const ofType = (items: Json[], type: string) => items.filter((item) => item['@type'] === type);

/** Every address and lastmod a sitemap file lists. */
const sitemapUrls = (xml: string) =>
  [...xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/url>/g)].map((m) => ({
    loc: m[1] ?? '',
    lastmod: m[2] ?? null,
  }));

describe.each(testDialects())('what search engines and link previews read, on %s', (dialect) => {
  let t: TestApp;
  let admin: Call;
  let article: number;
  let hidden: number;
  let restricted: number;
  let draft: number;
  let category: number;
  let membersCategory: number;
  let passage: number;
  let passageEnd: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_URL: ORIGIN });
    admin = caller(t, (await adminAndUserTokens(t)).adminToken);
    await updateBranding(t.ctx.db, {
      site_title: 'Acme Help',
      logo_url: '/files/9/logo.png',
      background_url: 'https://cdn.example.com/hero.jpg',
    });
    const db = t.ctx.db;
    const section = await buildSection(db, { name: 'Devices' });
    category = (await buildCategory(db, { section_id: section.id, name: 'Thermostats' })).id;
    const sub = await buildCategory(db, { section_id: section.id, parent_id: category, name: 'Wiring' });
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    article = (
      await buildArticle(db, {
        category_id: sub.id,
        title: 'Wire a <thermostat> & "hub"',
        body_html: '<p>Red goes to R. Blue goes to C.</p>',
        created_at: Date.UTC(2025, 5, 1),
        updated_at: at,
      })
    ).id;
    hidden = (await buildArticle(db, { category_id: sub.id, title: 'Internal wiring notes', noindex: 1 })).id;
    draft = (await buildArticle(db, { category_id: sub.id, title: 'Upcoming', published: 0 })).id;
    membersCategory = (
      await buildCategory(db, { section_id: section.id, name: 'Members', visibility: 'signed_in' })
    ).id;
    restricted = (await buildArticle(db, { category_id: membersCategory, title: 'Members only' })).id;
    await buildArticle(db, { category_id: category, title: 'Thermostat basics' });
    // The specification's auto-redirect leads on from a section's lone category holding one category.
    const hubs = await buildSection(db, { name: 'Hubs' });
    passage = (await buildCategory(db, { section_id: hubs.id, name: 'Hub' })).id;
    passageEnd = (await buildCategory(db, { section_id: hubs.id, parent_id: passage, name: 'Hub setup' })).id;
    await buildArticle(db, { category_id: passageEnd, title: 'Pair the hub' });
    await buildArticle(db, { category_id: passageEnd, title: 'Reset the hub' });
  });
  afterAll(async () => t?.close());

  const page = async (url: string, host = 'attacker.example') => {
    const response = await t.app.inject({ url, headers: { host } });
    return { status: response.statusCode, ...headOf(response.body) };
  };

  it('describes an article: canonical on PUBLIC_URL whatever the host, Open Graph, Article and its trail', async () => {
    const head = await page(`/knowledge/instruction/${article}/`);
    const url = `${ORIGIN}/knowledge/instruction/${article}`;
    expect(head.status).toBe(200);
    // Other spellings of the address name the one address.
    for (const other of [`/knowledge/instruction/0${article}`, `/knowledge/Instruction/${article}`])
      expect((await page(other)).canonical, other).toBe(url);
    expect(head.robots).toBeNull();
    expect(head.canonical).toBe(url);
    expect(head.og).toEqual({
      type: 'article',
      title: 'Wire a <thermostat> & "hub"'
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;'),
      description: 'Red goes to R. Blue goes to C.',
      url,
      image: 'https://cdn.example.com/hero.jpg',
      siteName: 'Acme Help',
    });

    const [articleLd, ...others] = ofType(head.jsonLd, 'Article');
    expect(others).toEqual([]);
    expect(articleLd).toMatchObject({
      '@context': 'https://schema.org',
      headline: 'Wire a <thermostat> & "hub"',
      description: 'Red goes to R. Blue goes to C.',
      datePublished: '2025-06-01T00:00:00.000Z',
      dateModified: '2026-01-02T03:04:05.000Z',
      mainEntityOfPage: { '@type': 'WebPage', '@id': url },
      publisher: {
        '@type': 'Organization',
        name: 'Acme Help',
        logo: { '@type': 'ImageObject', url: `${ORIGIN}/files/9/logo.png` },
      },
    });
    for (const key of ['headline', 'description', 'datePublished', 'dateModified'])
      expect(typeof articleLd?.[key], key).toBe('string');
    expect(Number.isNaN(Date.parse(String(articleLd?.dateModified)))).toBe(false);

    const [trail] = ofType(head.jsonLd, 'BreadcrumbList');
    expect(trail?.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Main', item: `${ORIGIN}/knowledge/` },
      {
        '@type': 'ListItem',
        position: 2,
        name: 'Thermostats',
        item: `${ORIGIN}/knowledge/category/${category}`,
      },
      {
        '@type': 'ListItem',
        position: 3,
        name: 'Wiring',
        item: expect.stringMatching(/\/knowledge\/category\/\d+$/),
      },
      { '@type': 'ListItem', position: 4, name: 'Wire a <thermostat> & "hub"', item: url },
    ]);
  });

  it('describes the home as a WebSite whose search a search engine may call, and a category by its trail', async () => {
    const home = await page('/knowledge');
    expect(home.canonical).toBe(`${ORIGIN}/knowledge/`);
    expect(home.og.type).toBe('website');
    const [site] = ofType(home.jsonLd, 'WebSite');
    expect(site).toMatchObject({ name: 'Acme Help', url: `${ORIGIN}/knowledge/` });
    const action = site?.potentialAction as Json;
    expect(action['@type']).toBe('SearchAction');
    expect(action['query-input']).toBe('required name=search_term_string');
    const template = String((action.target as Json).urlTemplate);
    expect(template).toBe(`${ORIGIN}/knowledge/search?query={search_term_string}`);

    const categoryPage = await page(`/knowledge/category/${category}?utm_source=mail`);
    expect(categoryPage.canonical).toBe(`${ORIGIN}/knowledge/category/${category}`);
    expect(ofType(categoryPage.jsonLd, 'BreadcrumbList')[0]?.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Main', item: `${ORIGIN}/knowledge/` },
      {
        '@type': 'ListItem',
        position: 2,
        name: 'Thermostats',
        item: `${ORIGIN}/knowledge/category/${category}`,
      },
    ]);
  });

  it('points crawlers at none of the pages they should leave out', async () => {
    for (const url of [
      `/knowledge/instruction/${hidden}`,
      `/knowledge/instruction/${restricted}`,
      '/knowledge/search?query=wire',
      '/knowledge/404',
      '/knowledge/category/999999',
      '/login',
    ]) {
      const head = await page(url);
      expect(head.canonical, url).toBeNull();
      expect(head.jsonLd, url).toEqual([]);
      if (url !== '/login') expect(head.robots, url).toBe('noindex');
    }
    // A hidden article is still read by everyone it is visible to.
    expect((await t.app.inject(`/knowledge/instruction/${hidden}`)).body).toContain('Internal wiring notes');
  });

  it('lists in the sitemap what anonymous visitors can read, on PUBLIC_URL, with lastmod', async () => {
    const response = await t.app.inject({ url: '/sitemap.xml', headers: { host: 'attacker.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const urls = sitemapUrls(response.body);
    const locs = urls.map((u) => u.loc);
    expect(locs).toContain(`${ORIGIN}/knowledge/`);
    expect(locs).toContain(`${ORIGIN}/knowledge/category/${category}`);
    expect(locs).toContain(`${ORIGIN}/knowledge/instruction/${article}`);
    for (const left of [hidden, restricted, draft])
      expect(locs).not.toContain(`${ORIGIN}/knowledge/instruction/${left}`);
    expect(locs).not.toContain(`${ORIGIN}/knowledge/category/${membersCategory}`);
    // A category the site leads on from is no page of its own: only where it leads is listed.
    expect((await t.app.inject(`/knowledge/category/${passage}`)).statusCode).toBe(302);
    expect(locs).not.toContain(`${ORIGIN}/knowledge/category/${passage}`);
    expect(locs).toContain(`${ORIGIN}/knowledge/category/${passageEnd}`);
    expect(locs.every((loc) => loc.startsWith(`${ORIGIN}/knowledge/`))).toBe(true);
    expect(urls.find((u) => u.loc.endsWith(`/instruction/${article}`))?.lastmod).toBe(
      '2026-01-02T03:04:05.000Z',
    );
    // The category's lastmod is its newest article's, below it at any depth.
    expect(urls.find((u) => u.loc === `${ORIGIN}/knowledge/category/${category}`)?.lastmod).not.toBeNull();

    const compressed = await t.app.inject({ url: '/sitemap.xml', headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers['content-encoding']).toBe('gzip');

    const robots = await t.app.inject({ url: '/robots.txt', headers: { host: 'attacker.example' } });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    for (const rule of [
      'Disallow: /admin',
      'Disallow: /api/',
      'Disallow: /knowledge/search',
      'Disallow: /issues',
    ])
      expect(robots.body.split('\n')).toContain(rule);
  });

  it('follows the team: an edit moves lastmod, hiding an article takes it out, turning the site off empties it', async () => {
    const before = sitemapUrls((await t.app.inject('/sitemap.xml')).body);
    await ok(admin('PATCH', `/api/admin/articles/${article}`, { body_html: '<p>Red goes to Rh.</p>' }));
    const edited = sitemapUrls((await t.app.inject('/sitemap.xml')).body);
    const lastmod = (list: typeof before) =>
      list.find((u) => u.loc.endsWith(`/instruction/${article}`))?.lastmod;
    expect(Date.parse(lastmod(edited) ?? '')).toBeGreaterThan(Date.parse(lastmod(before) ?? ''));

    const hiddenNow = await ok<{ noindex: boolean }>(
      admin('PATCH', `/api/admin/articles/${article}`, { noindex: true }),
    );
    expect(hiddenNow.noindex).toBe(true);
    expect(sitemapUrls((await t.app.inject('/sitemap.xml')).body).map((u) => u.loc)).not.toContain(
      `${ORIGIN}/knowledge/instruction/${article}`,
    );
    expect((await page(`/knowledge/instruction/${article}`)).robots).toBe('noindex');
    await ok(admin('PATCH', `/api/admin/articles/${article}`, { noindex: false }));
    expect((await page(`/knowledge/instruction/${article}`)).robots).toBeNull();

    await ok(admin('PATCH', '/api/admin/branding', { knowledge_enabled: false }));
    try {
      expect(sitemapUrls((await t.app.inject('/sitemap.xml')).body)).toEqual([]);
    } finally {
      await ok(admin('PATCH', '/api/admin/branding', { knowledge_enabled: true }));
    }
  });

  it('answers 404 for a sitemap part that does not exist', async () => {
    // Part 1 is the whole sitemap while it fits in one file.
    const first = await t.app.inject('/sitemaps/1.xml');
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe((await t.app.inject('/sitemap.xml')).body);
    for (const part of ['2.xml', '0.xml', 'x.xml', '1', '../sitemap.xml', '01.xml']) {
      const response = await t.app.inject(`/sitemaps/${encodeURIComponent(part)}`);
      expect(response.statusCode, part).toBe(404);
      expect(response.json().code, part).toBe('not_found');
    }
  });
});

describe.each(testDialects())('a sitemap past the protocol’s 50,000 addresses, on %s', (dialect) => {
  it('becomes an index of numbered parts holding every address once', async () => {
    const t = await createTestApp(dialect, { PUBLIC_URL: ORIGIN });
    try {
      const section = await buildSection(t.ctx.db, { name: 'Many' });
      const count = SITEMAP_URLS_MAX + 10;
      const now = Date.now();
      // One statement: a series of rows made by the database itself.
      const series =
        dialect === 'postgres'
          ? sql`select n from generate_series(1, ${count}) as n`
          : sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < ${count}) select n from s`;
      await sql`insert into articles (section_id, category_id, title, body_html, can_create_issue, published, position, created_at, updated_at)
        select ${section.id}, null, 'Article ' || n, '', 0, 1, n, ${now}, ${now} from (${series}) as numbers`.execute(
        t.ctx.db,
      );
      await touchContent(t.ctx.db);

      const index = await t.app.inject('/sitemap.xml');
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const parts = [...index.body.matchAll(/<sitemap><loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
      expect(parts).toEqual([`${ORIGIN}/sitemaps/1.xml`, `${ORIGIN}/sitemaps/2.xml`]);
      const locs: string[] = [];
      for (const part of parts) {
        const response = await t.app.inject(new URL(part).pathname);
        expect(response.statusCode).toBe(200);
        const urls = sitemapUrls(response.body);
        expect(urls.length).toBeLessThanOrEqual(SITEMAP_URLS_MAX);
        locs.push(...urls.map((u) => u.loc));
      }
      // The home and every article, each once.
      expect(locs.length).toBe(count + 1);
      expect(new Set(locs).size).toBe(locs.length);
      expect((await t.app.inject('/sitemaps/3.xml')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
