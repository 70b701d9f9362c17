import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../shared/constants.ts';
import { buildApp } from '../app.ts';
import { createContext } from '../context-factory.ts';
import { adminAndUserTokens } from '../testing/admin-content.ts';
import { updateBranding } from '../settings/branding.ts';
import { buildArticle, buildArticleTranslation } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { normalisedUrl, servedHost } from './response-cache.ts';

const token = () => crypto.randomBytes(6).toString('base64url');

describe('the address and host an answer is kept under', () => {
  it('is the path and the parameters its page or call reads, in the order of the contract, values as sent', () => {
    expect(normalisedUrl('/knowledge/')).toBe('/knowledge/');
    expect(normalisedUrl('/knowledge/instruction/5?utm_source=x&megapolName=Ann')).toBe(
      '/knowledge/instruction/5',
    );
    expect(normalisedUrl('/api/knowledge/instruction/5?page=1')).toBe('/api/knowledge/instruction/5');
    expect(normalisedUrl('/knowledge/search/?b=1&query=a+b&query=c')).toBe('/knowledge/search/?query=a+b');
    expect(normalisedUrl('/api/knowledge/category?section_id=2&&page=1&x=3&page=2')).toBe(
      '/api/knowledge/category?page=1&page=2&section_id=2',
    );
    expect(normalisedUrl('/api/search/knowledge/suggestions?perPage=5&%74ext=%70&limit&bad=%zz')).toBe(
      '/api/search/knowledge/suggestions?text=%70&limit=&perPage=5',
    );
    // As the web client writes them: kept as they are.
    for (const url of [
      '/api/knowledge/instruction?query=1&page=2&per_page=5&category_id=3',
      '/api/search/knowledge/suggestions?text=router&limit=50&perPage=50',
    ]) {
      expect(normalisedUrl(url)).toBe(url);
    }
    expect(normalisedUrl(normalisedUrl('/knowledge/search?x=1&query=z'))).toBe('/knowledge/search?query=z');
  });

  it('is one of the hosts the operator named, as sent or as a trusted proxy forwards it, or the public host', () => {
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as http.IncomingMessage;
    const hosts = ['help.example.com', '[::1]'];
    expect(servedHost(request({ host: 'Help.Example.com:8443' }), hosts, false)).toBe('help.example.com');
    expect(servedHost(request({ host: '[::1]:3000' }), hosts, false)).toBe('[::1]');
    expect(servedHost(request({ host: 'help.example.com.evil' }), hosts, false)).toBe('');
    expect(servedHost(request({ host: 'help.example.com' }), null, false)).toBe('');
    const forwarded = { host: 'backend', 'x-forwarded-host': 'evil.example, help.example.com' };
    expect(servedHost(request(forwarded), hosts, false)).toBe('');
    expect(servedHost(request(forwarded), hosts, true)).toBe('help.example.com');
    expect(servedHost(request({ host: 'help.example.com', 'x-forwarded-host': 'x' }), hosts, true)).toBe('');
  });
});

describe.each(testDialects())('public answers cached per revision on %s', (dialect) => {
  let t: TestApp;
  let articleId: number;
  let sectionId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const article = await buildArticle(t.ctx.db, {
      title: 'Resetting the router',
      body_html: '<p>Hold the button.</p>',
    });
    articleId = article.id;
    sectionId = article.section_id;
    await buildArticle(t.ctx.db, { title: 'Button colours', section_id: sectionId });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('answers a repeated page from memory with the same ETag and body', async () => {
    const url = `/knowledge/instruction/${articleId}`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await get(url);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['cache-control']).toBe('public, no-cache');
    expect(second.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the answer to what a visitor typed from its second asking, with the same headers each time', async () => {
    const url = '/api/search/knowledge/suggestions?text=button';
    const entries = t.app.responseCache.stats().entries;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('miss');
    expect(t.app.responseCache.stats().entries).toBe(entries);
    const second = await get(url);
    expect(second.headers['x-cache']).toBe('miss');
    expect(t.app.responseCache.stats().entries).toBe(entries + 1);
    const third = await get(url);
    expect(third.headers['x-cache']).toBe('hit');
    for (const answer of [first, second]) {
      expect(answer.headers.etag).toBe(third.headers.etag);
      expect(answer.headers['cache-control']).toBe(third.headers['cache-control']);
      expect(answer.body).toBe(third.body);
    }
    // An answer not kept still has its ETag, and a browser holding it is told it is current.
    const other = '/api/search/knowledge/suggestions?text=hold';
    const etag = (await get(other)).headers.etag as string;
    expect((await get(other, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('answers 304 to a request that has the current ETag, from memory or not', async () => {
    const url = '/api/knowledge/all-sections';
    const first = await get(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get('/api/knowledge/category', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
  });

  it('sends the brotli or gzip form it keeps, to clients that take it', async () => {
    const url = '/knowledge/';
    const plain = await get(url);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await get(url, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.vary).toContain('Accept-Encoding');
  });

  it('serves nothing made before a content change, and nothing made before a branding change', async () => {
    const url = '/api/search/knowledge/suggestions?text=router';
    await get(url);
    const before = await get(url);
    expect((await get(url)).headers['x-cache']).toBe('hit');
    await buildArticle(t.ctx.db, { title: 'Router lights explained' });
    const after = await get(url);
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().items.map((i: { title: string }) => i.title)).toContain('Router lights explained');

    const page = '/knowledge/';
    await get(page);
    expect((await get(page)).headers['x-cache']).toBe('hit');
    await updateBranding(t.ctx.db, { knowledge_title: 'Help for routers' });
    const branded = await get(page);
    expect(branded.headers['x-cache']).toBe('miss');
    expect(branded.body).toContain('Help for routers');
  });

  it('keeps answers apart by query string', async () => {
    const a = await get('/api/search/knowledge/suggestions?text=router');
    const b = await get('/api/search/knowledge/suggestions?text=button');
    expect(a.body).not.toBe(b.body);
  });

  it('keeps a call apart by the language it reads in, and never gives a signed-in reader the kept answer', async () => {
    await buildArticleTranslation(t.ctx.db, { article_id: articleId, lang: 'ru', title: 'Сброс роутера' });
    const url = (lang: string) => `/api/knowledge/instruction/${articleId}?lang=${lang}`;
    const title = (response: { body: string }) => (JSON.parse(response.body) as { title: string }).title;
    for (const [lang, expected] of [
      ['ru', 'Сброс роутера'],
      ['en', 'Resetting the router'],
    ]) {
      expect(title(await get(url(lang!)))).toBe(expected);
      const again = await get(url(lang!));
      expect(again.headers['x-cache']).toBe('hit');
      expect(title(again)).toBe(expected);
    }
    const { userToken } = await adminAndUserTokens(t);
    const signedIn = await get(url('ru'), { 'x-auth-token': userToken });
    expect(signedIn.headers['x-cache']).toBeUndefined();
    expect(title(signedIn)).toBe('Сброс роутера');
  });

  it("answers a flood of junk parameters and hosts from the real addresses' entries, rendering nothing", async () => {
    const real = [
      `/knowledge/instruction/${articleId}`,
      '/knowledge/search?query=router',
      `/api/knowledge/instruction/${articleId}`,
      `/api/knowledge/instruction?per_page=5&section_id=${sectionId}`,
      '/api/search/knowledge/suggestions?text=router',
    ];
    for (const url of real) expect((await get(url)).statusCode, url).toBe(200);
    const before = t.app.responseCache.stats();
    for (let i = 0; i < 1000; i++) {
      const url = real[i % real.length] as string;
      const junk = `utm_source=${token()}&${token()}=${token()}&fbclid=${token()}`;
      const [path, query] = url.split('?');
      const withJunk =
        i % 2 ? `${url}${query ? '&' : '?'}${junk}` : `${path}?${junk}${query ? `&${query}` : ''}`;
      const answer = await get(withJunk, { host: `${token()}.example:${1000 + i}` });
      expect(answer.statusCode, withJunk).toBe(200);
    }
    const after = t.app.responseCache.stats();
    expect(after.entries - before.entries).toBeLessThanOrEqual(2);
    expect(after.misses - before.misses).toBeLessThanOrEqual(2);
    for (const url of real) expect((await get(url)).headers['x-cache'], url).toBe('hit');
  });

  it('keeps one entry for addresses that differ only in the order or repetition of what they read', async () => {
    const list = `/api/knowledge/instruction?section_id=${sectionId}&per_page=1&page=2`;
    const first = await get(list);
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(1);
    const reordered = await get(
      `/api/knowledge/instruction?page=2&utm_source=x&per_page=1&section_id=${sectionId}`,
    );
    expect(reordered.headers['x-cache']).toBe('hit');
    expect(reordered.body).toBe(first.body);
    // A call reads every value it is given: two pages are a bad request, not the first of them.
    expect((await get(`${list}&page=1`)).statusCode).toBe(400);
    // A name written with escapes is still the name the call reads.
    const escaped = await get(`/api/knowledge/instruction?%70er_page=1&section_id=${sectionId}&page=1`);
    expect(escaped.json().items).toHaveLength(1);
    expect(escaped.json()._meta.perPage).toBe(1);

    // A parameter the call does not read does not turn the bundle into a page either.
    const bundle = await get('/api/knowledge/instruction');
    const tracked = await get('/api/knowledge/instruction?utm_source=newsletter');
    expect(tracked.headers['x-cache']).toBe('hit');
    expect(tracked.body).toBe(bundle.body);

    const search = await get('/knowledge/search?query=router&utm_source=a');
    expect(search.body).toContain('Resetting the router');
    // A page reads the first value of a parameter, as the browser's URLSearchParams.get does.
    const again = await get('/knowledge/search?gclid=b&query=router&query=button');
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.body).toBe(search.body);
    const other = await get('/knowledge/search?query=colours');
    expect(other.headers['x-cache']).toBe('miss');
    expect(other.body).toContain('Button colours');
    expect(other.body).not.toContain('Resetting the router');
  });

  it('keeps one answer whatever X-Forwarded-Host says, when no proxy is trusted', async () => {
    const url = `/api/knowledge/instruction/${articleId}?forwarded`;
    await get(url, { 'x-forwarded-host': 'one.example' });
    expect((await get(url, { 'x-forwarded-host': 'two.example' })).headers['x-cache']).toBe('hit');
  });

  it('never keeps answers that differ by visitor', async () => {
    const me = await get('/api/user/me');
    expect(me.headers['x-cache']).toBeUndefined();
    expect(me.headers.etag).toBeUndefined();
  });
});

describe('an answer not kept', () => {
  it('is compressed for sending once, under a weak tag as every compressed form, that still names the kept one', async () => {
    const t = await createTestApp('sqlite');
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers });
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8])
      await buildArticle(t.ctx.db, { title: `Resetting the router, button colours, way ${n}` });
    const url = '/api/search/knowledge/suggestions?text=router';
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    const plain = (await get(url)).body;
    const once = await get(url.replace('router', 'resetting'), br);
    expect(once.headers['content-encoding']).toBe('br');
    expect(once.headers.etag).toMatch(/^W\/"[\w-]+-br"$/);
    // The first asking of this text (above, without brotli) was not kept either: this one is the second.
    const second = await get(url, br);
    const kept = await get(url, br);
    expect(kept.headers['x-cache']).toBe('hit');
    expect(second.headers.etag).toBe(kept.headers.etag);
    expect(kept.headers.etag).toMatch(/^W\/"[\w-]+-br"$/);
    // The plain form's tag is strong: its bytes are the content's own.
    expect((await get(url)).headers.etag).toMatch(/^"[\w-]+"$/);
    for (const answer of [second, kept])
      expect(zlib.brotliDecompressSync(answer.rawPayload).toString()).toBe(plain);
    const gzip = await get(url.replace('router', 'button'), { 'accept-encoding': 'gzip' });
    expect(gzip.headers.etag).toMatch(/^W\/"[\w-]+-gzip"$/);
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(
      JSON.parse((await get(url.replace('router', 'button'))).body),
    );
    // A browser holding the form sent once is told it is current, by the kept answer as by one not kept.
    const weak = once.headers.etag as string;
    expect((await get(url.replace('router', 'resetting'), { ...br, 'if-none-match': weak })).statusCode).toBe(
      304,
    );
    const notYetKept = await get('/api/search/knowledge/suggestions?text=colours', br);
    const keptNow = await get('/api/search/knowledge/suggestions?text=colours', {
      ...br,
      'if-none-match': notYetKept.headers.etag as string,
    });
    expect(keptNow.statusCode).toBe(304);
    await t.close();
  });
});

describe('answers never kept', () => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    ({ adminToken, userToken } = await adminAndUserTokens(t));
    for (let n = 1; n <= 12; n++)
      await buildArticle(t.ctx.db, {
        title: `Printer troubleshooting, part ${n}`,
        body_html: '<p>Check the tray.</p>',
      });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

  it('are compressed for clients that take it when a header, not a cookie, signs them in', async () => {
    const url = '/api/admin/tree';
    const plain = await get(url, { 'x-auth-token': adminToken });
    expect(plain.statusCode).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(url, { 'x-auth-token': adminToken, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await get(url, { 'x-auth-token': adminToken, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it("are sent as they are when only a cookie signs them in, so another site's requests cannot measure them", async () => {
    const cookie = `${SESSION_COOKIE}=${userToken}`;
    for (const url of ['/knowledge/', '/api/knowledge/all-sections']) {
      const answer = await get(url, { cookie, 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cache-control']).toBe('private, no-store');
      expect(answer.headers['content-encoding']).toBeUndefined();
      // The browser's own calls carry the header beside the cookie: the header signs them in, and they are compressed.
      const call = await get(url, { cookie, 'x-auth-token': userToken, 'accept-encoding': 'br' });
      expect(call.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(call.rawPayload).toString()).toBe(answer.body);
    }
  });

  it('are compressed in the thread pool when large, sent as they are when small, and alike for HEAD', async () => {
    const openapi = await get('/api/openapi.json', {});
    expect(openapi.body.length).toBeGreaterThan(64 * 1024);
    const br = await get('/api/openapi.json', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(openapi.body);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
    const small = await get('/api/admin/users', { 'x-auth-token': adminToken, 'accept-encoding': 'br' });
    expect(small.statusCode).toBe(200);
    expect(small.body.length).toBeLessThanOrEqual(512);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('a cache with no room (CACHE_MAX_MB=0)', () => {
  it('keeps nothing and counts no bytes, while every answer is still sent compressed', async () => {
    const t = await createTestApp('sqlite', { CACHE_MAX_MB: '0' });
    try {
      const article = await buildArticle(t.ctx.db, { title: 'Rendered each time' });
      for (let i = 0; i < 3; i++) {
        const page = await t.app.inject({
          url: `/knowledge/instruction/${article.id}`,
          headers: { 'accept-encoding': 'br' },
        });
        expect(page.headers['x-cache']).toBe('miss');
        expect(page.headers['content-encoding']).toBe('br');
        expect(page.headers.etag).toMatch(/^W\//);
        const current = await t.app.inject({
          url: `/knowledge/instruction/${article.id}`,
          headers: { 'accept-encoding': 'br', 'if-none-match': page.headers.etag as string },
        });
        expect(current.statusCode).toBe(304);
        expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain('Rendered each time');
      }
      expect(t.app.responseCache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('answers kept in memory, over a real connection', () => {
  it('go out before the framework, with the same headers and bodies, while the revision is fresh', async () => {
    const t = await createTestApp('sqlite', { REVISION_CHECK_MS: '60000' });
    try {
      const article = await buildArticle(t.ctx.db, { title: 'Fast answer' });
      // A fresh app, so the revision it reads is the one after the article was written.
      const ctx = await createContext(t.environment.config);
      const app = await buildApp(ctx);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/knowledge/instruction/${article.id}`;
      try {
        const first = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
        expect(first.headers.get('x-cache')).toBe('miss');
        const firstBody = await first.text();
        const second = await fetch(url, {
          headers: { 'accept-encoding': 'identity', 'x-request-id': 'abc-123' },
        });
        expect(second.headers.get('x-cache')).toBe('hit');
        expect(await second.text()).toBe(firstBody);
        for (const name of [
          'content-type',
          'etag',
          'cache-control',
          'content-security-policy',
          'x-content-type-options',
        ]) {
          expect(second.headers.get(name), name).toBe(first.headers.get(name));
        }
        expect(second.headers.get('x-request-id')).toBe('abc-123');
        // Junk parameters and any Host header are the same address: answered from memory too.
        const junk = await new Promise<http.IncomingMessage>((resolve, reject) =>
          http
            .get(
              {
                host: '127.0.0.1',
                port,
                path: `/knowledge/instruction/${article.id}?utm_source=${token()}`,
                headers: { host: `${token()}.example`, 'accept-encoding': 'identity' },
              },
              resolve,
            )
            .on('error', reject),
        );
        junk.resume();
        expect(junk.headers['x-cache']).toBe('hit');
        expect(junk.headers.etag).toBe(first.headers.get('etag'));
        const br = await fetch(url, { headers: { 'accept-encoding': 'br' } });
        expect(br.headers.get('content-encoding')).toBe('br');
        expect(await br.text()).toBe(firstBody); // fetch decodes it
        // Another representation, another tag; either one revalidates.
        const brTag = br.headers.get('etag') as string;
        expect(brTag).not.toBe(first.headers.get('etag'));
        const brConditional = await fetch(url, {
          headers: { 'accept-encoding': 'br', 'if-none-match': brTag },
        });
        expect(brConditional.status).toBe(304);
        expect(brConditional.headers.get('etag')).toBe(brTag);
        const conditional = await fetch(url, {
          headers: { 'if-none-match': first.headers.get('etag') as string },
        });
        expect(conditional.status).toBe(304);
        const head = await fetch(url, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(await head.text()).toBe('');
        // Answers from memory are counted like the others, under their route's pattern.
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(metrics).toMatch(/^signpost_page_cache_hits_total [1-9]/m);
        expect(metrics).toMatch(
          /^signpost_http_requests_total\{method="GET",route="\/knowledge\/\*",status_code="200"\} [3-9]/m,
        );
      } finally {
        await app.close();
        await ctx.database.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe('a repeated request needs no database', () => {
  it('is answered from memory while the database is closed', async () => {
    const t = await createTestApp('sqlite', { REVISION_CHECK_MS: '60000' });
    try {
      const article = await buildArticle(t.ctx.db, { title: 'Offline answer' });
      // A fresh app, so the revision it reads is the one after the article was written.
      const ctx = await createContext(t.environment.config);
      const app = await buildApp(ctx);
      const url = `/knowledge/instruction/${article.id}`;
      expect((await app.inject(url)).statusCode).toBe(200);
      await ctx.database.close();
      const cached = await app.inject(url);
      expect(cached.statusCode).toBe(200);
      expect(cached.headers['x-cache']).toBe('hit');
      expect(cached.body).toContain('Offline answer');
      await app.close();
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!testDialects().includes('postgres'))('two servers on one PostgreSQL database', () => {
  it('see a change made through the other’s admin API, by their own revision watch: page, call and search', async () => {
    const a = await createTestApp('postgres', { REVISION_CHECK_MS: '250' });
    const ctxB = await createContext(a.environment.config);
    const b = await buildApp(ctxB);
    try {
      const article = await buildArticle(a.ctx.db, { title: 'Pairing the remote' });
      const url = `/knowledge/instruction/${article.id}`;
      expect((await b.inject(url)).body).toContain('Pairing the remote');
      expect((await b.inject(`/api/knowledge/instruction/${article.id}`)).json().title).toBe(
        'Pairing the remote',
      );
      expect((await b.inject(url)).headers['x-cache']).toBe('hit');

      // Through the first server's admin API, as the support team would.
      const { adminToken } = await adminAndUserTokens(a);
      const patched = await a.app.inject({
        method: 'PATCH',
        url: `/api/admin/articles/${article.id}`,
        headers: { 'x-auth-token': adminToken },
        payload: { title: 'Pairing the new remote' },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      // Nothing tells the second server: its revision watch reads the change on its own (every 250 ms here). How long
      // that takes is not asserted, only waited for.
      const seen = async () => {
        const page = await b.inject(url);
        const api = await b.inject(`/api/knowledge/instruction/${article.id}`);
        const search = await b.inject('/api/search/knowledge/suggestions?text=new%20remote');
        return (
          page.body.includes('Pairing the new remote') &&
          api.json().title === 'Pairing the new remote' &&
          search.json().items[0]?.id === article.id
        );
      };
      await expect.poll(seen, { interval: 50 }).toBe(true);
    } finally {
      await b.close();
      await ctxB.database.close();
      await a.close();
    }
  });
});
