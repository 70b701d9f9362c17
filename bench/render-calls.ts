/**
 * How a page rendered on the server reaches the API: its public reads answered by their handlers with the page's
 * readers, resolved once as the page came in (render/page-calls.ts, what renderPage does), or every call through
 * the app in process (`app.inject`, what renderPage did before: each call a request through Fastify's routing,
 * the answer cache, validation, the caller's role, the handler and the answer's contract check, then serialised and
 * parsed back). Both are measured in one process on one demo database, taking turns within each round: the article
 * page and the home page, in the site's language and in another, rendered ROUNDS x RENDERS times each way, with
 * the answers kept in memory (calls made over HTTP are then answered from there) and without (CACHE_MAX_MB=0: every
 * call is worked out, as after a change of the content). Both ways must render the same page (HTML and hydration
 * data), which is checked first. Prints, each way, the median milliseconds per page of the calls alone (replayed
 * without React) and of whole renders, and the direct way's ratio. docs/decisions.md ("Server renders answer
 * their own reads in process") reads it.
 *
 *   npx --no-install tsx bench/render-calls.ts
 *   BENCH_ROUNDS=7 BENCH_RENDERS=200 npx --no-install tsx bench/render-calls.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config/config.ts';
import { createContext } from '../src/server/context-factory.ts';
import { seedOnFirstStart } from '../src/server/features/content-folder/demo.service.ts';
import { renderPage } from '../src/server/render/render-page.ts';
import { createPageCalls, type CallAnswer } from '../src/server/render/page-calls.ts';
import { createReaders, type PageReaders } from '../src/server/content/reader.ts';
import { render } from '../src/web/entry-server.tsx';
import { createApi } from '../src/web/api/client.ts';
import type { TransportRequest } from '../src/web/api/call.ts';
import { pageLanguageOf } from '../src/shared/page-language.ts';
import { apiPaths } from '../src/shared/paths.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 100);

/** Every call through the app as a request, as the pages' calls all went before. */
const injected =
  (app: FastifyInstance) =>
  async (path: string): Promise<CallAnswer> => {
    const response = await app.inject({ method: 'GET', url: path });
    return { status: response.statusCode, body: JSON.parse(response.body) as unknown };
  };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The calls alone, as the pages make them, without React: what each way costs a render (ms per page). */
async function timeCalls(
  app: FastifyInstance,
  pages: string[],
  readersOf: (url: string) => Promise<PageReaders>,
) {
  const inject = injected(app);
  const calls: { page: string; request: TransportRequest }[] = [];
  // Each page's readers as its request resolves them, once.
  const pageReaders = new Map<string, PageReaders>();
  for (const page of pages) {
    pageReaders.set(page, await readersOf(page));
    const { transport } = createPageCalls(
      app,
      pageReaders.get(page)!,
      (_path, answer) => answer(),
      undefined,
    );
    const request = new Request(new URL(page, 'http://signpost.local'));
    await render(
      request,
      createApi({ send: (call) => (calls.push({ page, request: call }), transport.send(call)) }),
    );
  }
  const callWays = {
    inject: async ({ request }: { request: TransportRequest }) => void (await inject(request.url)),
    direct: async ({ page, request }: { page: string; request: TransportRequest }) =>
      void (await createPageCalls(
        app,
        pageReaders.get(page)!,
        (_path, answer) => answer(),
        undefined,
      ).transport.send(request)),
  };
  const callTimes = { inject: [] as number[], direct: [] as number[] };
  for (let round = -1; round < ROUNDS; round++) {
    for (const way of round % 2 !== 0 ? (['direct', 'inject'] as const) : (['inject', 'direct'] as const)) {
      const started = performance.now();
      for (let i = 0; i < RENDERS; i++) for (const call of calls) await callWays[way](call);
      if (round >= 0) callTimes[way].push((performance.now() - started) / (RENDERS * pages.length));
    }
  }
  return { calls, callTimes };
}

async function measure(cacheMb: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-render-calls-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    REVISION_CHECK_MS: '60000',
    CACHE_MAX_MB: cacheMb,
  });
  const ctx = await createContext(config);
  await seedOnFirstStart(ctx);
  const app = await buildApp(ctx);
  try {
    const list = await app.inject({ method: 'GET', url: apiPaths.instructions });
    const id = (JSON.parse(list.body) as { items: { id: number }[] }).items[0]!.id;
    const { site } = await createReaders(ctx).languages.load();
    const other = site === 'ru' ? 'en' : 'ru';
    const pages = [
      `/knowledge/instruction/${id}`,
      `/knowledge/instruction/${id}?lang=${other}`,
      '/knowledge',
      `/knowledge?lang=${other}`,
    ];
    const readersOf = (url: string): Promise<PageReaders> =>
      app.readers.pageReadersOf(pageLanguageOf(new URL(url, 'http://x').search) ?? undefined, null);
    const inject = injected(app);
    const ways = {
      inject: async (url: string) =>
        renderPage(app, url, { readers: await readersOf(url), override: (call) => inject(call) }),
      direct: async (url: string) => renderPage(app, url, { readers: await readersOf(url) }),
    };
    // Both ways give the same page, its hydration data included.
    for (const url of pages) {
      const [a, b] = [await ways.inject(url), await ways.direct(url)];
      if (
        a.page.kind !== 'page' ||
        b.page.kind !== 'page' ||
        a.page.html !== b.page.html ||
        a.page.hydration !== b.page.hydration
      )
        throw new Error(`${url}: the two ways render different pages`);
    }
    const times = { inject: [] as number[], direct: [] as number[] };
    // Round 0 warms both ways up and is not counted.
    for (let round = -1; round < ROUNDS; round++) {
      for (const way of round % 2 !== 0 ? (['direct', 'inject'] as const) : (['inject', 'direct'] as const)) {
        const started = performance.now();
        for (let i = 0; i < RENDERS; i++) await ways[way](pages[i % pages.length]!);
        if (round >= 0) times[way].push((performance.now() - started) / RENDERS);
      }
    }
    const { calls, callTimes } = await timeCalls(app, pages, readersOf);
    const [injectCalls, directCalls_] = [median(callTimes.inject), median(callTimes.direct)];
    console.log(
      `answers kept: ${cacheMb === '0' ? 'no ' : 'yes'}  the calls alone (${calls.length / pages.length} a page): ` +
        `in process ${injectCalls.toFixed(2)} ms/page [${callTimes.inject.map((t) => t.toFixed(2)).join(' ')}]  ` +
        `direct ${directCalls_.toFixed(2)} ms/page [${callTimes.direct.map((t) => t.toFixed(2)).join(' ')}]`,
    );
    const [injectMs, directMs] = [median(times.inject), median(times.direct)];
    console.log(
      `answers kept: ${cacheMb === '0' ? 'no ' : 'yes'}  in process (inject) ${injectMs.toFixed(2)} ms/render ` +
        `[${times.inject.map((t) => t.toFixed(2)).join(' ')}]  direct ${directMs.toFixed(2)} ms/render ` +
        `[${times.direct.map((t) => t.toFixed(2)).join(' ')}]  direct/inject ${(directMs / injectMs).toFixed(2)}`,
    );
  } finally {
    await app.close();
    await ctx.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `renders of 4 public pages (article, home; site's language and another): ${ROUNDS} rounds of ${RENDERS}; ` +
    `Node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
await measure('64');
await measure('0');
