import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NON_DOCUMENT_POLICY } from '../../http/csp.ts';
import { buildArticle, buildCategory, buildSection } from '../../testing/factories.ts';
import { SIDEBAR_ARTICLES } from '../../../shared/constants.ts';
import { readWebAssets } from '../../render/web-assets.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { writeFolder } from '../../testing/folder.ts';
import { seedDemo } from '../content-folder/demo.service.ts';
import { updateBranding } from '../../settings/branding.ts';

describe.each(testDialects())('server-rendered pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const snippet = writeFolder({
      'snippet.html':
        '<script src="https://tags.example/gtm.js?id={{project_id}}"></script>\n' +
        "<script>window.dataLayer=[{project:'{{project_id}}'}];navigator.sendBeacon('https://collect.example/hit')</script>",
    });
    t = await createTestApp(dialect, {
      ANALYTICS_SNIPPET_FILE: `${snippet}/snippet.html`,
      ANALYTICS_HOSTS: 'help.example.com',
    });
    await seedDemo(t.ctx);
    await updateBranding(t.ctx.db, {
      project_id: 'P-1<2>',
      background_url: 'https://img.example/bg "1".png',
    });
  });
  afterAll(async () => t?.close());

  it('renders an article with its title, description, trail and body', async () => {
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[5];
    const page = await t.app.inject(`/knowledge/instruction/${article.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.body).toContain(`<title>${article.title} | Lumo Help Centre</title>`);
    expect(page.body).toContain('<script type="application/json" id="signpost-hydration">');
    expect(page.body).not.toContain('__staticRouterHydrationData');
  });

  const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;
  const directives = (policy: unknown) =>
    new Map(
      String(policy ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources]),
    );
  const unescape = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');

  it('sends a strict Content-Security-Policy allowing only the scripts and styles the page carries', async () => {
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[5];
    const page = await t.app.inject({
      url: `/knowledge/instruction/${article.id}`,
      headers: { host: 'help.example.com' },
    });
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
    expect(csp.get('frame-src')).toEqual([
      'https://www.youtube.com',
      'https://www.youtube-nocookie.com',
      'https://player.vimeo.com',
    ]);

    // Scripts: our bundle ('self'), the snippet's external script's origin, and its inline script by hash, as sent.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '';
    expect(inline).toContain("project:'P-1&lt;2&gt;'");
    expect(csp.get('script-src')).toEqual([
      "'self'",
      sha256(inline),
      'https://tags.example',
      'https://collect.example',
    ]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://tags.example', 'https://collect.example']);
    for (const [, attributes = '', body = ''] of page.body.matchAll(
      /<script\b([^>]*)>([\s\S]*?)<\/script>/g,
    )) {
      // Data blocks (the hydration state, structured data) are never run, so the policy need not allow them.
      const allowed =
        /\ssrc="/.test(attributes) ||
        attributes.includes('type="application/json"') ||
        attributes.includes('type="application/ld+json"') ||
        body === inline;
      expect(allowed, `<script${attributes}>`).toBe(true);
    }

    // Styles: the stylesheet ('self') and the header's background, the one style attribute, by hash.
    const styles = [...page.body.matchAll(/<[a-z][^>]*\sstyle="([^"]*)"/g)].map((m) => unescape(m[1] ?? ''));
    expect(styles).toEqual(['background-image:url("https://img.example/bg \\"1\\".png")']);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-hashes'", sha256(styles[0] ?? '')]);
    expect(page.body).not.toMatch(/<style/);
  });

  it('leaves the snippet out of the policy on hosts that do not get it', async () => {
    const page = await t.app.inject({ url: '/knowledge/', headers: { host: 'localhost:3000' } });
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it('carries the router state as inert JSON that the content cannot end', async () => {
    const hostile = '</script><script>alert(1)</script><!--<script>';
    const article = await buildArticle(t.ctx.db, { title: `Guide ${hostile}`, body_html: '<p>x</p>' });
    const page = await t.app.inject(`/knowledge/instruction/${article.id}`);
    expect(page.statusCode).toBe(200);
    const json = /<script type="application\/json" id="signpost-hydration">([^<]*)<\/script>\n<\/body>/.exec(
      page.body,
    )?.[1];
    expect(json).toBeDefined();
    expect(JSON.stringify(JSON.parse(json ?? ''))).toContain(JSON.stringify(hostile).slice(1, -1));
    expect(page.body).not.toContain('<script>alert(1)');
  });

  it('sends nosniff on every answer, and a policy on every answer that is not a page', async () => {
    const answers = [
      await t.app.inject('/api/nothing'),
      await t.app.inject('/api/knowledge/instruction/abc'),
      await t.app.inject({ method: 'POST', url: '/api/knowledge/instruction' }),
      await t.app.inject('/'),
      await t.app.inject('/files/999999/x.pdf'),
    ];
    const assets = readWebAssets();
    expect(assets.script).toBeTruthy();
    const asset = await t.app.inject(assets.script ?? '');
    expect(asset.statusCode).toBe(200);
    const assetAgain = await t.app.inject({
      url: assets.script ?? '',
      headers: {
        'if-none-match': String(asset.headers.etag),
        'if-modified-since': String(asset.headers['last-modified']),
      },
    });
    expect(assetAgain.statusCode).toBe(304);
    answers.push(asset, assetAgain);
    for (const answer of answers) {
      expect(
        answer.headers['x-content-type-options'],
        `${answer.statusCode} ${answer.body.slice(0, 60)}`,
      ).toBe('nosniff');
      expect(answer.headers['content-security-policy']).toBe(NON_DOCUMENT_POLICY);
    }

    const first = await t.app.inject('/knowledge/zzz');
    expect(first.statusCode).toBe(404);
    const again = await t.app.inject({
      url: '/knowledge/zzz',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    for (const page of [first, again]) {
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(directives(page.headers['content-security-policy']).get('object-src')).toEqual(["'none'"]);
    }
  });

  it('adds the analytics snippet only on its hosts, with the project id escaped', async () => {
    const on = await t.app.inject({ url: '/knowledge/', headers: { host: 'help.example.com' } });
    expect(on.body).toContain('<script src="https://tags.example/gtm.js?id=P-1&lt;2&gt;"></script>');
    const off = await t.app.inject({ url: '/knowledge/', headers: { host: 'localhost:3000' } });
    expect(off.body).not.toContain('tags.example');
  });

  it('keeps pages apart only under the hosts that get the snippet: any other host shares the public entry', async () => {
    const url = '/knowledge/search?query=hosts';
    const on = await t.app.inject({ url, headers: { host: 'help.example.com' } });
    expect(on.body).toContain('tags.example');
    const off = await t.app.inject({ url, headers: { host: 'localhost:3000' } });
    expect(off.body).not.toContain('tags.example');
    for (const host of ['junk-1.example', 'help.example.com.evil', '127.0.0.1:3000', 'help.example.co']) {
      const other = await t.app.inject({ url, headers: { host, 'x-forwarded-host': 'help.example.com' } });
      expect(other.headers['x-cache'], host).toBe('hit');
      expect(other.body, host).toBe(off.body);
    }
    const onAgain = await t.app.inject({ url, headers: { host: 'HELP.Example.com:443' } });
    expect(onAgain.headers['x-cache']).toBe('hit');
    expect(onAgain.body).toBe(on.body);
  });

  it('searches text holding a NUL or other control characters as the text without them (it answered 500)', async () => {
    const links = (body: string) =>
      [...body.matchAll(/href="(\/knowledge\/instruction\/\d+)"/g)].map((m) => m[1]);
    const plain = await t.app.inject('/knowledge/search?query=reset%20password');
    expect(plain.statusCode).toBe(200);
    expect(links(plain.body).length).toBeGreaterThan(0);
    for (const query of ['reset%00password', 'reset%01%1B%7Fpassword', '%00reset%09password%00']) {
      const page = await t.app.inject(`/knowledge/search?query=${query}`);
      expect(page.statusCode, query).toBe(200);
      expect(links(page.body), query).toEqual(links(plain.body));
    }
  });

  it('never puts the Host a request names into an answer, rendered or kept', async () => {
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[0];
    const category = (await t.app.inject('/api/knowledge/category')).json().items[0];
    const urls = [
      '/',
      '/knowledge',
      '/knowledge/',
      `/knowledge/category/${category.id}`,
      `/knowledge/instruction/${article.id}`,
      '/knowledge/instruction/999999',
      '/knowledge/search?query=reset',
      '/knowledge/zzz',
      '/knowledge/notFound',
      '/some/page',
      '/api/settings/branding',
      '/panel/api/v2/system/environments',
      `/api/knowledge/instruction/${article.id}`,
      '/api/search/knowledge/suggestions?text=reset',
    ];
    for (const round of [1, 2]) {
      for (const url of urls) {
        const answer = await t.app.inject({
          url,
          headers: { host: 'evil-host.example:8080', 'x-forwarded-host': 'evil-forwarded.example' },
        });
        expect(answer.statusCode, url).toBeLessThan(500);
        const text = `${JSON.stringify(answer.headers)}\n${answer.body}`;
        expect(text, `${url} (round ${round})`).not.toMatch(/evil-/);
      }
    }
  });

  it('redirects the root to the help centre and other addresses to its not-found page', async () => {
    const root = await t.app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/knowledge/');
    const other = await t.app.inject('/some/page');
    expect(other.headers.location).toBe('/knowledge/404');
    const post = await t.app.inject({ method: 'POST', url: '/some/page' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('not_found');
  });

  it('asks search engines to leave out search results and not-found pages, and only those', async () => {
    const noindex = '<meta name="robots" content="noindex">';
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[0];
    for (const path of [
      '/knowledge/search?query=thermostat',
      '/knowledge/search',
      '/knowledge/404',
      '/knowledge/zzz',
    ])
      expect((await t.app.inject(path)).body, path).toContain(noindex);
    for (const path of ['/knowledge/', `/knowledge/instruction/${article.id}`])
      expect((await t.app.inject(path)).body, path).not.toContain(noindex);
  });

  it('answers 404 with the not-found screen for unknown categories and for ids that are not numbers', async () => {
    for (const path of ['/knowledge/category/999999', '/knowledge/category/abc', '/knowledge/zzz']) {
      const page = await t.app.inject(path);
      expect(page.statusCode, path).toBe(404);
      expect(page.body, path).toContain('Perhaps it is outdated');
    }
  });
});

describe.each(testDialects())(
  'pages behind a trusted proxy, with the snippet on one host, on %s',
  (dialect) => {
    let t: TestApp;
    beforeAll(async () => {
      const snippet = writeFolder({ 'snippet.html': '<script src="https://tags.example/gtm.js"></script>' });
      t = await createTestApp(dialect, {
        ANALYTICS_SNIPPET_FILE: `${snippet}/snippet.html`,
        ANALYTICS_HOSTS: 'help.example.com',
        TRUST_PROXY: 'true',
      });
      await buildArticle(t.ctx.db, { title: 'Proxy article' });
    });
    afterAll(async () => t?.close());

    it('keeps apart the named host as the proxy forwards it, and shares one entry for every other', async () => {
      const page = (forwarded: string) =>
        t.app.inject({
          url: '/knowledge/',
          headers: { host: 'backend:3000', 'x-forwarded-host': forwarded },
        });
      const on = await page('help.example.com');
      expect(on.body).toContain('tags.example');
      // The proxy's own entry is the last one, as Fastify reads it.
      const appended = await page('evil.example, help.example.com');
      expect(appended.headers['x-cache']).toBe('hit');
      expect(appended.body).toBe(on.body);
      const off = await page(`junk-${crypto.randomUUID()}.example`);
      expect(off.body).not.toContain('tags.example');
      expect(off.body).not.toContain('junk-');
      for (let i = 0; i < 20; i++) {
        const other = await page(`junk-${crypto.randomUUID()}.example`);
        expect(other.headers['x-cache']).toBe('hit');
        expect(other.body).toBe(off.body);
      }
      const direct = await t.app.inject({ url: '/knowledge/', headers: { host: 'help.example.com' } });
      expect(direct.body).toBe(on.body);
    });
  },
);

describe.each(testDialects())('a section of many articles, rendered, on %s', (dialect) => {
  let t: TestApp;
  let shelf: { id: number };
  let shelved: { id: number; title: string }[];
  const SHELVED = SIDEBAR_ARTICLES + 15;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    const section = await buildSection(db, { name: 'Big' });
    shelf = await buildCategory(db, { section_id: section.id, name: 'Shelf' });
    shelved = [];
    for (let i = 0; i < SHELVED; i++)
      shelved.push(await buildArticle(db, { category_id: shelf.id, title: `Shelved ${i}`, position: i }));
    await buildArticle(db, { section_id: section.id, title: 'Loose one' });
  });
  afterAll(async () => t?.close());

  const hydration = (body: string) =>
    JSON.parse(
      /<script type="application\/json" id="signpost-hydration">(.*?)<\/script>/s.exec(body)![1]!,
    ) as {
      loaderData: Record<string, Record<string, unknown>>;
    };

  it('lists the articles around one in its sidebar, with a link to all of them, and carries no more', async () => {
    const current = shelved[30]!;
    const page = await t.app.inject(`/knowledge/instruction/${current.id}`);
    expect(page.statusCode).toBe(200);
    const sidebar = /<aside class="sidebar">(.*?)<\/aside>/s.exec(page.body)?.[1] ?? '';
    const listed = [...sidebar.matchAll(/>(Shelved \d+)</g)].map((m) => m[1]);
    expect(listed).toEqual(
      Array.from({ length: SIDEBAR_ARTICLES }, (_, i) => `Shelved ${SHELVED - SIDEBAR_ARTICLES + i}`),
    );
    expect(sidebar).toContain(`<strong aria-current="page">${current.title}</strong>`);
    expect(sidebar).toContain(`href="/knowledge/category/${shelf.id}"`);
    expect(sidebar).toContain(`See all articles (${SHELVED})`);
    // The page's data holds what it shows (the list, the pager, the related articles, the article), not every
    // article's title.
    const data = hydration(page.body).loaderData;
    expect(data.instruction?.siblings).toHaveLength(SIDEBAR_ARTICLES);
    const titles = JSON.stringify(data).match(/"title":"Shelved/g) ?? [];
    expect(titles.length).toBeLessThanOrEqual(SIDEBAR_ARTICLES + 2 + 4 + 1);
  });

  it("carries on the home page only the articles outside any category, and the request hint's answer", async () => {
    const page = await t.app.inject('/knowledge/');
    expect(page.statusCode).toBe(200);
    const data = hydration(page.body).loaderData;
    expect(data.home).toEqual({
      articles: [expect.objectContaining({ title: 'Loose one' })],
      anyRequestable: expect.any(Boolean),
    });
    expect(page.body).not.toContain('Shelved 1');
  });
});
