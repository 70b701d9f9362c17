import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '../../../shared/api/auth.ts';
import { SESSION_COOKIE } from '../../../shared/constants.ts';
import { portalPagePaths } from '../../../shared/paths.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { findTicket, saveTicketLink } from '../../tickets/index.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { writeFolder } from '../../testing/folder.ts';
import { buildTicket } from '../../testing/ticket-fixtures.ts';
import { seedDemo } from '../content-folder/demo.service.ts';

const NAME = 'Zelda Quirinal';
const EMAIL = 'zelda.quirinal@example.com';

describe.each(testDialects())("a signed-in visitor's pages and calls on %s", (dialect) => {
  let t: TestApp;
  let cookie: string;
  let token: string;
  let urls: string[];

  beforeAll(async () => {
    t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none' });
    await seedDemo(t.ctx);
    await buildUser(t.ctx.db, { name: NAME, email: EMAIL });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: DEFAULT_PASSWORD },
    });
    token = login.json<LoginResult>().token;
    const setCookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    const session = setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(session).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    // The device cookie is set beside it, not instead.
    expect(setCookies.some((c) => c.startsWith('signpost_device='))).toBe(true);
    cookie = session!.split(';')[0]!;
    expect(cookie).toBe(`${SESSION_COOKIE}=${token}`);

    const bundle = (await t.app.inject('/api/knowledge/instruction')).json<{
      items: { id: number; category_id: number | null }[];
    }>().items;
    const article = bundle.find((a) => a.category_id !== null)!;
    urls = [
      '/knowledge/',
      `/knowledge/category/${article.category_id}`,
      `/knowledge/instruction/${article.id}`,
      '/knowledge/search?query=password',
      '/knowledge/no-such-page',
      '/login',
      '/issues',
      '/issues/create',
      '/user/profile',
      '/api/settings/branding',
      '/panel/api/v2/system/environments',
      '/api/knowledge/all-sections',
      '/api/knowledge/category',
      '/api/knowledge/instruction',
      `/api/knowledge/instruction/${article.id}`,
      '/api/search/knowledge/suggestions?text=password&limit=5&perPage=5',
    ];
  });
  afterAll(async () => t?.close());

  it('renders every page for them on the server, and keeps none of it for anyone else', async () => {
    for (const url of urls) {
      const mine = await t.app.inject({ url, headers: { cookie } });
      expect(mine.statusCode, url).toBeLessThan(500);
      expect(mine.headers['cache-control'], url).toBe('private, no-store');
      // A page rendered for them shows who they are in its header, from the server's HTML on.
      if (!url.startsWith('/api') && !url.startsWith('/panel')) expect(mine.body, url).toContain(NAME);
    }
    // Asked twice anonymously (the second from memory, when it is kept): nothing of theirs, publicly cacheable.
    for (const url of urls)
      for (let round = 0; round < 2; round++) {
        const anonymous = await t.app.inject({ url });
        expect(anonymous.body, url).not.toContain(NAME);
        expect(anonymous.body, url).not.toContain(EMAIL);
        if (url.startsWith('/knowledge') || url.startsWith('/api') || url.startsWith('/panel'))
          expect(anonymous.headers['cache-control'], url).toMatch(/^public/);
      }
  });

  it('renders their requests and a conversation on the server, and a private link for anyone holding it', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: {
        title: 'Quirinal heating fault',
        description: 'The radiator stays cold.',
        name: NAME,
        email: EMAIL,
      },
      headers: { 'x-auth-token': token, 'x-forwarded-for': '10.9.9.8' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json<{ data: { id: number } }>().data.id;
    const list = await t.app.inject({ url: '/issues', headers: { cookie } });
    expect(list.body).toContain('Quirinal heating fault');
    expect(list.body).toContain(`href="/issues/${id}"`);
    const thread = await t.app.inject({ url: `/issues/${id}`, headers: { cookie } });
    expect(thread.body).toContain('The radiator stays cold.');
    expect(thread.headers['cache-control']).toBe('private, no-store');
    // Without the cookie, the page is the same frame for everyone, with nothing of theirs in it.
    const anonymous = await t.app.inject({ url: `/issues/${id}` });
    expect(anonymous.body).not.toContain('The radiator stays cold.');

    const mailed = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: {
        title: 'Anonymous parcel',
        description: 'Where is my parcel?',
        name: 'Grace',
        email: 'grace@example.com',
      },
      headers: { 'x-forwarded-for': '10.9.9.7' },
    });
    // The answer names no private link (it is mailed to the address); a key such a mail carries opens the page.
    const { data, link: shown } = mailed.json<{ data: { id: number }; link: string | null }>();
    expect(shown).toBeNull();
    const link = `/issues/${data.id}?key=${await saveTicketLink(t.ctx.db, data.id, 'test', Date.now())}`;
    const opened = await t.app.inject({ url: link });
    expect(opened.body).toContain('Where is my parcel?');
    expect(opened.headers['cache-control']).toBe('private, no-store');
    expect((await t.app.inject({ url: link.replace(/\?key=.*/, '?key=wrong') })).body).not.toContain(
      'Where is my parcel?',
    );
  });

  it('keeps a form sent before its page runs out of the address: the forms post, and a post comes back to the page', async () => {
    // Sent by the browser itself before the scripts ran, a form's fields (a password) would otherwise land in the
    // address, the history and the logs as a GET's query.
    const page = await t.app.inject('/login?from=knowledge_base');
    // The search box's form is a GET on purpose: its query is the results page's shareable address.
    const forms = (page.body.match(/<form\b[^>]*>/g) ?? []).filter((form) => !form.includes('role="search"'));
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(form).toMatch(/\bmethod="post"/);
    for (const url of ['/login?from=knowledge_base', '/signup', '/issues/create']) {
      const sent = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=zelda%40example.com&password=secret',
      });
      expect(sent.statusCode, url).toBe(303);
      expect(sent.headers.location, url).toBe(url);
      expect(sent.body, url).not.toContain('secret');
    }
    // Whatever it carries, however it is sent.
    const odd = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--',
    });
    expect(odd.statusCode).toBe(303);
  });

  it('answers their own calls by the cookie on reads, never on writes', async () => {
    const me = await t.app.inject({ url: '/api/user/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ name: NAME, email: EMAIL });
    expect(me.headers['cache-control']).toBe('private, no-store');
    const mine = await t.app.inject({ url: '/api/portal/issues', headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    expectApiError(
      await t.app.inject({
        method: 'PATCH',
        url: '/api/user/me',
        payload: { name: 'Changed' },
        headers: { cookie },
      }),
      401,
    );
    // A request sent with the cookie alone is an anonymous one: writes know the visitor by x-auth-token only.
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: { title: 'Cookie only', description: 'From a form', name: 'Zed', email: 'zed@example.com' },
      headers: { cookie, 'x-forwarded-for': '10.9.9.9' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const ticket = await findTicket(t.ctx.db, sent.json<{ data: { id: number } }>().data.id);
    expect(ticket?.user_id).toBeNull();
  });

  it('signs out by the cookie alone, which it clears', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: DEFAULT_PASSWORD },
    });
    const own = `${SESSION_COOKIE}=${login.json<LoginResult>().token}`;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: own } });
    expect(out.statusCode, out.body).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain(
      `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
    );
    expectApiError(await t.app.inject({ url: '/api/user/me', headers: { cookie: own } }), 401);
    const page = await t.app.inject({ url: '/knowledge/', headers: { cookie: own } });
    expect(page.body).not.toContain(NAME);
  });

  it('signs out of every device by the cookie alone, which it clears', async () => {
    const signIn = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: EMAIL, password: DEFAULT_PASSWORD },
        })
      ).json<LoginResult>().token;
    const here = await signIn();
    const elsewhere = await signIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout-everywhere',
      headers: { cookie: `${SESSION_COOKIE}=${here}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=; Path=/`);
    for (const token of [here, elsewhere])
      expectApiError(await t.app.inject({ url: '/api/user/me', headers: { 'x-auth-token': token } }), 401);
  });
});

describe.each(testDialects())('the analytics snippet and the portal on %s', (dialect) => {
  let t: TestApp;
  let cookie: string;
  let requestId: number;

  beforeAll(async () => {
    const snippet = writeFolder({
      'snippet.html':
        '<script src="https://tags.example/gtm.js"></script>\n' +
        "<script>navigator.sendBeacon('https://collect.example/hit', location.href)</script>",
    });
    t = await createTestApp(dialect, {
      CAPTCHA_PROVIDER: 'none',
      ANALYTICS_SNIPPET_FILE: `${snippet}/snippet.html`,
      ANALYTICS_CSP_SOURCES: 'https://www.analytics.example',
    });
    await seedDemo(t.ctx);
    await buildUser(t.ctx.db, { name: NAME, email: EMAIL });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: DEFAULT_PASSWORD },
    });
    cookie = `${SESSION_COOKIE}=${login.json<LoginResult>().token}`;
    requestId = (await buildTicket(t.ctx, { email: 'grace@example.com', targets: [] })).id;
  });
  afterAll(async () => t?.close());

  /** The snippet's hosts, in the page or in its Content-Security-Policy. */
  const analyticsIn = (page: { body: string; headers: Record<string, unknown> }) => {
    const policy = String(page.headers['content-security-policy']);
    return ['tags.example', 'collect.example', 'analytics.example'].filter(
      (host) => page.body.includes(host) || policy.includes(host),
    );
  };

  it('runs on the help centre’s pages, and on no page of the portal: accounts, requests, private links', async () => {
    const knowledge = await t.app.inject('/knowledge/');
    expect(analyticsIn(knowledge)).toEqual(['tags.example', 'collect.example', 'analytics.example']);

    const portalPages = portalPagePaths.map((path) => path.replace(':id', String(requestId)));
    expect(portalPages).toEqual(
      expect.arrayContaining(['/login', '/signup', '/verify-email', '/new-password', '/accept-invite']),
    );
    // A private link's page is the portal's whether its key opens the request or not.
    const privateLink = `/issues/${requestId}?key=${'k'.repeat(43)}`;
    for (const url of [...portalPages, privateLink, '/login?from=knowledge_base', '/issues?page=2']) {
      for (const headers of [{}, { cookie }]) {
        const page = await t.app.inject({ url, headers });
        expect(page.statusCode, url).toBeLessThan(400);
        expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(analyticsIn(page), url).toEqual([]);
      }
    }
  });
});
