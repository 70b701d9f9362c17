/**
 * A help centre in one language against the same help centre in five, for bench:http and bench:search: N articles
 * in English only, and the same N articles each also translated into ru, pt-BR, it and sk (with their sections and
 * categories), in SQLite databases written directly (a bulk insert takes seconds; the admin API would take minutes).
 * The text is deterministic pseudo-text built from each language's letters and endings, so stemmers have work to do
 * and no two languages share words.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LANGUAGES, type Language } from '../../src/shared/constants.ts';
import { migrateToLatest, openDatabase } from '../../src/server/db/database.ts';
import { touchContent } from '../../src/server/revisions/revision.repository.ts';
import { SearchIndex } from '../../src/server/search/search-index.ts';
import { loadSearchDocuments } from '../../src/server/search/search.service.ts';
import { startServe } from '../../src/server/testing/run-cli.ts';
import { SEARCH_SNAPSHOT_FILE } from '../../src/server/context-factory.ts';

const LETTERS: Record<Language, { letters: string; endings: string[] }> = {
  en: { letters: 'abcdefghiklmnoprstuvwy', endings: ['', 's', 'ed', 'ing', 'er'] },
  ru: { letters: 'абвгдежзиклмнопрстуфхцчшыэюя', endings: ['', 'а', 'ы', 'ов', 'ами', 'ой'] },
  'pt-BR': { letters: 'abcdefghilmnopqrstuvzãçéó', endings: ['', 's', 'ção', 'ões', 'ado'] },
  it: { letters: 'abcdefghilmnopqrstuvzàèù', endings: ['', 'i', 'e', 'are', 'ato'] },
  sk: { letters: 'abcdefghijklmnoprstuvyzáčďéíľňóšťúýž', endings: ['', 'y', 'ov', 'ami', 'ou'] },
};

function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A language's lexicon: 3,000 stems of 4-9 letters. */
function lexicon(lang: Language): string[] {
  const rng = prng(LANGUAGES.indexOf(lang) + 17);
  const { letters } = LETTERS[lang];
  const chars = [...letters];
  return Array.from({ length: 3000 }, () => {
    const length = 4 + Math.floor(rng() * 6);
    return Array.from({ length }, () => chars[Math.floor(rng() * chars.length)]).join('');
  });
}

export interface TextMaker {
  title(lang: Language, n: number): string;
  body(lang: Language, n: number): string;
  /** A query a visitor reading `lang` might type for article n: two of its title's words. */
  query(lang: Language, n: number): string;
}

export function textMaker(): TextMaker {
  const words = new Map(LANGUAGES.map((lang) => [lang, lexicon(lang)]));
  const word = (lang: Language, rng: () => number) => {
    const stems = words.get(lang) as string[];
    const { endings } = LETTERS[lang];
    return `${stems[Math.floor(rng() * stems.length)]}${endings[Math.floor(rng() * endings.length)]}`;
  };
  const titleWords = (lang: Language, n: number) => {
    const rng = prng(n * 31 + LANGUAGES.indexOf(lang));
    return Array.from({ length: 3 + Math.floor(rng() * 4) }, () => word(lang, rng));
  };
  return {
    title: (lang, n) => {
      const [first = '', ...rest] = titleWords(lang, n);
      return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
    },
    body: (lang, n) => {
      const rng = prng(n * 97 + LANGUAGES.indexOf(lang) + 5);
      const paragraphs = Array.from({ length: 3 }, () =>
        Array.from({ length: 30 + Math.floor(rng() * 30) }, () => word(lang, rng)).join(' '),
      );
      return paragraphs.map((p) => `<p>${p}.</p>`).join('');
    },
    query: (lang, n) => titleWords(lang, n).slice(0, 2).join(' '),
  };
}

export interface Corpus {
  dataDir: string;
  file: string;
  articles: number;
  languages: Language[];
  /** Article ids, in the order written. */
  ids: number[];
}

const SECTIONS = 10;
const CATEGORIES_PER_SECTION = 10;

/** Writes a SQLite help centre of `articles` articles in `languages` (the first is the site's) under `dataDir`. */
export async function writeCorpus(dataDir: string, articles: number, languages: Language[]): Promise<Corpus> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'signpost.db');
  const handle = openDatabase({ dialect: 'sqlite', file, timeoutMs: 0 });
  await migrateToLatest(handle);
  const { db } = handle;
  const text = textMaker();
  const [site, ...others] = languages as [Language, ...Language[]];
  const now = Date.now();
  const stamps = { created_at: now, updated_at: now };
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('settings')
      .values({ key: 'branding', value: JSON.stringify({ lang: site }) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify({ lang: site }) }))
      .execute();
    const categories: { id: number; section_id: number }[] = [];
    for (let s = 0; s < SECTIONS; s++) {
      const section = await trx
        .insertInto('sections')
        .values({ name: text.title(site, 1e7 + s), position: s, lang: site, ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const lang of others)
        await trx
          .insertInto('section_translations')
          .values({ section_id: section.id, lang, name: text.title(lang, 1e7 + s), published: 1, ...stamps })
          .execute();
      for (let c = 0; c < CATEGORIES_PER_SECTION; c++) {
        const n = 2e7 + s * CATEGORIES_PER_SECTION + c;
        const category = await trx
          .insertInto('categories')
          .values({
            section_id: section.id,
            name: text.title(site, n),
            description: '',
            position: c,
            lang: site,
            ...stamps,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        categories.push({ id: category.id, section_id: section.id });
        for (const lang of others)
          await trx
            .insertInto('category_translations')
            .values({
              category_id: category.id,
              lang,
              name: text.title(lang, n),
              description: '',
              published: 1,
              ...stamps,
            })
            .execute();
      }
    }
    for (let n = 0; n < articles; n++) {
      const category = categories[n % categories.length] as { id: number; section_id: number };
      const article = await trx
        .insertInto('articles')
        .values({
          section_id: category.section_id,
          category_id: category.id,
          title: text.title(site, n),
          body_html: text.body(site, n),
          lang: site,
          can_create_issue: 0,
          published: 1,
          position: n,
          ...stamps,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(article.id);
      for (const lang of others)
        await trx
          .insertInto('article_translations')
          .values({
            article_id: article.id,
            lang,
            title: text.title(lang, n),
            body_html: text.body(lang, n),
            published: 1,
            ...stamps,
          })
          .execute();
    }
    await touchContent(trx);
  });
  await handle.close();
  return { dataDir, file, articles, languages, ids };
}

export interface IndexFigures {
  documents: number;
  buildMs: number;
  heapMb: number;
}

/**
 * Builds the search index of a corpus in this process: documents, time, and the memory it holds after a full GC (its
 * heap, and the typed arrays its postings keep outside the heap).
 */
export async function measureIndex(corpus: Corpus): Promise<IndexFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const handle = openDatabase({ dialect: 'sqlite', file: corpus.file, timeoutMs: 0 });
  try {
    const before = await memoryInUse(gc);
    const started = performance.now();
    const index = await SearchIndex.build(await loadSearchDocuments(handle.db));
    const buildMs = performance.now() - started;
    const heapMb = ((await memoryInUse(gc)) - before) / 1024 / 1024;
    return { documents: index.size, buildMs, heapMb };
  } finally {
    await handle.close();
  }
}

export interface LoadFigures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * Sends each path once, from `connections` kept-alive connections taking the next path as soon as they are free
 * (closed loop), and answers throughput and latency; an answer other than 200 counts as failed.
 */
export async function sendEach(base: string, paths: string[], connections: number): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < paths.length) {
      const target = paths[next++] as string;
      const sent = performance.now();
      const status = await new Promise<number>((resolve) => {
        const request = http.get(
          `${base}${target}`,
          { agent, headers: { 'accept-encoding': 'br' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        request.on('error', () => resolve(0));
      });
      latencies.push(performance.now() - sent);
      if (status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), failed };
}

export interface ServedFigures {
  /** Ready: the first search answered, from the moment the server listens (the index built from the database). */
  readyMs: number;
  /** The same for the server started again, which reads the index from the snapshot the first one wrote. */
  restartReadyMs: number;
  suggestions: LoadFigures;
  rendered: LoadFigures;
  kept: LoadFigures;
}

const serve = (corpus: Corpus) =>
  startServe({ DATA_DIR: corpus.dataDir, DEMO_CONTENT: 'false', NODE_ENV: 'production', WORKERS: '1' });

/** Milliseconds from now until `path`, a search, answers with results. */
async function untilFound(base: string, path: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${base}${path}`);
    const body = (await response.json()) as { items?: unknown[] };
    if (response.ok && (body.items?.length ?? 0) > 0) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits, up to a minute, for the server to write its snapshot of the index after building it. */
async function snapshotWritten(corpus: Corpus): Promise<void> {
  const file = path.join(corpus.dataDir, SEARCH_SNAPSHOT_FILE);
  for (let i = 0; i < 600 && !fs.existsSync(file); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (!fs.existsSync(file)) throw new Error(`no snapshot of the index at ${file}`);
}

/**
 * Serves a corpus with `signpost serve` and loads it as visitors in its languages would; then starts it again, to
 * time the first search of a server that reads the index from its snapshot.
 */
export async function measureServed(
  corpus: Corpus,
  { connections, renders, searches }: { connections: number; renders: number; searches: number },
): Promise<ServedFigures> {
  fs.rmSync(path.join(corpus.dataDir, SEARCH_SNAPSHOT_FILE), { force: true });
  const text = textMaker();
  const langs = corpus.languages;
  const first = `/api/search/knowledge/suggestions?text=${encodeURIComponent(text.query(langs[0] as Language, 0))}`;
  const server = await serve(corpus);
  let figures: Omit<ServedFigures, 'restartReadyMs'>;
  try {
    const readyMs = await untilFound(server.url, first);
    const count = corpus.ids.length;
    // Readers spread over the corpus's languages; each query is a different article's, asked in its reader's language.
    const suggestionPaths = Array.from({ length: searches }, (_, i) => {
      const lang = langs[i % langs.length] as Language;
      const n = (i * 7919) % count;
      const q = encodeURIComponent(text.query(lang, n));
      return `/api/search/knowledge/suggestions?text=${q}&limit=10${langs.length > 1 ? `&lang=${lang}` : ''}`;
    });
    const pagePath = (i: number) => {
      const lang = langs[i % langs.length] as Language;
      const id = corpus.ids[(i * 104_729) % count] as number;
      return `/knowledge/instruction/${id}${langs.length > 1 && lang !== langs[0] ? `?lang=${lang}` : ''}`;
    };
    // Warm-up: the renderer and the index's first lookups.
    await sendEach(
      server.url,
      [...suggestionPaths.slice(0, 200), ...Array.from({ length: 50 }, (_, i) => pagePath(count - 1 - i))],
      connections,
    );
    const suggestions = await sendEach(server.url, suggestionPaths, connections);
    const rendered = await sendEach(
      server.url,
      Array.from({ length: renders }, (_, i) => pagePath(i)),
      connections,
    );
    const keptPath = pagePath(1);
    const kept = await sendEach(
      server.url,
      Array.from({ length: renders * 3 }, () => keptPath),
      connections,
    );
    figures = { readyMs, suggestions, rendered, kept };
    await snapshotWritten(corpus);
  } finally {
    await server.stop();
  }
  const again = await serve(corpus);
  try {
    return { ...figures, restartReadyMs: await untilFound(again.url, first) };
  } finally {
    await again.stop();
  }
}

/** Both corpora measured in one run, printed side by side with the five languages' ratio to one. */
export async function compareLanguages(options: {
  articles: number;
  workDir: string;
  parts: ('index' | 'served')[];
  connections?: number;
}): Promise<void> {
  const { articles, workDir, parts } = options;
  const connections = options.connections ?? 10;
  console.error(`writing ${articles} articles in one language, then in five...`);
  const one = await writeCorpus(path.join(workDir, 'one'), articles, ['en']);
  const five = await writeCorpus(path.join(workDir, 'five'), articles, [...LANGUAGES]);
  const rows: string[][] = [['', 'one language', 'five languages', 'five / one']];
  const row = (name: string, a: number, b: number, digits = 1) =>
    rows.push([name, a.toFixed(digits), b.toFixed(digits), `${(b / a).toFixed(2)}x`]);
  if (parts.includes('index')) {
    const [a, b] = [await measureIndex(one), await measureIndex(five)];
    row('search documents', a.documents, b.documents, 0);
    row('index build, ms', a.buildMs, b.buildMs, 0);
    row('index heap, MB', a.heapMb, b.heapMb);
  }
  if (parts.includes('served')) {
    const load = { connections, renders: Math.min(1_000, articles), searches: Math.min(3_000, articles) };
    console.error('serving one language...');
    const a = await measureServed(one, load);
    console.error('serving five languages...');
    const b = await measureServed(five, load);
    row('first search after listening, ms', a.readyMs, b.readyMs, 0);
    row('first search after a restart (snapshot), ms', a.restartReadyMs, b.restartReadyMs, 0);
    for (const [name, x, y] of [
      ['suggestions, different queries', a.suggestions, b.suggestions],
      ['article page, each rendered', a.rendered, b.rendered],
      ['article page, kept', a.kept, b.kept],
    ] as const) {
      row(`${name}: req/s`, x.rps, y.rps, 0);
      row(`${name}: p50 ms`, x.p50, y.p50, 2);
      row(`${name}: p99 ms`, x.p99, y.p99, 2);
      if (x.failed + y.failed > 0) rows.push([`${name}: failed`, String(x.failed), String(y.failed), '']);
    }
  }
  console.log(
    `\nOne language against five: ${articles} articles in English, then the same each also in ru, pt-BR, it and sk ` +
      `(${LANGUAGES.length * articles} versions); SQLite, one server process, ${connections} connections, each ` +
      `query and page once (closed loop), readers spread over the languages with ?lang=.`,
  );
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
}

/** The heap and the typed arrays' contents in use, collected first (with a turn for freed arrays to be swept). */
async function memoryInUse(gc: (() => void) | undefined): Promise<number> {
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
