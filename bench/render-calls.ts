/**
 * How a page rendered on the server should reach the API: through the app in process (`app.inject`, what
 * render-page.ts does: each call a request through Fastify's routing, hooks, validation and the answer's contract
 * check, answered from memory when kept) or by calling the services directly with the page's Reader, resolved once.
 * Both are measured in one process on one demo database, taking turns within each round: the article page and the
 * home page, in the site's language and in another, rendered ROUNDS x RENDERS times each way, with the answers kept
 * in memory (calls a render makes are then answered from there) and without (CACHE_MAX_MB=0: every call is worked
 * out, as after a change of the content). The direct way here answers the knowledge and settings calls (the portal's
 * and the signed-in visitor's still go in process) and must render the same HTML as the other, which is checked
 * first. Prints, each way, the median milliseconds per page of the calls alone (replayed without React) and of whole
 * renders, and the direct way's ratio. docs/decisions.md ("Server renders keep calling the API in process") reads it.
 *
 *   npx tsx bench/render-calls.ts
 *   BENCH_ROUNDS=7 BENCH_RENDERS=200 npx tsx bench/render-calls.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config/config.ts';
import { createContext } from '../src/server/context-factory.ts';
import type { AppContext } from '../src/server/context.ts';
import { seedOnFirstStart } from '../src/server/features/content-folder/demo.service.ts';
import { renderPage, type CallOverride } from '../src/server/render/render-page.ts';
import { createReaders, type Reader } from '../src/server/content/reader.ts';
import {
  getInstruction,
  getInstructionNearby,
  getSections,
  knowledgeSource,
  listCategories,
  listInstructions,
} from '../src/server/features/knowledge/knowledge.service.ts';
import { presentEnvironments } from '../src/server/features/settings/settings.routes.ts';
import { brandingIn, getStoredBranding } from '../src/server/settings/branding.ts';
import { ApiError } from '../src/server/http/errors.ts';
import { pageLanguageOf } from '../src/shared/page-language.ts';
import { apiPaths } from '../src/shared/paths.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 100);

/** The knowledge and settings calls a public page makes, answered by the services with the page's one Reader. */
function directCalls(ctx: AppContext): (url: string) => CallOverride {
  const source = knowledgeSource(ctx.db, ctx.revisions);
  const readers = createReaders(ctx);
  const instruction = /^\/api\/knowledge\/instruction\/(\d+)(\/nearby)?$/;
  return (url) => {
    let reader: Promise<Reader> | null = null;
    const readerOnce = () =>
      (reader ??= readers.readerOf(pageLanguageOf(new URL(url, 'http://x').search) ?? undefined, null));
    const serve = async (call: string): Promise<unknown> => {
      const address = new URL(call, 'http://x');
      const query = Object.fromEntries(
        [...address.searchParams]
          .filter(([key]) => key !== 'lang')
          .map(([key, value]) => [key, Number(value)]),
      );
      const found = instruction.exec(address.pathname);
      if (address.pathname === apiPaths.sections) return getSections(source, await readerOnce());
      if (address.pathname === apiPaths.categories) return listCategories(source, query, await readerOnce());
      if (address.pathname === apiPaths.instructions)
        return listInstructions(source, query, await readerOnce());
      if (found && !found[2]) return getInstruction(source, Number(found[1]), await readerOnce());
      if (found) {
        const r = await readerOnce();
        return (
          await getInstructionNearby(source, Number(found[1]), r, (title, limit) =>
            ctx.search.suggest(title, limit, r.audience, r.lang, 'related'),
          )
        ).nearby;
      }
      if (address.pathname === apiPaths.branding) {
        const r = await readerOnce();
        const [stored, { languages }] = await Promise.all([
          getStoredBranding(ctx.db),
          readers.languages.load(r.revision),
        ]);
        return { ...brandingIn(stored, r.lang), languages };
      }
      if (address.pathname === apiPaths.environments) return presentEnvironments(ctx);
      return undefined;
    };
    return async (call, answer) => {
      try {
        const body = await serve(call);
        return body === undefined ? answer() : { status: 200, body };
      } catch (error) {
        if (error instanceof ApiError) return { status: error.status, body: { message: error.message } };
        throw error;
      }
    };
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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
    const direct = directCalls(ctx);
    const ways = {
      inject: (url: string) => renderPage(app, url),
      direct: (url: string) => renderPage(app, url, direct(url)),
    };
    // Both ways give the same page.
    for (const url of pages) {
      const [a, b] = [await ways.inject(url), await ways.direct(url)];
      if (a.page.kind !== 'page' || b.page.kind !== 'page' || a.page.html !== b.page.html)
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
    // The calls alone, as the four pages make them, without React: what each way costs a render.
    const calls: { page: string; call: string }[] = [];
    for (const page of pages)
      await renderPage(app, page, (call, answer) => {
        calls.push({ page, call });
        return answer();
      });
    const callWays = {
      inject: async ({ call }: { call: string }) => void (await app.inject({ method: 'GET', url: call })),
      direct: async ({ page, call }: { page: string; call: string }) =>
        void (await direct(page)(call, () => Promise.reject(new Error(`${call} is not answered directly`)))),
    };
    const callTimes = { inject: [] as number[], direct: [] as number[] };
    for (let round = -1; round < ROUNDS; round++) {
      for (const way of round % 2 !== 0 ? (['direct', 'inject'] as const) : (['inject', 'direct'] as const)) {
        const started = performance.now();
        for (let i = 0; i < RENDERS; i++) for (const call of calls) await callWays[way](call);
        if (round >= 0) callTimes[way].push((performance.now() - started) / (RENDERS * pages.length));
      }
    }
    const [injectCalls, directCalls_] = [median(callTimes.inject), median(callTimes.direct)];
    console.log(
      `answers kept: ${cacheMb === '0' ? 'no ' : 'yes'}  the calls alone (${calls.length / pages.length} a page): ` +
        `in process ${injectCalls.toFixed(2)} ms/page [${callTimes.inject.map((t) => t.toFixed(2)).join(' ')}]  ` +
        `direct ${directCalls_.toFixed(2)} ms/page [${callTimes.direct.map((t) => t.toFixed(2)).join(' ')}]`,
    );
    const [inject, directMs] = [median(times.inject), median(times.direct)];
    console.log(
      `answers kept: ${cacheMb === '0' ? 'no ' : 'yes'}  in process (inject) ${inject.toFixed(2)} ms/render ` +
        `[${times.inject.map((t) => t.toFixed(2)).join(' ')}]  direct ${directMs.toFixed(2)} ms/render ` +
        `[${times.direct.map((t) => t.toFixed(2)).join(' ')}]  direct/inject ${(directMs / inject).toFixed(2)}`,
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
