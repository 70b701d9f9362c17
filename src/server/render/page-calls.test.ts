import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, type Language } from '../../shared/constants.ts';
import { createApi, type Api } from '../../web/api/client.ts';
import type { Transport, TransportRequest } from '../../web/api/call.ts';
import type { PageReaders } from '../content/reader.ts';
import { buildArticle, buildArticleTranslation, buildCategory, buildUser } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { seedDemo } from '../features/content-folder/demo.service.ts';
import { createPageCalls, type CallAnswer } from './page-calls.ts';
import { readSetting, writeSetting } from '../settings/settings.repository.ts';

/** Each public read a page makes, as its loaders make it. */
const READS: [string, (api: ReturnType<Api['in']>, ids: { article: number; category: number }) => unknown][] =
  [
    ['branding', (api) => api.branding()],
    ['sections', (api) => api.sections()],
    ['categories', (api) => api.categories()],
    [
      'a category',
      (api, { category }) => api.categories({ category_parent_id: category, page: 1, per_page: 5 }),
    ],
    ['the bundle', (api) => api.instructionBundle()],
    [
      'a page of articles',
      (api, { category }) => api.instructions({ category_id: category, page: 1, per_page: 2 }),
    ],
    ['an article', (api, { article }) => api.instruction(article)],
    ['an article around it', (api, { article }) => api.instructionNearby(article)],
    ['suggestions', (api) => api.suggestions('quokka password', 10)],
    ['an article that is not there', (api) => api.instruction(999_999)],
    ['an id no article can have', (api) => api.instruction(0)],
  ];

describe.each(testDialects())("a page's own reads, answered in process, on %s", (dialect) => {
  let t: TestApp;
  let cookie: string;
  let ids: { article: number; category: number };

  beforeAll(async () => {
    t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none' });
    await seedDemo(t.ctx);
    const user = await buildUser(t.ctx.db);
    const { token } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: 'correct horse battery' },
      })
    ).json<{ token: string }>();
    cookie = `${SESSION_COOKIE}=${token}`;
    // For signed-in visitors: a category, and an article in it with a translation, which anyone else never reads.
    const category = await buildCategory(t.ctx.db, { name: 'Quokka deals', visibility: 'signed_in' });
    const article = await buildArticle(t.ctx.db, {
      category_id: category.id,
      title: 'Quokka password pricing',
      body_html: '<p>The quokka discount.</p>',
      visibility: 'signed_in',
    });
    await buildArticleTranslation(t.ctx.db, {
      article_id: article.id,
      lang: 'ru',
      title: 'Quokka: цены',
      body_html: '<p>Скидка quokka.</p>',
    });
    ids = { article: article.id, category: category.id };
  });
  afterAll(() => t.close());

  /** The same call over HTTP, as the page's calls all went before, with the visitor's cookie. */
  const overHttp = (signedIn: boolean): Transport => ({
    send: async ({ method, url, headers }: TransportRequest) => {
      const response = await t.app.inject({
        method,
        url,
        headers: signedIn ? { ...headers, cookie } : headers,
      });
      return { status: response.statusCode, body: response.body };
    },
  });

  /** The call through the page's calls, its answer as the bytes it would have had over HTTP. */
  const inProcess = (readers: PageReaders, signedIn: boolean, made: string[]): Transport => {
    const calls = createPageCalls(
      t.app,
      readers,
      async (path, answer): Promise<CallAnswer> => {
        made.push(path);
        return answer();
      },
      signedIn ? cookie : undefined,
    );
    return {
      send: async (request) => {
        const { status, body } = await calls.transport.send(request);
        return { status, body: JSON.stringify(body) };
      },
    };
  };

  const answerOf = async (
    transport: Transport,
    read: (api: ReturnType<Api['in']>) => unknown,
    lang: Language | null,
  ) => {
    let answer: unknown;
    const recording: Transport = {
      send: async (request) => {
        const sent = await transport.send(request);
        answer = sent;
        return { status: sent.status, body: JSON.parse(sent.body as string) as unknown };
      },
    };
    await Promise.resolve(read(createApi(recording).in(lang))).catch(() => undefined);
    return answer;
  };

  for (const signedIn of [false, true])
    for (const lang of [null, 'ru'] as const)
      it(`are those over HTTP to the byte (${signedIn ? 'signed in' : 'anonymous'}, ${lang ?? "the site's language"})`, async () => {
        const visitor = signedIn
          ? await t.ctx.db.selectFrom('users').selectAll().executeTakeFirstOrThrow()
          : null;
        const readers = await t.app.readers.pageReadersOf(lang ?? undefined, visitor);
        for (const [name, read] of READS) {
          const http = await answerOf(overHttp(signedIn), (api) => read(api, ids), lang);
          const direct = await answerOf(inProcess(readers, signedIn, []), (api) => read(api, ids), lang);
          expect(direct, name).toEqual(http);
        }
      });

  it('answer only what the contract names, as the HTTP serialiser writes it: a stored field no schema has stays out', async () => {
    const stored = await readSetting(t.ctx.db, 'branding');
    await writeSetting(t.ctx.db, 'branding', { ...(stored as object), internal_note: 'not for visitors' });
    try {
      const readers = await t.app.readers.pageReadersOf(undefined, null);
      const http = await answerOf(overHttp(false), (api) => api.branding(), null);
      const direct = await answerOf(inProcess(readers, false, []), (api) => api.branding(), null);
      expect(JSON.stringify(direct)).not.toContain('internal_note');
      expect(direct).toEqual(http);
    } finally {
      await writeSetting(t.ctx.db, 'branding', stored);
    }
  });

  it('read as the signed-in visitor only where the endpoint identifies its caller', async () => {
    const visitor = await t.ctx.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    const readers = await t.app.readers.pageReadersOf(undefined, visitor);
    expect(readers.visitor.audience).toBe('signed_in');
    expect(readers.anonymous.audience).toBe('everyone');
    expect(readers.anonymous).toMatchObject({
      lang: readers.visitor.lang,
      revision: readers.visitor.revision,
    });
    const anonymous = await t.app.readers.pageReadersOf(undefined, null);
    expect(anonymous.visitor.audience).toBe('everyone');
  });

  it("take the page's readers, not a request's: no cookie goes with them", async () => {
    const visitor = await t.ctx.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    const signedIn = createPageCalls(
      t.app,
      await t.app.readers.pageReadersOf('ru', visitor),
      (_p, a) => a(),
      undefined,
    );
    expect(await createApi(signedIn.transport).in('ru').instruction(ids.article)).toMatchObject({
      id: ids.article,
      title: 'Quokka: цены',
    });
    const anonymous = createPageCalls(
      t.app,
      await t.app.readers.pageReadersOf('ru', null),
      (_p, a) => a(),
      cookie,
    );
    await expect(createApi(anonymous.transport).in('ru').instruction(ids.article)).rejects.toMatchObject({
      status: 401,
    });
  });

  it('answer as over HTTP what is no read of the page, or a read in another language than the page', async () => {
    const readers = await t.app.readers.pageReadersOf('ru', null);
    const calls = createPageCalls(t.app, readers, (_path, answer) => answer(), undefined);
    const api = createApi(calls.transport);
    const overHttpApi = createApi({
      send: async ({ method, url, headers }) => {
        const response = await t.app.inject({ method, url, headers });
        return { status: response.statusCode, body: response.json() as unknown };
      },
    });
    // The page is in Russian; the entry's fallback asks for the branding without a language.
    expect(await api.branding()).toEqual(await overHttpApi.branding());
    expect(await api.in('ru').branding()).toEqual(await overHttpApi.in('ru').branding());
    expect(await api.in('it').sections()).toEqual(await overHttpApi.in('it').sections());
    expect(await api.environments()).toEqual(await overHttpApi.environments());
    await expect(api.call('getMe')).rejects.toMatchObject({ status: 401 });
    expect(calls.cacheable).toBe(true);
  });
});
