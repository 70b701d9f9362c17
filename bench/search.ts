/**
 * Search benchmark: generates deterministic corpora of 10,000 and 100,000 articles mixing en, ru, pt-BR, it and sk
 * (pseudo-words built from each language's letters, inflected with its real endings, so stemmers have work to do),
 * and a set of about 200 queries per corpus with a known target article, derived from the target's title: exact
 * words, inflected forms, one typo, and the last word cut short (as typed).
 *
 * For each size it prints: index build time (loadSearchDocuments + SearchIndex.build) and heap used by the index;
 * p50/p99 latency and requests per second of GET /api/search/knowledge/suggestions over HTTP under load (autocannon
 * in a separate process, 10 connections): 20,000 different queries sent once each, so every answer is searched,
 * then the query set cycled for 10 s, as repeated queries are answered from memory; the time of each kind of bad
 * input (one letter, 10,000 letters, punctuation, emoji, mixed scripts...) with the event loop's longest stall
 * meanwhile; then latency (direct calls, p50/p99)
 * and recall@10 over the query set for our index, PostgreSQL full-text search (tsvector per language, GIN index,
 * to_tsquery with the last word as a prefix) and SQLite FTS5 (unicode61 remove_diacritics 2, last term prefix),
 * overall and per kind of query.
 *
 * It also re-titles 1% of the articles (as a re-import would) and times until they are found, then 50% (rebuilt in
 * the background) with the latency of the searches answered meanwhile, and starts a second server on the same
 * database to show that its other calls answer while it builds its index.
 *
 * Targets: HTTP p99 ≤ 10 ms at 10,000 articles for different queries; recall@10 above both SQL engines on typo and
 * inflection queries; bad input answered 200 or 400 in under 50 ms.
 *
 *   npm run bench:search
 *   BENCH_SIZES=10000 npm run bench:search          (sizes to run, comma separated)
 *   BENCH_DATABASE_URL=postgres://... (default postgres://postgres@127.0.0.1:5432/test; a fresh schema is dropped after)
 *   BENCH_DURATION=10 (seconds of HTTP load per size)
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { startServer } from '../e2e/support/server.ts';
import { startServe } from '../src/server/testing/run-cli.ts';
import type { Language } from '../src/shared/constants.ts';
import { touchContent } from '../src/server/revisions/revision.repository.ts';
import { SearchIndex } from '../src/server/search/search-index.ts';
import { loadSearchDocuments } from '../src/server/search/search.service.ts';

const SUGGESTIONS_PATH = '/api/search/knowledge/suggestions';

// ---------------------------------------------------------------------------------------------------------------
// Load mode: the same file, started as a child process, runs autocannon so the load does not share our event loop.
// ---------------------------------------------------------------------------------------------------------------
if (process.env.BENCH_SEARCH_LOAD) {
  const { default: autocannon } = await import('autocannon');
  const job = JSON.parse(fs.readFileSync(process.env.BENCH_SEARCH_LOAD, 'utf8')) as {
    url: string;
    paths: string[];
    duration: number;
    /** Each path once, in order (no answer can come from a cache), instead of cycling for `duration`. */
    once?: boolean;
  };
  const result = await autocannon({
    url: job.url,
    connections: 10,
    ...(job.once ? { amount: job.paths.length } : { duration: job.duration }),
    requests: job.paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  process.stdout.write(
    JSON.stringify({
      p50: result.latency.p50,
      p99: result.latency.p99,
      // Requests over the seconds they took (autocannon's average counts whole seconds only).
      rps: Math.round(result.requests.total / result.duration),
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    }),
  );
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic corpus
// ---------------------------------------------------------------------------------------------------------------

/** mulberry32: small, seeded, good enough for test data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

interface LanguageSpec {
  lang: Language;
  /** PostgreSQL text search configuration. */
  pg: string;
  onsets: string[];
  vowels: string[];
  codas: string[];
  /** Endings of one lexeme: every stem takes one paradigm; the forms are stem + ending. */
  paradigms: string[][];
  /** Common real words, for the body text between the pseudo-words. */
  common: string[];
}

const SPECS: LanguageSpec[] = [
  {
    lang: 'en',
    pg: 'english',
    onsets: [
      'b',
      'br',
      'c',
      'cl',
      'd',
      'dr',
      'f',
      'g',
      'gr',
      'k',
      'l',
      'm',
      'n',
      'p',
      'pl',
      'r',
      's',
      'st',
      't',
      'tr',
      'v',
      'w',
    ],
    vowels: ['a', 'e', 'i', 'o', 'u', 'oa', 'ea'],
    codas: ['nt', 'rk', 'st', 'nd', 'lt', 'rm', 'mp', 'sk', 'ck', 'rn'],
    paradigms: [
      ['', 's', 'ing', 'ed'],
      ['', 'er', 'ers', 'ing'],
    ],
    common: [
      'the',
      'to',
      'your',
      'account',
      'click',
      'settings',
      'page',
      'and',
      'you',
      'can',
      'open',
      'then',
      'select',
    ],
  },
  {
    lang: 'ru',
    pg: 'russian',
    onsets: [
      'б',
      'в',
      'г',
      'д',
      'ж',
      'з',
      'к',
      'л',
      'м',
      'н',
      'п',
      'р',
      'с',
      'т',
      'ф',
      'х',
      'ч',
      'ш',
      'пр',
      'ст',
      'кр',
    ],
    vowels: ['а', 'о', 'у', 'и', 'е', 'ё'],
    codas: ['н', 'р', 'к', 'т', 'л', 'д', 'ск', 'рт', 'нт'],
    paradigms: [
      ['а', 'ы', 'е', 'у', 'ой', 'ами'],
      ['', 'а', 'у', 'ом', 'ы', 'ов'],
      ['ить', 'ишь', 'ит', 'ите', 'ил', 'ила'],
    ],
    common: [
      'и',
      'в',
      'на',
      'для',
      'настройки',
      'нажмите',
      'страница',
      'вы',
      'можете',
      'затем',
      'выберите',
      'учётной',
    ],
  },
  {
    lang: 'pt-BR',
    pg: 'portuguese',
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'br', 'pr', 'tr', 'cr'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ã', 'ê'],
    codas: ['r', 'l', 's', 'nt', 'nd', 'rt', 'st'],
    paradigms: [
      ['ar', 'ado', 'ando', 'ação', 'ações'],
      ['o', 'os', 'inho', 'inhos'],
      ['ente', 'entes', 'ência', 'ências'],
    ],
    common: [
      'o',
      'a',
      'de',
      'para',
      'sua',
      'conta',
      'clique',
      'configurações',
      'página',
      'você',
      'pode',
      'então',
    ],
  },
  {
    lang: 'it',
    pg: 'italian',
    onsets: [
      'b',
      'c',
      'd',
      'f',
      'g',
      'l',
      'm',
      'n',
      'p',
      'r',
      's',
      't',
      'v',
      'z',
      'br',
      'pr',
      'tr',
      'sc',
      'st',
    ],
    vowels: ['a', 'e', 'i', 'o', 'u'],
    codas: ['r', 'l', 'n', 'nt', 'st', 'rt', 'ss', 'tt'],
    paradigms: [
      ['are', 'ato', 'ando', 'azione', 'azioni'],
      ['o', 'i', 'etto', 'etti'],
      ['ità', 'ità', 'ale', 'ali'],
    ],
    common: [
      'il',
      'la',
      'di',
      'per',
      'tuo',
      'account',
      'fai',
      'clic',
      'impostazioni',
      'pagina',
      'puoi',
      'poi',
    ],
  },
  {
    lang: 'sk',
    pg: 'simple',
    onsets: [
      'b',
      'c',
      'č',
      'd',
      'h',
      'j',
      'k',
      'l',
      'ľ',
      'm',
      'n',
      'p',
      'r',
      's',
      'š',
      't',
      'v',
      'z',
      'ž',
      'pr',
      'st',
      'kr',
    ],
    vowels: ['a', 'á', 'e', 'é', 'i', 'í', 'o', 'ô', 'u', 'ú', 'y'],
    codas: ['n', 'r', 'k', 't', 'l', 'd', 'sk', 'st', 'v'],
    paradigms: [
      ['a', 'y', 'e', 'u', 'ou', 'ami'],
      ['', 'u', 'om', 'y', 'ov', 'och'],
      ['ovať', 'ujem', 'uje', 'ujú', 'oval', 'ovala'],
    ],
    common: [
      'a',
      'v',
      'na',
      'pre',
      'váš',
      'účet',
      'kliknite',
      'nastavenia',
      'stránka',
      'môžete',
      'potom',
      'vyberte',
    ],
  },
];

const LEXEMES_PER_LANGUAGE = 2000;

interface Lexeme {
  id: number;
  forms: string[];
}

/** The vocabulary of one language: distinct stems of two or three syllables, each with its paradigm's forms. */
function vocabulary(spec: LanguageSpec, rng: Rng, firstId: number): Lexeme[] {
  const stems = new Set<string>();
  while (stems.size < LEXEMES_PER_LANGUAGE) {
    let stem = '';
    const syllables = rng.int(2, 3);
    for (let i = 0; i < syllables; i++) stem += rng.pick(spec.onsets) + rng.pick(spec.vowels);
    stems.add(stem + rng.pick(spec.codas));
  }
  return [...stems].map((stem, i) => ({
    id: firstId + i,
    forms: [...new Set(rng.pick(spec.paradigms).map((ending) => stem + ending))],
  }));
}

type Kind = 'exact' | 'typo' | 'inflection' | 'prefix';
const KINDS: Kind[] = ['exact', 'typo', 'inflection', 'prefix'];

interface Article {
  id: number;
  lang: Language;
  spec: LanguageSpec;
  title: string;
  /** The title's words as [lexeme, form index]. */
  words: [Lexeme, number][];
  body: string;
}

interface Query {
  text: string;
  kind: Kind;
  lang: Language;
  target: number;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function generateCorpus(size: number) {
  const rng = prng(20240605 + size);
  let nextId = 1;
  const vocab = new Map<LanguageSpec, Lexeme[]>();
  for (const spec of SPECS) {
    vocab.set(spec, vocabulary(spec, rng, nextId));
    nextId += LEXEMES_PER_LANGUAGE;
  }
  const articles: Article[] = [];
  for (let id = 1; id <= size; id++) {
    const spec = SPECS[(id - 1) % SPECS.length] as LanguageSpec;
    const lexemes = vocab.get(spec) as Lexeme[];
    const count = rng.int(3, 8);
    const words: [Lexeme, number][] = [];
    while (words.length < count) {
      const lexeme = rng.pick(lexemes);
      if (!words.some(([l]) => l === lexeme)) words.push([lexeme, rng.int(0, lexeme.forms.length - 1)]);
    }
    const title = capitalise(words.map(([l, f]) => l.forms[f]).join(' '));
    const bodyWords: string[] = [];
    const length = rng.int(80, 200);
    for (let i = 0; i < length; i++) {
      if (rng.next() < 0.35) bodyWords.push(rng.pick(spec.common));
      else {
        const lexeme = rng.pick(lexemes);
        bodyWords.push(rng.pick(lexeme.forms));
      }
    }
    const sentences: string[] = [];
    for (let i = 0; i < bodyWords.length; i += 12)
      sentences.push(`${capitalise(bodyWords.slice(i, i + 12).join(' '))}.`);
    articles.push({ id, lang: spec.lang, spec, title, words, body: sentences.join(' ') });
  }
  return { articles, queries: generateQueries(articles, rng) };
}

/** One edit at a random place after the first letter: substitution, deletion, transposition or insertion. */
function typo(word: string, spec: LanguageSpec, rng: Rng): string {
  const letters = [...word];
  const alphabet = [...new Set([...spec.vowels.join(''), ...spec.onsets.join('')])];
  for (;;) {
    const at = rng.int(1, letters.length - 2);
    const edit = rng.int(0, 3);
    const next = [...letters];
    if (edit === 0) next[at] = rng.pick(alphabet);
    else if (edit === 1) next.splice(at, 1);
    else if (edit === 2) [next[at], next[at + 1]] = [next[at + 1] as string, next[at] as string];
    else next.splice(at, 0, rng.pick(alphabet));
    const result = next.join('');
    if (result !== word) return result;
  }
}

/** About 200 queries: 50 of each kind, 10 per language, each aimed at an article whose title it was made from. */
function generateQueries(articles: Article[], rng: Rng): Query[] {
  // A query must point at few titles, so its target is a fair answer: count titles per pair of lexemes.
  const pairCount = new Map<string, number>();
  const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
  for (const article of articles) {
    const ids = article.words.map(([l]) => l.id);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const key = pairKey(ids[i] as number, ids[j] as number);
        pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
      }
    }
  }
  const queries: Query[] = [];
  const used = new Set<number>();
  for (const kind of KINDS) {
    for (const spec of SPECS) {
      let made = 0;
      while (made < 10) {
        const article = articles[rng.int(0, articles.length - 1)] as Article;
        if (article.spec !== spec || used.has(article.id)) continue;
        const size = rng.next() < 0.5 ? 2 : 3;
        const shuffled = [...article.words];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = rng.int(0, i);
          [shuffled[i], shuffled[j]] = [shuffled[j] as [Lexeme, number], shuffled[i] as [Lexeme, number]];
        }
        const chosen = shuffled.slice(0, size);
        if (chosen.length < size) continue;
        const [first, second] = chosen as [[Lexeme, number], [Lexeme, number]];
        if ((pairCount.get(pairKey(first[0].id, second[0].id)) ?? 0) > 1) continue;
        let forms = chosen.map(([l, f]) => l.forms[f] as string);
        if (kind === 'inflection') {
          // Every word in another form of its lexeme than the title has (where the paradigm has one).
          if (!chosen.every(([l]) => l.forms.length > 1)) continue;
          forms = chosen.map(([l, f]) => {
            const others = l.forms.filter((_, i) => i !== f);
            return rng.pick(others);
          });
        } else if (kind === 'typo') {
          const at = forms.findIndex((w) => [...w].length >= 6);
          if (at === -1) continue;
          forms[at] = typo(forms[at] as string, spec, rng);
        } else if (kind === 'prefix') {
          const last = [...(forms[forms.length - 1] as string)];
          if (last.length < 5) continue;
          forms[forms.length - 1] = last.slice(0, Math.max(3, Math.ceil(last.length * 0.6))).join('');
        }
        used.add(article.id);
        queries.push({ text: forms.join(' '), kind, lang: spec.lang, target: article.id });
        made++;
      }
    }
  }
  return queries;
}

/**
 * Queries as visitors type them, all different, so none is answered from a cache: one to three words of a title,
 * the last often cut short, sometimes with a typo.
 */
function uniqueQueries(articles: Article[], count: number): string[] {
  const rng = prng(7 + articles.length);
  const seen = new Set<string>();
  for (let tries = 0; seen.size < count && tries < count * 20; tries++) {
    const article = articles[rng.int(0, articles.length - 1)] as Article;
    const words = article.words.map(([l, f]) => l.forms[f] as string);
    const start = rng.int(0, Math.max(0, words.length - 1));
    const chosen = words.slice(start, start + rng.int(1, 3));
    const last = [...(chosen[chosen.length - 1] as string)];
    if (rng.next() < 0.6 && last.length > 3)
      chosen[chosen.length - 1] = last.slice(0, rng.int(3, last.length)).join('');
    else if (rng.next() < 0.3 && last.length >= 6)
      chosen[chosen.length - 1] = typo(last.join(''), article.spec, rng);
    seen.add(chosen.join(' '));
  }
  return [...seen];
}

/** What the issue calls bad input: each must answer 200 (possibly empty) or 400, never 500, quickly. */
const BAD_INPUTS: [string, string][] = [
  ['one letter', 'a'],
  ['one Cyrillic letter', 'п'],
  ['200 letters of one kind (the limit)', 'a'.repeat(200)],
  ['10,000 letters of one kind', 'a'.repeat(10_000)],
  ['punctuation only', '?!.,;:()[]{}<>/\\|"\'`~@#$%^&*-_=+'],
  ['emoji only', '😀🎉🔥👍🏽🇸🇰'],
  ['mixed scripts', 'roуter пароль súbor fattura 😀 123'],
  ['stop words only', 'how do i the what is it'],
  ['many short words', Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')],
  ['many prefixes of one letter', 'a b c d e f g h i j k l'],
];

// ---------------------------------------------------------------------------------------------------------------
// Measuring helpers
// ---------------------------------------------------------------------------------------------------------------

const gc: (() => void) | null = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
})();
const collect = () => {
  if (gc) for (let i = 0; i < 3; i++) gc();
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

interface EngineResult {
  name: string;
  p50: number;
  p99: number;
  recall: Record<Kind | 'all', number>;
}

/** Runs every query once to warm up, then again timed; recall@10 from the timed run. */
async function measureEngine(
  name: string,
  queries: Query[],
  run: (query: Query) => Promise<number[]> | number[],
): Promise<EngineResult> {
  for (const query of queries) await run(query);
  const times: number[] = [];
  const found = new Map<Kind | 'all', [number, number]>();
  for (const query of queries) {
    const started = performance.now();
    const ids = await run(query);
    times.push(performance.now() - started);
    const hit = ids.slice(0, 10).includes(query.target) ? 1 : 0;
    for (const key of ['all', query.kind] as const) {
      const [hits, total] = found.get(key) ?? [0, 0];
      found.set(key, [hits + hit, total + 1]);
    }
  }
  times.sort((a, b) => a - b);
  const recall = Object.fromEntries(
    [...found].map(([key, [hits, total]]) => [key, hits / total]),
  ) as EngineResult['recall'];
  return { name, p50: percentile(times, 0.5), p99: percentile(times, 0.99), recall };
}

/** Words of a query as the SQL engines are given them: letters and digits only. */
const queryWords = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

async function runLoad(url: string, paths: string[], duration: number, once = false) {
  const jobFile = path.join(os.tmpdir(), `signpost-bench-search-${process.pid}.json`);
  fs.writeFileSync(jobFile, JSON.stringify({ url, paths, duration, once }));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
      env: { ...process.env, BENCH_SEARCH_LOAD: jobFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`load process exited with ${code}`);
    return JSON.parse(output) as {
      p50: number;
      p99: number;
      rps: number;
      total: number;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
  } finally {
    fs.rmSync(jobFile, { force: true });
  }
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const pct = (n: number | undefined) => (n === undefined ? '-' : `${(n * 100).toFixed(1)}%`);

/**
 * Starts `signpost serve` on an existing SQLite data folder and, from the moment it listens, asks for the branding
 * again and again while one search waits for the index: the latencies of those other calls while it is built.
 */
async function measureStartup(dataDir: string, query: string) {
  const started = performance.now();
  const server = await startServe({ DATA_DIR: dataDir, DEMO_CONTENT: 'false' });
  try {
    const { url } = server;
    const listening = performance.now();
    let searched = 0;
    const search = fetch(`${url}${SUGGESTIONS_PATH}?text=${encodeURIComponent(query)}&limit=10`).then((r) => {
      if (!r.ok) throw new Error(`suggestions answered ${r.status}`);
      searched = performance.now();
    });
    const other: number[] = [];
    while (!searched) {
      const asked = performance.now();
      const response = await fetch(`${url}/api/settings/branding`);
      if (!response.ok) throw new Error(`branding answered ${response.status}`);
      await response.arrayBuffer();
      if (!searched) other.push(performance.now() - asked);
    }
    await search;
    other.sort((a, b) => a - b);
    return { listen: listening - started, firstSearch: searched - listening, other };
  } finally {
    await server.stop();
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// One corpus size
// ---------------------------------------------------------------------------------------------------------------

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Different queries sent once each for the uncached figures. */
const UNIQUE_QUERIES = Number(process.env.BENCH_UNIQUE_QUERIES ?? 20_000);

async function benchSize(size: number) {
  const stepStarted = performance.now();
  const { articles, queries } = generateCorpus(size);
  const counts = Object.fromEntries(KINDS.map((k) => [k, queries.filter((q) => q.kind === k).length]));
  console.log(
    `\n=== ${size.toLocaleString('en')} articles: corpus and ${queries.length} queries generated in ` +
      `${fmt((performance.now() - stepStarted) / 1000)} s (${KINDS.map((k) => `${k} ${counts[k]}`).join(', ')})`,
  );
  console.log(
    `    e.g. ${KINDS.map((k) => `${k}: "${queries.find((q) => q.kind === k)?.text}"`).join('; ')}`,
  );

  // As in production: the content's revision is read at most every 250 ms (tests read it on every request), and at
  // once after a write through this server, which the changes below stand for (changedHere).
  const server = await startServer({ demo: false, env: { REVISION_CHECK_MS: '250' } });
  const changedHere = async () => {
    await touchContent(server.ctx.db);
    server.ctx.revisions.invalidate();
  };
  const schema = `bench_search_${crypto.randomBytes(5).toString('hex')}`;
  const pgClient = new pg.Client({ connectionString: DATABASE_URL });
  const fts = new Sqlite(':memory:');
  try {
    // --- The help centre's database: one section per language, ten categories in each.
    const db = server.ctx.db;
    let loadStarted = performance.now();
    const now = Date.now();
    const categoryOf = new Map<Language, { section: number; categories: number[] }>();
    for (const [i, spec] of SPECS.entries()) {
      const section = await db
        .insertInto('sections')
        .values({
          name: `Help ${spec.lang}`,
          position: i,
          source_path: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const categories: number[] = [];
      for (let c = 0; c < 10; c++) {
        const row = await db
          .insertInto('categories')
          .values({
            section_id: section.id,
            parent_id: null,
            name: `Topic ${c + 1}`,
            description: '',
            description_source: null,
            icon_file_id: null,
            icon_type: null,
            font_icon: null,
            position: c,
            source_path: null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        categories.push(row.id);
      }
      categoryOf.set(spec.lang, { section: section.id, categories });
    }
    const BATCH = 500;
    for (let i = 0; i < articles.length; i += BATCH) {
      await db
        .insertInto('articles')
        .values(
          articles.slice(i, i + BATCH).map((a) => {
            const place = categoryOf.get(a.lang) as { section: number; categories: number[] };
            return {
              id: a.id,
              section_id: place.section,
              category_id: place.categories[a.id % place.categories.length] as number,
              title: a.title,
              body_html: `<p>${a.body}</p>`,
              body_source: null,
              lang: a.lang,
              can_create_issue: 0 as const,
              published: 1 as const,
              position: a.id,
              source_path: null,
              created_at: now,
              updated_at: now,
            };
          }),
        )
        .execute();
    }
    console.log(`    SQLite (server) rows inserted in ${fmt((performance.now() - loadStarted) / 1000)} s`);

    // --- Our index, built here apart from the server's, for build time, memory and direct calls.
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    const buildStarted = performance.now();
    const documents = await loadSearchDocuments(db);
    const loaded = performance.now();
    let index: SearchIndex | null = await SearchIndex.build(documents);
    const built = performance.now();
    collect();
    const heapDelta = process.memoryUsage().heapUsed - heapBefore;
    // Direct calls now, then let this copy go before the server builds its own (two at 100,000 would crowd the heap).
    const oursDirect = await measureEngine('signpost (MiniSearch)', queries, (q) =>
      (index as SearchIndex).search(q.text, 10).map((h) => h.id),
    );
    index = null;
    documents.length = 0;
    collect();

    // --- The server's index follows the content: bump the revision, then wait for its first answer.
    await changedHere();
    const firstStarted = performance.now();
    const first = await fetch(
      `${server.url}${SUGGESTIONS_PATH}?text=${encodeURIComponent(queries[0]?.text ?? 'x')}&limit=10&perPage=10`,
    );
    if (!first.ok) throw new Error(`suggestions answered ${first.status}`);
    const firstAnswer = performance.now() - firstStarted;

    // --- HTTP under load: first every query different (what the index costs), then the query set cycled (what
    // visitors repeating each other cost: answered from the server's memory).
    const suggestionsPath = (text: string) =>
      `${SUGGESTIONS_PATH}?text=${encodeURIComponent(text)}&limit=10&perPage=10`;
    const uncached = await runLoad(
      server.url,
      uniqueQueries(articles, UNIQUE_QUERIES).map(suggestionsPath),
      DURATION,
      true,
    );
    const load = await runLoad(
      server.url,
      queries.map((q) => suggestionsPath(q.text)),
      DURATION,
    );

    // --- Bad input, one at a time, with the event loop watched meanwhile.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const bad: { name: string; status: number; ms: number }[] = [];
    for (const [name, text] of BAD_INPUTS) {
      let worst = 0;
      let status = 0;
      for (let i = 0; i < 5; i++) {
        const asked = performance.now();
        // A new URL each time, so the answer is made, not remembered.
        const response = await fetch(`${server.url}${suggestionsPath(text)}&_=${i}`);
        await response.arrayBuffer();
        worst = Math.max(worst, performance.now() - asked);
        status = response.status;
      }
      bad.push({ name, status, ms: worst });
    }
    loopDelay.disable();

    // --- One article edited: how long until a search on this server finds its new title.
    const edited = await db
      .selectFrom('articles')
      .select('id')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('articles')
      .set({ title: 'Zyxwvutsr edited title', updated_at: Date.now() })
      .where('id', '=', edited.id)
      .execute();
    await changedHere();
    const editStarted = performance.now();
    const afterEdit = await (
      await fetch(`${server.url}${SUGGESTIONS_PATH}?text=zyxwvutsr&limit=10&perPage=10`)
    ).json();
    const editAnswer = performance.now() - editStarted;
    if (afterEdit.items?.[0]?.id !== edited.id) throw new Error('the edited article was not found');

    // --- A re-import that changes 1% of the articles: updated in place, not rebuilt.
    const findTitle = async (word: string) =>
      (await (await fetch(`${server.url}${SUGGESTIONS_PATH}?text=${word}&limit=10&perPage=10`)).json()).items
        ?.length ?? 0;
    const ids = (await db.selectFrom('articles').select('id').orderBy('id').execute()).map((r) => r.id);
    const retitle = async (share: number, word: string) => {
      const chosen = ids.filter((_, i) => i % Math.round(1 / share) === 0);
      for (let i = 0; i < chosen.length; i += 500) {
        await db
          .updateTable('articles')
          .set({ title: `${word} retitled`, updated_at: Date.now() })
          .where('id', 'in', chosen.slice(i, i + 500))
          .execute();
      }
      await changedHere();
      return chosen.length;
    };
    const bulkCount = await retitle(0.01, 'Qqbulkone');
    let bulkStarted = performance.now();
    if ((await findTitle('qqbulkone')) === 0) throw new Error('the re-imported articles were not found');
    const bulkAnswer = performance.now() - bulkStarted;

    // --- Half the articles changed: rebuilt in the background; searches keep answering from the index there is.
    const halfCount = await retitle(0.5, 'Qqbulkhalf');
    bulkStarted = performance.now();
    const during: number[] = [];
    for (;;) {
      const asked = performance.now();
      const found = await findTitle('qqbulkhalf');
      during.push(performance.now() - asked);
      if (found > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const halfAnswer = performance.now() - bulkStarted;
    during.sort((a, b) => a - b);

    // --- A second server started on the same database: other calls answer while it builds its index.
    const startup = await measureStartup(server.ctx.config.dataDir, queries[0]?.text ?? 'x');

    // --- PostgreSQL.
    loadStarted = performance.now();
    await pgClient.connect();
    await pgClient.query(`CREATE SCHEMA ${schema}`);
    await pgClient.query(`SET search_path = ${schema}`);
    await pgClient.query(
      'CREATE TABLE docs (id integer PRIMARY KEY, lang text NOT NULL, cfg regconfig NOT NULL, title text NOT NULL, body text NOT NULL, tsv tsvector)',
    );
    for (let i = 0; i < articles.length; i += 5000) {
      const batch = articles.slice(i, i + 5000);
      await pgClient.query(
        'INSERT INTO docs (id, lang, cfg, title, body) SELECT * FROM unnest($1::int[], $2::text[], $3::regconfig[], $4::text[], $5::text[])',
        [
          batch.map((a) => a.id),
          batch.map((a) => a.lang),
          batch.map((a) => a.spec.pg),
          batch.map((a) => a.title),
          batch.map((a) => a.body),
        ],
      );
    }
    await pgClient.query(
      "UPDATE docs SET tsv = setweight(to_tsvector(cfg, title), 'A') || setweight(to_tsvector(cfg, body), 'D')",
    );
    await pgClient.query('CREATE INDEX docs_tsv ON docs USING gin (tsv)');
    await pgClient.query('CREATE INDEX docs_lang ON docs (lang)');
    await pgClient.query('ANALYZE docs');
    const pgBuild = performance.now() - loadStarted;
    // The query's language is unknown: it is parsed in each configuration and matched against that language's rows.
    const pgSql =
      SPECS.map(
        (s) =>
          `SELECT id, ts_rank(tsv, to_tsquery('${s.pg}', $1)) AS rank FROM docs ` +
          `WHERE lang = '${s.lang}' AND tsv @@ to_tsquery('${s.pg}', $1)`,
      ).join(' UNION ALL ') + ' ORDER BY rank DESC, id LIMIT 10';
    const pgQueryText = (text: string) => {
      const words = queryWords(text);
      return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
    };

    // --- SQLite FTS5.
    loadStarted = performance.now();
    fts.exec(
      "CREATE VIRTUAL TABLE fts USING fts5(title, body, lang UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')",
    );
    const insert = fts.prepare('INSERT INTO fts (rowid, title, body, lang) VALUES (?, ?, ?, ?)');
    fts.transaction(() => {
      for (const a of articles) insert.run(a.id, a.title, a.body, a.lang);
    })();
    const ftsBuild = performance.now() - loadStarted;
    const ftsSelect = fts.prepare(
      'SELECT rowid AS id FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 4.0, 1.0) LIMIT 10',
    );
    const ftsQueryText = (text: string) => {
      const words = queryWords(text);
      return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
    };

    // --- The three engines on the same queries, direct calls.
    const engines = [
      oursDirect,
      await measureEngine('PostgreSQL FTS', queries, async (q) =>
        (await pgClient.query<{ id: number }>(pgSql, [pgQueryText(q.text)])).rows.map((r) => r.id),
      ),
      await measureEngine('SQLite FTS5', queries, (q) =>
        (ftsSelect.all(ftsQueryText(q.text)) as { id: number }[]).map((r) => r.id),
      ),
    ];

    // --- Report.
    console.log(
      `    index build: ${fmt((built - buildStarted) / 1000, 2)} s ` +
        `(loadSearchDocuments ${fmt((loaded - buildStarted) / 1000, 2)} s + SearchIndex.build ${fmt((built - loaded) / 1000, 2)} s); ` +
        `heap used by the index: ${fmt(heapDelta / 1024 / 1024)} MB${gc ? '' : ' (no gc available: rough)'}`,
    );
    console.log(
      `    server: first suggestion after the content changed ${fmt(firstAnswer / 1000, 2)} s (its own rebuild); ` +
        `PostgreSQL load+tsvector+GIN ${fmt(pgBuild / 1000, 1)} s; FTS5 load ${fmt(ftsBuild / 1000, 1)} s`,
    );
    console.log(
      `    one article edited: found by its new title ${fmt(editAnswer, 1)} ms after the change (updated in place)`,
    );
    console.log(
      `    re-import changing ${bulkCount} articles (1%): found ${fmt(bulkAnswer, 1)} ms after the change (updated in place); ` +
        `${halfCount} articles (50%): found ${fmt(halfAnswer / 1000, 2)} s after (rebuilt in the background), ` +
        `searches meanwhile p50 ${fmt(percentile(during, 0.5), 1)} ms, max ${fmt(during.at(-1) ?? 0, 1)} ms (${during.length} answered from the old index)`,
    );
    console.log(
      `    a new server on this database: listening after ${fmt(startup.listen / 1000, 2)} s; during its index build ` +
        `branding answered ${startup.other.length} times, p50 ${fmt(percentile(startup.other, 0.5), 1)} ms, ` +
        `p99 ${fmt(percentile(startup.other, 0.99), 1)} ms, max ${fmt(startup.other.at(-1) ?? 0, 1)} ms; ` +
        `first suggestions answer ${fmt(startup.firstSearch / 1000, 2)} s after listening`,
    );
    const target = size === 10_000 ? ' (target p99 ≤ 10 ms)' : '';
    console.log(
      `    HTTP suggestions, autocannon 10 connections, ${uncached.total} different queries, each asked once: ` +
        `p50 ${uncached.p50} ms, p99 ${uncached.p99} ms${target}, ${fmt(uncached.rps, 0)} req/s, ` +
        `${uncached.non2xx} non-2xx, ${uncached.errors} errors, ${uncached.timeouts} timeouts`,
    );
    console.log(
      `    HTTP suggestions, the ${queries.length} queries cycled for ${DURATION} s (answered from memory after the first round): ` +
        `p50 ${load.p50} ms, p99 ${load.p99} ms, ${fmt(load.rps, 0)} req/s, ${load.total} requests, ` +
        `${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts`,
    );
    const worstBad = Math.max(...bad.map((b) => b.ms));
    console.log(
      `    bad input (slowest of 5 each, over HTTP): ${bad.map((b) => `${b.name} ${b.status} ${fmt(b.ms, 1)} ms`).join('; ')}; ` +
        `event loop delay meanwhile max ${fmt(loopDelay.max / 1e6, 1)} ms`,
    );
    console.log('');
    console.log(
      table([
        ['engine (direct calls)', 'p50 ms', 'p99 ms', 'recall@10', ...KINDS],
        ...engines.map((e) => [
          e.name,
          fmt(e.p50, 2),
          fmt(e.p99, 2),
          pct(e.recall.all),
          ...KINDS.map((k) => pct(e.recall[k])),
        ]),
      ]),
    );
    const ours = engines[0] as EngineResult;
    const others = engines.slice(1);
    const verdicts = [
      size === 10_000
        ? `HTTP p99 of different queries ${uncached.p99} ms ≤ 10 ms: ${uncached.p99 <= 10 ? 'MET' : 'NOT MET'}`
        : null,
      `bad input under 50 ms, never 500: ${worstBad < 50 && bad.every((b) => b.status === 200 || b.status === 400) ? 'MET' : 'NOT MET'}`,
      ...(['typo', 'inflection'] as const).map(
        (k) =>
          `recall on ${k} above both SQL engines: ` +
          (others.every((o) => ours.recall[k] > o.recall[k]) ? 'MET' : 'NOT MET'),
      ),
    ].filter(Boolean);
    console.log(`\n    targets: ${verdicts.join('; ')}`);
    return { size, load, ours };
  } finally {
    fts.close();
    try {
      await pgClient.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } catch {
      // never connected
    }
    await pgClient.end().catch(() => undefined);
    await server.close();
  }
}

const sizes = (process.env.BENCH_SIZES ?? '10000,100000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
console.log(
  `Search benchmark: sizes ${sizes.join(', ')}; languages ${SPECS.map((s) => s.lang).join(', ')}; ` +
    `${os.cpus().length} CPUs, Node ${process.version}`,
);
const started = performance.now();
for (const size of sizes) await benchSize(size);
console.log(`\nTotal ${fmt((performance.now() - started) / 1000)} s`);
