/**
 * Search benchmark: generates deterministic corpora of 10,000 and 100,000 articles mixing en, ru, pt-BR, it and sk
 * (pseudo-words built from each language's letters, inflected with its real endings, so stemmers have work to do),
 * and a set of about 200 queries per corpus with a known target article, derived from the target's title: exact
 * words, inflected forms, one typo, and the last word cut short (as typed).
 *
 * For each size it prints: index build time (loadSearchDocuments + SearchIndex.build) and heap used by the index;
 * p50/p99 latency and requests per second of GET /api/search/knowledge/suggestions over HTTP under load (autocannon
 * in a separate process, 10 connections): 20,000 different queries sent once each, so every answer is searched
 * (handed out from one list to whichever connection asks next: each connection given the whole list would ask the
 * same first tenth, nine times in ten answered from memory), then the query set cycled for 10 s, as repeated
 * queries are answered from memory; the time of each kind of bad input (one letter, 10,000 letters, punctuation,
 * emoji, mixed scripts...) with the event loop's longest stall meanwhile; then latency (direct calls, p50/p99)
 * and recall@10 over the query set for our index, PostgreSQL full-text search (tsvector per language, GIN index,
 * to_tsquery with the last word as a prefix) and SQLite FTS5 (unicode61 remove_diacritics 2, last term prefix),
 * overall and per kind of query.
 *
 * The parts of search, each against words only measured in the same run (ratios): (a) words only (no synonyms,
 * nothing learned; joins and splits are always on, so a further row empties the index's vocabulary, where they
 * cannot apply: direct calls only), (b) + the default synonym sets (DEFAULT_SYNONYMS compiled), (c) + learning,
 * (d) both. The learned table is generated as visitors would leave it: 5,000 query keys (learningKey, as the
 * service makes them: those of the benchmark's queries, then of the different ones, about a quarter of which get
 * something learned), each with 1-3 of the articles the words-only index shows among its first 30, factors 1.44 to
 * 2.3 from votes spread over four weeks. The generated titles hold no synonym, so each set of queries is also
 * measured with a word of a default set put first ('settings', 'настройки', 'configurações'...), where synonyms
 * are looked up and expanded. Printed per part:
 * - direct calls to the index (as the service makes them, learningKey included), parts taking turns query by query:
 *   p50/p99 of the benchmark's queries (3 rounds) and of 1 in 20 of the different queries, with and without the
 *   synonym word, in wall time and in the process's CPU time (which other processes on the machine do not lengthen);
 * - over HTTP under load as above (to the microsecond): the server's synonym sets and votes set as the admin calls
 *   and visitors would (votes in search_votes, loaded by the service), the revision moved (in the scope of a reset
 *   of all learning when the votes were replaced, else of the synonyms only), then the first answer (which waits
 *   up to 50 ms for what changed to be read again) and the time until an answer is fresh (all votes read, a page
 *   at a time, in the background), whether the server's answers to the benchmark's queries are the direct calls' (same
 *   top 10), and 3,000 different queries (1,000 with a synonym word) each asked once, three times per part in three
 *   orders with no part twice in a row (a b c d, c a d b, d b a c), medians, with the server's CPU time per request
 *   (the server runs in this process), which other processes on the machine do not lengthen;
 * - latency that is service time rather than queueing (with N always-busy connections on one process, latency is
 *   mostly N / throughput): one connection over HTTP (the next different queries, each answered before the next is
 *   sent), and an open loop (different queries each sent once at a fixed rate, whether or not earlier ones are
 *   answered, each answer timed from when it was due, after a second at that rate not timed, which warms the
 *   load process): at 50% and 80% of the part's closed-loop capacity in the same
 *   run, and at 100 req/s; the rate achieved and the most requests in flight at once. The three runs of a part ask the
 *   same queries, so words typed with a typo are looked up afresh only in its first run (the index remembers its typo
 *   lookups); the 20,000 different queries above are each the index's first sight of them;
 * - recall@10 of each part on the benchmark's queries (with and without the synonym word), and how many of their
 *   top 10 the part changes, so synonyms and learning are seen not to cost recall;
 * - the same HTTP measures (ten connections, one, the open loop) on a server in its own process, as one is deployed:
 *   restarted from its snapshot on this database, the shipped synonyms, nothing learned, its CPU time per request
 *   read from /proc (the parts' server shares this process's heap with the corpus and the direct-call index).
 *
 * It also re-titles 1% of the articles (as a re-import would) and times until they are found, then 50% (rebuilt in
 * the background) with the latency of the searches answered meanwhile, and starts a second server on the same
 * database to show that its other calls answer while it builds its index.
 *
 * Targets: HTTP p99 ≤ 10 ms at 10,000 articles for different queries, also with the default synonyms and learning
 * on (part d), judged both under the closed loop's queueing and without it (one connection, the open loop); recall@10
 * above both SQL engines on typo and inflection queries, and no lower with synonyms and
 * learning than words only; bad input answered 200 or 400 in under 50 ms.
 *
 *   npm run bench:search
 *   BENCH_SIZES=10000 npm run bench:search          (sizes to run, comma separated)
 *   BENCH_LANGUAGE_ARTICLES=10000 (then one language against five: that many articles in English, and the same
 *     each also in ru, pt-BR, it and sk; index documents, build time and heap, first search after listening and
 *     after a restart from the snapshot, suggestions, article renders; 0 skips)
 *   BENCH_DATABASE_URL=postgres://... (default postgres://postgres@127.0.0.1:5432/test; a fresh schema is dropped after)
 *   BENCH_DURATION=10 (seconds of HTTP load per size)
 *   BENCH_LEARNED_KEYS=5000, BENCH_PART_ROUNDS=3, BENCH_PART_HTTP_QUERIES=3000, BENCH_PART_HTTP_SYNONYM_QUERIES=1000
 *   BENCH_PART_HTTP_SINGLE_QUERIES=1000, BENCH_OPEN_LOOP_RATE=100, BENCH_OPEN_LOOP_SECONDS=4
 *   BENCH_UNIQUE_QUERIES=20000 (different queries made; the closed, one-connection and open-loop runs take theirs in turn)
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startServer, type RunningServer } from '../e2e/support/server.ts';
import { compareLanguages } from './support/languages.ts';
import {
  generateCorpus,
  KINDS,
  prng,
  SPECS,
  uniqueQueries,
  type Article,
  type Kind,
  type LanguageSpec,
  type Query,
} from './support/synthetic-corpus.ts';
import { startServe } from '../src/server/testing/run-cli.ts';
import { SEARCH_SNAPSHOT_FILE } from '../src/server/context-factory.ts';
import type { Language } from '../src/shared/constants.ts';
import { dayOf } from '../src/server/privacy/daily-key.ts';
import { learnedScopes, touchContent } from '../src/server/revisions/revision.repository.ts';
import {
  factorOf,
  learningKey,
  loadLearned,
  loadLearnedKey,
  weigh,
  type Learned,
  type Tally,
} from '../src/server/search/learning.ts';
import { SearchIndex } from '../src/server/search/search-index.ts';
import { indexFingerprint, readSnapshot, writeSnapshot } from '../src/server/search/search-snapshot.ts';
import { loadSearchDocuments } from '../src/server/search/search.service.ts';
import {
  compileSynonyms,
  DEFAULT_SYNONYMS,
  findSynonyms,
  writeSynonyms,
  type SynonymTable,
} from '../src/server/search/synonyms.ts';
import { getBranding } from '../src/server/settings/branding.ts';

const SUGGESTIONS_PATH = '/api/search/knowledge/suggestions';

// ---------------------------------------------------------------------------------------------------------------
// Load mode: the same file, started as a child process, runs autocannon so the load does not share our event loop.
// ---------------------------------------------------------------------------------------------------------------
if (process.env.BENCH_SEARCH_LOAD) {
  const job = JSON.parse(fs.readFileSync(process.env.BENCH_SEARCH_LOAD, 'utf8')) as LoadJob;
  process.stdout.write(JSON.stringify(job.rate ? await openLoop(job) : await closedLoop(job)));
  process.exit(0);
}

interface LoadJob {
  url: string;
  paths: string[];
  duration: number;
  /** Each path once, in order (no answer can come from a cache), instead of cycling for `duration`. */
  once?: boolean;
  /** Closed loop: connections each sending its next request when the last is answered (10 unless given). */
  connections?: number;
  /** Open loop: requests sent at this many a second, whether or not earlier ones are answered; each path once. */
  rate?: number;
  /**
   * Open loop: sent first at the same rate for a second and not timed, so the load process's own code is compiled and
   * its sockets open before the timed requests (a cold client took 15 to 40 ms over its first few requests).
   */
  warmup?: string[];
}

interface LoadResult {
  p50: number;
  p99: number;
  /** Paths handed out, once mode: each once when it is the number of paths. */
  handed: number;
  /** The same to the microsecond, from each answer's time. */
  p50Exact: number;
  p99Exact: number;
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Open loop: the most requests waiting for their answer at once. */
  maxInFlight?: number;
}

/** Closed loop (autocannon): latency under N always-busy connections is mostly waiting, N / throughput. */
async function closedLoop(job: LoadJob): Promise<LoadResult> {
  const { default: autocannon } = await import('autocannon');
  // autocannon's percentiles are whole milliseconds; each 2xx answer's own time is kept too, to the microsecond.
  const times: number[] = [];
  // Each connection goes through the requests it is given on its own: given the whole list, the ten would all ask
  // the same first tenth of it (one search, nine answers from memory). Sent once each, the paths are handed out
  // from one list to whichever connection asks next.
  let handed = 0;
  const requests = job.once
    ? [
        {
          method: 'GET' as const,
          setupRequest: <R>(request: R) => ({
            ...request,
            path: job.paths[handed++ % job.paths.length] as string,
          }),
        },
      ]
    : job.paths.map((p) => ({ method: 'GET' as const, path: p }));
  const result = await new Promise<Awaited<ReturnType<typeof autocannon>>>((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections ?? 10,
        ...(job.once ? { amount: job.paths.length } : { duration: job.duration }),
        requests,
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, status: number, _bytes, ms: number) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
  times.sort((a, b) => a - b);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    handed,
    p50Exact: percentile(times, 0.5),
    p99Exact: percentile(times, 0.99),
    // Requests over the seconds they took (autocannon's average counts whole seconds only).
    rps: Math.round(result.requests.total / result.duration),
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Open loop: each path once, the n-th sent at n / rate seconds whatever happened to the others (as visitors arrive),
 * over as many keep-alive sockets as that needs. Each answer's time is counted from when it was due to be sent, so
 * a sender that fell behind, or a server that did, shows in the latency rather than in a lower offered rate.
 */
async function openLoop(job: LoadJob): Promise<LoadResult> {
  const rate = job.rate as number;
  const { hostname, port } = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const times: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let sent = 0;
  let finished = 0;
  let lastAnswer = 0;
  const warm = job.warmup ?? [];
  for (let n = 0, begun = performance.now(); n < Math.min(warm.length, Math.ceil(rate)); n++) {
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, begun + (n * 1000) / rate - performance.now())),
    );
    http.get({ hostname, port, path: warm[n], agent }, (response) => response.resume());
  }
  const started = performance.now();
  const dueAt = (n: number) => started + (n * 1000) / rate;
  await new Promise<void>((resolve) => {
    const settle = () => {
      inFlight--;
      lastAnswer = performance.now();
      if (++finished === job.paths.length) resolve();
    };
    const send = () => {
      while (sent < job.paths.length && dueAt(sent) <= performance.now()) {
        const due = dueAt(sent);
        const request = http.get(
          { hostname, port, path: job.paths[sent++], agent, headers: { connection: 'keep-alive' } },
          (response) => {
            response.resume();
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              if (status >= 200 && status < 300) times.push(performance.now() - due);
              else non2xx++;
              settle();
            });
          },
        );
        request.on('error', () => {
          errors++;
          settle();
        });
        maxInFlight = Math.max(maxInFlight, ++inFlight);
      }
      if (sent < job.paths.length) setTimeout(send, Math.max(0, dueAt(sent) - performance.now()));
    };
    send();
  });
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    p50: Math.round(percentile(times, 0.5)),
    p99: Math.round(percentile(times, 0.99)),
    handed: sent,
    p50Exact: percentile(times, 0.5),
    p99Exact: percentile(times, 0.99),
    rps: Math.round((finished * 1000) / (lastAnswer - started)),
    total: finished,
    non2xx,
    errors,
    timeouts: 0,
    maxInFlight,
  };
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

/**
 * Memory in use after collecting: the heap, and the typed arrays' contents the index's postings keep outside it (with
 * a turn for those freed to be swept, which a collection alone does not wait for).
 */
async function memoryInUse(): Promise<number> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 50));
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

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

/** Runs a load in a child process, so the load does not share the server's event loop (it runs in this one). */
async function runLoad(
  url: string,
  paths: string[],
  duration: number,
  options: Pick<LoadJob, 'once' | 'connections' | 'rate' | 'warmup'> = {},
): Promise<LoadResult> {
  const jobFile = path.join(os.tmpdir(), `signpost-bench-search-${process.pid}.json`);
  const job: LoadJob = { url, paths, duration, ...options };
  fs.writeFileSync(jobFile, JSON.stringify(job));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
      env: { ...process.env, BENCH_SEARCH_LOAD: jobFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`load process exited with ${code}`);
    const result = JSON.parse(output) as LoadResult;
    if ((options.once || options.rate) && result.handed !== paths.length)
      throw new Error(`${result.handed} of ${paths.length} paths were sent`);
    return result;
  } finally {
    fs.rmSync(jobFile, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The parts of search: words, synonyms, learning
// ---------------------------------------------------------------------------------------------------------------

/** Query keys in the generated learned table (the benchmark's queries' keys first, then the different queries'). */
const LEARNED_KEYS = Number(process.env.BENCH_LEARNED_KEYS ?? 5_000);
/** Timed rounds of the benchmark's queries per part (after one to warm up); all rounds count for p50/p99. */
const PART_ROUNDS = Number(process.env.BENCH_PART_ROUNDS ?? 3);
/** The different queries also timed by direct calls per part: every n-th of those sent over HTTP. */
const PART_DIFFERENT_EVERY = 20;
/** Different queries with a synonym set's word: made, and timed by direct calls (every n-th). */
const SYNONYM_QUERIES = 5_000;
/** Per part and run over HTTP: the first of the different queries, and of those with a synonym word. */
const PART_HTTP_QUERIES = Number(process.env.BENCH_PART_HTTP_QUERIES ?? 3_000);
const PART_HTTP_SYNONYM_QUERIES = Number(process.env.BENCH_PART_HTTP_SYNONYM_QUERIES ?? 1_000);
/** Per part and run over HTTP, one connection (each answered before the next is sent): the next different queries. */
const PART_HTTP_SINGLE_QUERIES = Number(process.env.BENCH_PART_HTTP_SINGLE_QUERIES ?? 1_000);
/** Open loop per part and run: these shares of the part's closed-loop capacity in that run, then a fixed rate. */
const OPEN_LOOP_SHARES = [0.5, 0.8];
const OPEN_LOOP_RATE = Number(process.env.BENCH_OPEN_LOOP_RATE ?? 100);
/** Seconds each open-loop rate is offered for (different queries, each sent once). */
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 4);

interface Vote {
  query_key: string;
  day: string;
  voter: string;
  article_id: number;
}

/**
 * Votes as visitors leave them, and what the service loads from them: up to `count` query keys (made with the
 * service's learningKey, in the help centre's language), taken from the given texts in order. Each key gets 1-3 of
 * the articles the words-only index shows for it among its first 30, clicks leaning to the top and chosen without
 * knowing any query's target (so learning can push a target out of the first 10, as a misled crowd would). Each
 * article gets votes from distinct visitors spread over the last four weeks until their weight (halved every two
 * weeks, as learning.ts weighs them) reaches between 2.5 and 40: factors between about 1.44 (the least learning
 * gives) and 2.3 (2.5 is its bound, never reached). The table is made with learning.ts's own weigh and factorOf,
 * as loadLearned makes it from the rows.
 */
function generateLearning(
  index: SearchIndex,
  texts: string[],
  count: number,
  lang: Language,
  now: number,
): { votes: Vote[]; learned: Learned } {
  const rng = prng(99 + texts.length);
  const votes: Vote[] = [];
  const tallied = new Map<string, Tally>();
  const keys = new Set<string>();
  for (const text of texts) {
    if (keys.size >= count) break;
    const key = learningKey(text, lang);
    if (!key || keys.has(key)) continue;
    const shown = index.search(text, 30).map((hit) => hit.id);
    if (shown.length === 0) continue;
    keys.add(key);
    const chosen = new Set<number>();
    const wanted = Math.min(shown.length, rng.int(1, 3));
    while (chosen.size < wanted) chosen.add(shown[Math.floor(rng.next() ** 2 * shown.length)] as number);
    for (const id of chosen) {
      const target = 2.5 * 16 ** rng.next();
      for (let weight = 0; weight < target;) {
        const age = rng.int(0, 27);
        weight += 0.5 ** (age / 14);
        const vote = {
          query_key: key,
          day: dayOf(now - age * 86_400_000),
          voter: votes.length.toString(16).padStart(64, '0'),
          article_id: id,
        };
        votes.push(vote);
        const at = `${key}\u0000${id}\u0000${vote.day}`;
        const tally = tallied.get(at) ?? { query_key: key, article_id: id, day: vote.day, votes: 0 };
        tally.votes = Number(tally.votes) + 1;
        tallied.set(at, tally);
      }
    }
  }
  const learned: Learned = new Map();
  for (const [key, articles] of weigh([...tallied.values()], now)) {
    const factors = new Map<number, number>();
    for (const [id, weight] of articles) if (factorOf(weight) > 1) factors.set(id, factorOf(weight));
    if (factors.size) learned.set(key, factors);
  }
  return { votes, learned };
}

/** One way of searching: which parts are on. */
interface Part {
  name: string;
  synonyms: SynonymTable;
  learned: Learned;
  /** Joins and splits cannot apply: searched with the index's vocabulary emptied (direct calls only). */
  noJoins?: boolean;
}

/**
 * Direct calls to one index for each part, as the service makes them (learningKey in the help centre's language on
 * every query, the learned factors as `boost`, the synonym table always passed), `rounds` times after one round to
 * warm up. The parts take turns query by query, starting with a different one each time, so warming, garbage
 * collection and the caches fall on all alike. Per part: the times and the process's CPU time (what other processes on
 * the machine do not lengthen), sorted, and each query's first 10 (first round).
 */
function timeParts(index: SearchIndex, parts: Part[], texts: string[], rounds: number, lang: Language) {
  // The vocabulary is private: emptied for the part that must not join or split, and put back at once.
  const internals = index as unknown as { vocabulary: Set<string> };
  const vocabulary = internals.vocabulary;
  const empty = new Set<string>();
  const ask = (part: Part, text: string) => {
    internals.vocabulary = part.noJoins ? empty : vocabulary;
    try {
      const chosen = part.learned.get(learningKey(text, lang));
      return index.search(text, 10, 'everyone', {
        synonyms: part.synonyms,
        boost: chosen,
      });
    } finally {
      internals.vocabulary = vocabulary;
    }
  };
  const times = parts.map(() => [] as number[]);
  const cpu = parts.map(() => [] as number[]);
  const answers = parts.map(() => [] as number[][]);
  for (let round = -1; round < rounds; round++) {
    texts.forEach((text, q) => {
      for (let turn = 0; turn < parts.length; turn++) {
        const p = (q + round + 1 + turn) % parts.length;
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        const hits = ask(parts[p] as Part, text);
        const ms = performance.now() - started;
        const used = process.cpuUsage(cpuStarted);
        if (round < 0) continue;
        (times[p] as number[]).push(ms);
        (cpu[p] as number[]).push((used.user + used.system) / 1000);
        if (round === 0) (answers[p] as number[][])[q] = hits.map((h) => h.id);
      }
    });
    collect();
  }
  for (const t of [...times, ...cpu]) t.sort((a, b) => a - b);
  return { times, cpu, answers };
}

/** Recall@10 of answers to the benchmark's queries, overall and per kind. */
function recallOf(queries: Query[], answers: number[][]): Record<Kind | 'all', number> {
  const found = new Map<Kind | 'all', [number, number]>();
  queries.forEach((query, q) => {
    const hit = (answers[q] ?? []).slice(0, 10).includes(query.target) ? 1 : 0;
    for (const key of ['all', query.kind] as const) {
      const [hits, total] = found.get(key) ?? [0, 0];
      found.set(key, [hits + hit, total + 1]);
    }
  });
  return Object.fromEntries([...found].map(([key, [hits, total]]) => [key, hits / total])) as Record<
    Kind | 'all',
    number
  >;
}

/** The common words of a language that a synonym set holds ('settings', 'настройки', 'configurações'...). */
const synonymWords = (spec: LanguageSpec, table: SynonymTable) =>
  spec.common.filter((word) => findSynonyms(table, [word]).length > 0);

/**
 * Different queries as uniqueQueries makes them, each beginning with a word of its language that a synonym set holds,
 * so the synonyms are looked for and expanded (the generated titles hold no word of any set).
 */
function synonymQueries(articles: Article[], count: number, table: SynonymTable): string[] {
  const rng = prng(11 + articles.length);
  const extra = new Map(SPECS.map((spec) => [spec, synonymWords(spec, table)]));
  const seen = new Set<string>();
  for (let tries = 0; seen.size < count && tries < count * 20; tries++) {
    const article = articles[rng.int(0, articles.length - 1)] as Article;
    const words = extra.get(article.spec) ?? [];
    if (words.length === 0) continue;
    const title = article.words.map(([l, f]) => l.forms[f] as string);
    const start = rng.int(0, Math.max(0, title.length - 1));
    const chosen = title.slice(start, start + rng.int(1, 2));
    const last = [...(chosen[chosen.length - 1] as string)];
    if (rng.next() < 0.6 && last.length > 3)
      chosen[chosen.length - 1] = last.slice(0, rng.int(3, last.length)).join('');
    seen.add([rng.pick(words), ...chosen].join(' '));
  }
  return [...seen];
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const pct = (n: number | undefined) => (n === undefined ? '-' : `${(n * 100).toFixed(1)}%`);

/**
 * Starts `signpost serve` on an existing SQLite data folder and, from the moment it listens, asks for the branding
 * again and again while one search waits for the index: the latencies of those other calls while it is built.
 * `waitForSnapshot`: the server is stopped only once it has written its snapshot of the index.
 */
async function startAndSearch(dataDir: string, query: string, waitForSnapshot = false) {
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
    const written = 'search snapshot written';
    for (let i = 0; waitForSnapshot && i < 3000 && !logLine(server.output(), written); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return {
      listen: listening - started,
      firstSearch: searched - listening,
      other,
      written: logLine(server.output(), written),
      loaded: logLine(server.output(), 'search index loaded from its snapshot'),
    };
  } finally {
    await server.stop();
  }
}

/** The open loop's rates for a capacity: OPEN_LOOP_SHARES of it, then OPEN_LOOP_RATE. */
const openLoopRates = (capacity: number) => [
  ...OPEN_LOOP_SHARES.map((share) => share * capacity),
  OPEN_LOOP_RATE,
];
/** A second of `paths` (in turn) at `rate`, sent untimed before an open loop so the load process is warm. */
const warmupAt = (rate: number, paths: string[]) =>
  Array.from({ length: Math.ceil(rate) }, (_, i) => paths[i % paths.length] as string);

/** CPU time a process has used so far, in ms: user and system, all its threads (Linux, 100 ticks a second). */
function cpuOfProcess(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Different queries to a server in its own process, as one is deployed: restarted from its snapshot on this
 * database, with the shipped synonyms and nothing learned. The parts above are measured on the server in this
 * process, whose heap also holds the benchmark's corpus, the index built for direct calls and the parts' tables, so
 * its collector has those to walk and move as well. The same measures as a part's, its capacity its own.
 */
async function servedApart(dataDir: string, different: string[], warm: string[]) {
  const server = await startServe({ DATA_DIR: dataDir, DEMO_CONTENT: 'false' });
  try {
    for (let tries = 0; ; tries++) {
      const response = await fetch(`${server.url}${warm[0] ?? '/'}`);
      await response.arrayBuffer();
      if (response.ok) break;
      if (tries > 600) throw new Error(`the server apart answered ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Its code compiled and its caches of the benchmark's own queries made, as a server's that has run a while.
    await runLoad(server.url, warm, DURATION, { once: true });
    let next = 0;
    const take = (count: number) => {
      if (next + count > different.length)
        throw new Error('too few different queries for the server apart: raise BENCH_UNIQUE_QUERIES');
      next += count;
      return different.slice(next - count, next);
    };
    const cpuBefore = cpuOfProcess(server.pid);
    const closed = await runLoad(server.url, take(PART_HTTP_QUERIES), DURATION, { once: true });
    const cpuPerRequest = (cpuOfProcess(server.pid) - cpuBefore) / closed.total;
    const single = await runLoad(server.url, take(PART_HTTP_SINGLE_QUERIES), DURATION, {
      once: true,
      connections: 1,
    });
    const open: LoadResult[] = [];
    for (const rate of openLoopRates(closed.rps)) {
      open.push(
        await runLoad(server.url, take(Math.round(rate * OPEN_LOOP_SECONDS)), DURATION, {
          rate,
          warmup: warmupAt(rate, warm),
        }),
      );
    }
    return { closed, cpuPerRequest, single, open };
  } finally {
    await server.stop();
  }
}

/**
 * The index written to a snapshot and restored from it in this process: the heap the restored copy takes (its maps
 * are made at their final size, unlike a build's), and whether it answers every query as the built one.
 */
async function restoredHeap(built: SearchIndex, queries: Query[]) {
  const file = path.join(os.tmpdir(), `bench-search-${process.pid}.snapshot`);
  try {
    const header = {
      fingerprint: indexFingerprint(),
      revision: 0,
      versions: new Map<number, string>(),
      documents: built.size,
      writtenAt: Date.now(),
    };
    await writeSnapshot(file, header, built.pieces(), () => true);
    const heapBefore = await memoryInUse();
    const started = performance.now();
    // The file read is let go before the memory is measured.
    const restored = await (async () => {
      const found = await readSnapshot(file, indexFingerprint());
      if (!found?.usable) throw new Error('the snapshot just written is not usable');
      return SearchIndex.restore(found.pieces);
    })();
    const ms = performance.now() - started;
    const heap = (await memoryInUse()) - heapBefore;
    const same = queries.every(
      (q) => JSON.stringify(restored.search(q.text, 10)) === JSON.stringify(built.search(q.text, 10)),
    );
    return { heap, ms, same };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The fields of the server's first JSON log line with this message, if any. */
function logLine(output: string, message: string): Record<string, number> | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes(message)) continue;
    const fields = JSON.parse(line) as Record<string, number> & { msg?: string };
    if (fields.msg === message) return fields;
  }
  return undefined;
}

/**
 * A new server's first search on this data folder twice: without a snapshot of the index (built after it listens,
 * then written), and restarted with the snapshot it wrote.
 */
async function measureStartup(dataDir: string, query: string) {
  fs.rmSync(path.join(dataDir, SEARCH_SNAPSHOT_FILE), { force: true });
  const built = await startAndSearch(dataDir, query, true);
  const restored = await startAndSearch(dataDir, query);
  return { ...built, restored };
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

type BenchDb = RunningServer['ctx']['db'];

/** A suggestions request's path, as the site asks for them. */
const suggestionsPath = (text: string) =>
  `${SUGGESTIONS_PATH}?text=${encodeURIComponent(text)}&limit=10&perPage=10`;

/**
 * As in production the server reads the content's revision at most every 250 ms (tests read it on every request),
 * and at once after a write through it, which the changes made here stand for.
 */
async function changedHere(server: RunningServer) {
  await touchContent(server.ctx.db);
  server.ctx.revisions.invalidate();
}

/** The ids of the server's suggestions for a text. */
async function askServer(url: string, text: string) {
  const response = await fetch(`${url}${suggestionsPath(text)}`);
  if (!response.ok) throw new Error(`suggestions answered ${response.status}`);
  return ((await response.json()) as { items: { id: number }[] }).items.map((item) => item.id);
}

/** The corpus and its queries for one size, and a line saying what was made. */
function generateAndDescribe(size: number) {
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
  return { articles, queries };
}

/** The help centre's database: one section per language, ten categories in each, and the articles. */
async function insertCorpus(db: BenchDb, articles: Article[]) {
  const loadStarted = performance.now();
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
}

/**
 * Our index, built here apart from the server's, for build time, memory and direct calls: the queries, the parts of
 * search and a snapshot's copy; then let go before the server builds its own (two at 100,000 would crowd the heap).
 */
async function measureOurIndex(db: BenchDb, articles: Article[], queries: Query[]) {
  const heapBefore = await memoryInUse();
  const buildStarted = performance.now();
  const documents = await loadSearchDocuments(db);
  const loaded = performance.now();
  let index: SearchIndex | null = await SearchIndex.build(documents);
  const built = performance.now();
  const heapDelta = (await memoryInUse()) - heapBefore;
  const oursDirect = await measureEngine('signpost (MiniSearch)', queries, (q) =>
    (index as SearchIndex).search(q.text, 10).map((h) => h.id),
  );
  const direct = await measureDirectParts(index, db, articles, queries);
  const snapshot = await restoredHeap(index, queries);
  index = null;
  documents.length = 0;
  collect();
  const build = { total: built - buildStarted, load: loaded - buildStarted, index: built - loaded };
  return { build, heapDelta, oursDirect, direct, snapshot };
}

/** The parts of search compared: words only (without joins and splits, and with them), synonyms, learning, both. */
function partsOf(noSynonyms: SynonymTable, defaultSynonyms: SynonymTable, learned: Learned): Part[] {
  const nothingLearned: Learned = new Map();
  return [
    { name: 'words only, joins/splits off', synonyms: noSynonyms, learned: nothingLearned, noJoins: true },
    { name: '(a) words only', synonyms: noSynonyms, learned: nothingLearned },
    { name: '(b) + default synonyms', synonyms: defaultSynonyms, learned: nothingLearned },
    { name: '(c) + learning', synonyms: noSynonyms, learned },
    { name: '(d) synonyms + learning', synonyms: defaultSynonyms, learned },
  ];
}

/**
 * The parts of search on this index, direct calls: words only (without joins and splits, and with them), with the
 * default synonyms, with learning, with both. The learned table is made from what this index shows.
 */
async function measureDirectParts(index: SearchIndex, db: BenchDb, articles: Article[], queries: Query[]) {
  const different = uniqueQueries(articles, UNIQUE_QUERIES);
  const { lang: siteLang } = await getBranding(db);
  const noSynonyms = compileSynonyms({});
  const defaultSynonyms = compileSynonyms(DEFAULT_SYNONYMS);
  let partsStarted = performance.now();
  // Keys from the benchmark's queries, then from the different ones, spread evenly over their order.
  const spread = different
    .map((text, i) => ({ text, i }))
    .sort((a, b) => (a.i % 4) - (b.i % 4) || a.i - b.i)
    .map(({ text }) => text);
  const learnedAt = Date.now();
  const { votes, learned } = generateLearning(
    index,
    [...queries.map((q) => q.text), ...spread],
    LEARNED_KEYS,
    siteLang,
    learnedAt,
  );
  const learningMade = performance.now() - partsStarted;
  const parts = partsOf(noSynonyms, defaultSynonyms, learned);
  const specOf = new Map(SPECS.map((spec) => [spec.lang, spec]));
  // The benchmark's queries with a word of a synonym set put first (their targets unchanged).
  const synonymBench = queries.map((q) => {
    const words = synonymWords(specOf.get(q.lang) as LanguageSpec, defaultSynonyms);
    return { ...q, text: words.length ? `${words[q.target % words.length]} ${q.text}` : q.text };
  });
  const differentSample = different.filter((_, i) => i % PART_DIFFERENT_EVERY === 0);
  const synonymDifferent = synonymQueries(articles, SYNONYM_QUERIES, defaultSynonyms);
  const synonymSample = synonymDifferent.filter((_, i) => i % PART_DIFFERENT_EVERY === 0);
  partsStarted = performance.now();
  const partsBench = timeParts(
    index,
    parts,
    queries.map((q) => q.text),
    PART_ROUNDS,
    siteLang,
  );
  const partsSynonymBench = timeParts(
    index,
    parts,
    synonymBench.map((q) => q.text),
    PART_ROUNDS,
    siteLang,
  );
  const partsDifferent = timeParts(index, parts, differentSample, 1, siteLang);
  const partsSynonymDifferent = timeParts(index, parts, synonymSample, 1, siteLang);
  const partsTimed = performance.now() - partsStarted;
  return {
    different,
    siteLang,
    defaultSynonyms,
    votes,
    learned,
    learningMade,
    parts,
    synonymBench,
    differentSample,
    synonymDifferent,
    partsBench,
    partsSynonymBench,
    partsDifferent,
    partsSynonymDifferent,
    partsTimed,
  };
}
type DirectParts = Awaited<ReturnType<typeof measureDirectParts>>;

/** The server's index follows the content: the revision bumped, then the time of its first answer. */
async function timeFirstAnswer(server: RunningServer, queries: Query[]) {
  await changedHere(server);
  const firstStarted = performance.now();
  const first = await fetch(`${server.url}${suggestionsPath(queries[0]?.text ?? 'x')}`);
  if (!first.ok) throw new Error(`suggestions answered ${first.status}`);
  return performance.now() - firstStarted;
}

type Run = LoadResult & { cpuPerRequest: number };
interface PartRuns {
  runs: Run[];
  firstAnswer: number[];
  /** Until an answer is fresh: the synonyms and votes read again, in place. */
  inPlace: number[];
  same: number;
  synonymRuns: Run[];
  single: Run[];
  /** Open loop, by offered rate: OPEN_LOOP_SHARES of the part's closed-loop capacity, then OPEN_LOOP_RATE. */
  open: Run[][];
}

/** The server's reading of every vote (as when the day turns), and of one query key's (as after its tell). */
interface LearnedLoad {
  keys: number;
  ms: number;
  /** The event loop's longest stall meanwhile: what a request waits at worst. */
  stall: number;
  keyMs: number;
}

/**
 * Sets the server's synonym sets (none, or the defaults) and votes (none, or the generated ones) for a part and moves
 * the revision, as the admin calls do: in the scope of the synonyms only, unless the votes were replaced (as a reset
 * of all would), when every vote is read again.
 */
function partSetter(server: RunningServer, direct: DirectParts) {
  const db = server.ctx.db;
  let learningOn = false;
  return async (part: Part) => {
    const wantLearning = part.learned.size > 0;
    let scopes: Parameters<typeof touchContent>[1] = ['search'];
    if (wantLearning !== learningOn) {
      scopes = learnedScopes();
      await db.deleteFrom('search_votes').execute();
      if (wantLearning) {
        for (let i = 0; i < direct.votes.length; i += 500)
          await db
            .insertInto('search_votes')
            .values(direct.votes.slice(i, i + 500))
            .execute();
      }
      learningOn = wantLearning;
    }
    await writeSynonyms(db, part.synonyms === direct.defaultSynonyms ? DEFAULT_SYNONYMS : {});
    await touchContent(db, scopes);
    server.ctx.revisions.invalidate();
  };
}

/** A load run with the server's CPU time per request (the server runs in this process). */
async function measuredLoad(
  url: string,
  paths: string[],
  options: Parameters<typeof runLoad>[3] = { once: true },
): Promise<Run> {
  const cpuStarted = process.cpuUsage();
  const result = await runLoad(url, paths, DURATION, options);
  const used = process.cpuUsage(cpuStarted);
  return { ...result, cpuPerRequest: (used.user + used.system) / 1000 / result.total };
}

/**
 * The first answer after a part change (it reads the synonyms and votes again), and the time until an answer is
 * fresh: answers come from what there is while all the votes are read again in the background (marked not to be
 * kept).
 */
async function timePartChange(url: string, queries: Query[], turn: number, entry: PartRuns) {
  const asked = performance.now();
  await askServer(url, `${queries[0]?.text ?? 'x'} ${turn}`);
  entry.firstAnswer.push(performance.now() - asked);
  for (let tries = 0; ; tries++) {
    const response = await fetch(`${url}${suggestionsPath(`${queries[0]?.text ?? 'x'} ${turn}.${tries}`)}`);
    await response.arrayBuffer();
    if (response.headers.get('cache-control') !== 'no-store') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  entry.inPlace.push(performance.now() - asked);
}

/**
 * All the votes read as the server reads them when the day turns, with the event loop's longest stall meanwhile
 * (what a request waits at worst), then one query's votes as after its tell.
 */
async function measureLearnedLoad(db: BenchDb): Promise<LearnedLoad> {
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  stalls.enable();
  const reading = performance.now();
  const whole = await loadLearned(db);
  const ms = performance.now() - reading;
  stalls.disable();
  const keys = [...whole.keys()];
  const timings: number[] = [];
  for (let k = 0; k < 20; k++) {
    const oneKey = performance.now();
    await loadLearnedKey(db, keys[Math.floor((k * keys.length) / 20)] as string);
    timings.push(performance.now() - oneKey);
  }
  const keyMs = percentile(
    timings.sort((a, b) => a - b),
    0.5,
  );
  return { keys: whole.size, ms, stall: stalls.max / 1e6, keyMs };
}

/** How many of the benchmark's queries the server answers with the direct calls' top 10. */
async function countSameAsDirect(url: string, queries: Query[], direct: number[][]) {
  let same = 0;
  for (const [q, query] of queries.entries()) {
    const ids = await askServer(url, query.text);
    if (ids.join(' ') === (direct[q] ?? []).join(' ')) same++;
  }
  return same;
}

/** The open loop at each rate for the closed loop's capacity, each on different queries of its own from `from`. */
async function measureOpenLoops(
  url: string,
  capacity: number,
  different: string[],
  from: number,
  benchmarkPaths: string[],
  entry: PartRuns,
) {
  let next = from;
  for (const [r, rate] of openLoopRates(capacity).entries()) {
    const count = Math.min(Math.round(rate * OPEN_LOOP_SECONDS), different.length - next);
    if (count <= 0)
      throw new Error('too few different queries for the open loop: raise BENCH_UNIQUE_QUERIES');
    const paths = different.slice(next, next + count).map(suggestionsPath);
    next += count;
    // The warm-up asks the benchmark's own queries, answered here before (from memory, or searched again).
    (entry.open[r] ??= []).push(
      await measuredLoad(url, paths, { rate, warmup: warmupAt(rate, benchmarkPaths) }),
    );
  }
}

/** Back to what the rest measures: the shipped synonym sets, nothing learned. */
async function restoreShippedSearch(server: RunningServer, queries: Query[]) {
  const db = server.ctx.db;
  await db.deleteFrom('search_votes').execute();
  await db.deleteFrom('settings').where('key', '=', 'search_synonyms').execute();
  await touchContent(db, learnedScopes());
  await changedHere(server);
  // Its first answer reads them again: asked here, so the bad input below is not the one to wait for it.
  await askServer(server.url, `${queries[0]?.text ?? 'x'} restored`);
}

/**
 * The parts over HTTP (a to d; joins and splits cannot be turned off there): the server's synonym sets and votes
 * set and the revision moved, as the admin calls do; then the time of the first answer (it reads them again) and
 * until they are in place, whether the server answers the benchmark's queries as the direct calls did, and the
 * different queries each asked once (with the server's CPU time per request: this process is the server). Three
 * runs per part in three orders, no part twice in a row (a burst of load from elsewhere on the machine falls on one
 * run of a part, not two), medians reported.
 */
async function measurePartsOverHttp(server: RunningServer, direct: DirectParts, queries: Query[]) {
  const partsStarted = performance.now();
  const { url } = server;
  const setParts = partSetter(server, direct);
  const overHttp = new Map<Part, PartRuns>();
  // Each measure its own different queries, so none is answered from the server's memory (every part change moves
  // the revision, which empties it): the closed loop's, then one connection's, then the open loop's.
  const { different, parts } = direct;
  const httpDifferent = different.slice(0, PART_HTTP_QUERIES).map(suggestionsPath);
  const httpSingle = different
    .slice(PART_HTTP_QUERIES, PART_HTTP_QUERIES + PART_HTTP_SINGLE_QUERIES)
    .map(suggestionsPath);
  const openFrom = PART_HTTP_QUERIES + PART_HTTP_SINGLE_QUERIES;
  const httpSynonym = direct.synonymDifferent.slice(0, PART_HTTP_SYNONYM_QUERIES).map(suggestionsPath);
  const benchmarkPaths = queries.map((q) => suggestionsPath(q.text));
  // The queries with a synonym word once first, so the first part is not the one to analyse their new words.
  await runLoad(url, httpSynonym, DURATION, { once: true });
  let learnedLoad: LearnedLoad = { keys: -1, ms: NaN, stall: NaN, keyMs: NaN };
  const httpOrder = [1, 2, 3, 4, 3, 1, 4, 2, 4, 2, 1, 3].map((p) => parts[p] as Part);
  for (const [turn, part] of httpOrder.entries()) {
    await setParts(part);
    const entry = overHttp.get(part) ?? {
      runs: [],
      firstAnswer: [],
      inPlace: [],
      same: 0,
      synonymRuns: [],
      single: [],
      open: [],
    };
    overHttp.set(part, entry);
    await timePartChange(url, queries, turn, entry);
    if (turn < 4) {
      if (part.learned.size > 0 && learnedLoad.keys < 0)
        learnedLoad = await measureLearnedLoad(server.ctx.db);
      entry.same += await countSameAsDirect(
        url,
        queries,
        direct.partsBench.answers[parts.indexOf(part)] as number[][],
      );
    }
    const closed = await measuredLoad(url, httpDifferent);
    entry.runs.push(closed);
    entry.synonymRuns.push(await measuredLoad(url, httpSynonym));
    entry.single.push(await measuredLoad(url, httpSingle, { once: true, connections: 1 }));
    await measureOpenLoops(url, closed.rps, different, openFrom, benchmarkPaths, entry);
  }
  await restoreShippedSearch(server, queries);
  const partsHttp = performance.now() - partsStarted;
  return { overHttp, httpDifferent, httpSingle, httpSynonym, learnedLoad, partsHttp };
}

/** Bad input, one at a time (the slowest of five each), with the event loop watched meanwhile. */
async function measureBadInput(url: string) {
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const bad: { name: string; status: number; ms: number }[] = [];
  for (const [name, text] of BAD_INPUTS) {
    let worst = 0;
    let status = 0;
    for (let i = 0; i < 5; i++) {
      const asked = performance.now();
      // A new URL each time, so the answer is made, not remembered.
      const response = await fetch(`${url}${suggestionsPath(text)}&_=${i}`);
      await response.arrayBuffer();
      worst = Math.max(worst, performance.now() - asked);
      status = response.status;
    }
    bad.push({ name, status, ms: worst });
  }
  loopDelay.disable();
  return { bad, loopDelayMax: loopDelay.max };
}

/** One article edited: how long until a search on this server finds its new title. */
async function measureEdit(server: RunningServer) {
  const db = server.ctx.db;
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
  await changedHere(server);
  const editStarted = performance.now();
  const afterEdit = await (
    await fetch(`${server.url}${SUGGESTIONS_PATH}?text=zyxwvutsr&limit=10&perPage=10`)
  ).json();
  const editAnswer = performance.now() - editStarted;
  if (afterEdit.items?.[0]?.id !== edited.id) throw new Error('the edited article was not found');
  return editAnswer;
}

/**
 * A re-import that changes 1% of the articles (updated in place, not rebuilt), then one that changes half of them
 * (rebuilt in the background; searches keep answering from the index there is, timed meanwhile).
 */
async function measureReimports(server: RunningServer) {
  const db = server.ctx.db;
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
    await changedHere(server);
    return chosen.length;
  };
  const bulkCount = await retitle(0.01, 'Qqbulkone');
  let bulkStarted = performance.now();
  if ((await findTitle('qqbulkone')) === 0) throw new Error('the re-imported articles were not found');
  const bulkAnswer = performance.now() - bulkStarted;

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
  return { bulkCount, bulkAnswer, halfCount, halfAnswer, during };
}

/**
 * PostgreSQL full-text search over the corpus in a schema of its own (tsvector per language, GIN index), and how it
 * is asked: the query's language is unknown, so it is parsed in each configuration and matched against that
 * language's rows, the last word as a prefix.
 */
async function buildPostgres(pgClient: pg.Client, schema: string, articles: Article[]) {
  const loadStarted = performance.now();
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
  const build = performance.now() - loadStarted;
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
  const search = async (q: Query) =>
    (await pgClient.query<{ id: number }>(pgSql, [pgQueryText(q.text)])).rows.map((r) => r.id);
  return { build, search };
}

/** SQLite FTS5 over the corpus (unicode61 remove_diacritics 2), asked with the last term as a prefix. */
function buildFts(fts: DatabaseSync, articles: Article[]) {
  const loadStarted = performance.now();
  fts.exec(
    "CREATE VIRTUAL TABLE fts USING fts5(title, body, lang UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')",
  );
  const insert = fts.prepare('INSERT INTO fts (rowid, title, body, lang) VALUES (?, ?, ?, ?)');
  fts.exec('BEGIN');
  for (const a of articles) insert.run(a.id, a.title, a.body, a.lang);
  fts.exec('COMMIT');
  const build = performance.now() - loadStarted;
  const ftsSelect = fts.prepare(
    'SELECT rowid AS id FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 4.0, 1.0) LIMIT 10',
  );
  const ftsQueryText = (text: string) => {
    const words = queryWords(text);
    return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
  };
  const search = (q: Query) =>
    (ftsSelect.all(ftsQueryText(q.text)) as unknown as { id: number }[]).map((r) => r.id);
  return { build, search };
}

/** Everything measured for one corpus size, as the report reads it. */
interface SizeResults {
  size: number;
  queries: Query[];
  ourIndex: Awaited<ReturnType<typeof measureOurIndex>>;
  firstAnswer: number;
  uncached: LoadResult;
  load: LoadResult;
  http: Awaited<ReturnType<typeof measurePartsOverHttp>>;
  badInput: Awaited<ReturnType<typeof measureBadInput>>;
  editAnswer: number;
  reimports: Awaited<ReturnType<typeof measureReimports>>;
  startup: Awaited<ReturnType<typeof measureStartup>>;
  apart: Awaited<ReturnType<typeof servedApart>>;
  pgBuild: number;
  ftsBuild: number;
  engines: EngineResult[];
}

/** Runs every measure of one corpus size, then prints them. */
async function benchSize(size: number) {
  const { articles, queries } = generateAndDescribe(size);
  const server = await startServer({ demo: false, env: { REVISION_CHECK_MS: '250' } });
  const schema = `bench_search_${crypto.randomBytes(5).toString('hex')}`;
  const pgClient = new pg.Client({ connectionString: DATABASE_URL });
  const fts = new DatabaseSync(':memory:');
  try {
    await insertCorpus(server.ctx.db, articles);
    const ourIndex = await measureOurIndex(server.ctx.db, articles, queries);
    const firstAnswer = await timeFirstAnswer(server, queries);
    // HTTP under load: first every query different (what the index costs), then the query set cycled (what
    // visitors repeating each other cost: answered from the server's memory).
    const benchmarkPaths = queries.map((q) => suggestionsPath(q.text));
    const { different } = ourIndex.direct;
    const uncached = await runLoad(server.url, different.map(suggestionsPath), DURATION, { once: true });
    const load = await runLoad(server.url, benchmarkPaths, DURATION);
    const http = await measurePartsOverHttp(server, ourIndex.direct, queries);
    const badInput = await measureBadInput(server.url);
    const editAnswer = await measureEdit(server);
    const reimports = await measureReimports(server);
    // A second server started on the same database: other calls answer while it builds its index.
    const startup = await measureStartup(server.ctx.config.dataDir, queries[0]?.text ?? 'x');
    // Different queries to a server in its own process (restarted from the snapshot measureStartup left).
    const apart = await servedApart(
      server.ctx.config.dataDir,
      different.map(suggestionsPath),
      benchmarkPaths,
    );
    const postgres = await buildPostgres(pgClient, schema, articles);
    const sqlite = buildFts(fts, articles);
    // The three engines on the same queries, direct calls.
    const engines = [
      ourIndex.oursDirect,
      await measureEngine('PostgreSQL FTS', queries, postgres.search),
      await measureEngine('SQLite FTS5', queries, sqlite.search),
    ];
    const results: SizeResults = {
      size,
      queries,
      ourIndex,
      firstAnswer,
      uncached,
      load,
      http,
      badInput,
      editAnswer,
      reimports,
      startup,
      apart,
      pgBuild: postgres.build,
      ftsBuild: sqlite.build,
      engines,
    };
    report(results);
    return { size, load, ours: ourIndex.oursDirect };
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

// ---------------------------------------------------------------------------------------------------------------
// The report of one corpus size
// ---------------------------------------------------------------------------------------------------------------

const ratio = (value: number, of: number) => (of > 0 ? `${fmt(value / of, 2)}x` : '-');
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
/** The part every ratio is taken against: (a) words only. */
const baseOf = (parts: Part[]) => parts[1] as Part;

/** Prints everything measured for one size. */
function report(r: SizeResults) {
  reportBuilds(r);
  reportHttpAndEngines(r);
  reportPartsSummary(r);
  reportDirectParts(r);
  reportHttpParts(r);
  reportNoQueueing(r);
  reportApart(r);
  reportRecall(r);
  reportTargets(r);
}

/** The index's build, the server following changes, and a new server's start with and without a snapshot. */
function reportBuilds(r: SizeResults) {
  const { build, heapDelta, snapshot } = r.ourIndex;
  console.log(
    `    index build: ${fmt(build.total / 1000, 2)} s ` +
      `(loadSearchDocuments ${fmt(build.load / 1000, 2)} s + SearchIndex.build ${fmt(build.index / 1000, 2)} s); ` +
      `heap used by the index (its typed arrays included): ${fmt(heapDelta / 1024 / 1024)} MB${gc ? '' : ' (no gc available: rough)'}; ` +
      `restored from a snapshot here: ${fmt(snapshot.ms / 1000, 2)} s, ${fmt(snapshot.heap / 1024 / 1024)} MB, ` +
      `${snapshot.same ? 'the same answers to every query' : 'ANSWERS DIFFER from the built index'}`,
  );
  console.log(
    `    server: first suggestion after the content changed ${fmt(r.firstAnswer / 1000, 2)} s (its own rebuild); ` +
      `PostgreSQL load+tsvector+GIN ${fmt(r.pgBuild / 1000, 1)} s; FTS5 load ${fmt(r.ftsBuild / 1000, 1)} s`,
  );
  console.log(
    `    one article edited: found by its new title ${fmt(r.editAnswer, 1)} ms after the change (updated in place)`,
  );
  const { bulkCount, bulkAnswer, halfCount, halfAnswer, during } = r.reimports;
  console.log(
    `    re-import changing ${bulkCount} articles (1%): found ${fmt(bulkAnswer, 1)} ms after the change (updated in place); ` +
      `${halfCount} articles (50%): found ${fmt(halfAnswer / 1000, 2)} s after (rebuilt in the background), ` +
      `searches meanwhile p50 ${fmt(percentile(during, 0.5), 1)} ms, max ${fmt(during.at(-1) ?? 0, 1)} ms (${during.length} answered from the old index)`,
  );
  const { startup } = r;
  console.log(
    `    a new server on this database: listening after ${fmt(startup.listen / 1000, 2)} s; during its index build ` +
      `branding answered ${startup.other.length} times, p50 ${fmt(percentile(startup.other, 0.5), 1)} ms, ` +
      `p99 ${fmt(percentile(startup.other, 0.99), 1)} ms, max ${fmt(startup.other.at(-1) ?? 0, 1)} ms; ` +
      `first suggestions answer ${fmt(startup.firstSearch / 1000, 2)} s after listening`,
  );
  const { written, restored } = startup;
  console.log(
    `    its snapshot of the index: ${fmt((written?.bytes ?? NaN) / 1024 / 1024)} MB on disk, written in ` +
      `${fmt((written?.ms ?? NaN) / 1000, 2)} s; restarted with it: listening after ${fmt(restored.listen / 1000, 2)} s, ` +
      `snapshot read and restored in ${fmt((restored.loaded?.loadMs ?? NaN) / 1000, 2)} s, first suggestions answer ` +
      `${fmt(restored.firstSearch / 1000, 2)} s after listening (${fmt(startup.firstSearch / restored.firstSearch)}× ` +
      `sooner; target ≤ 5 s at 100,000), branding meanwhile p99 ${fmt(percentile(restored.other, 0.99), 1)} ms` +
      `${restored.loaded ? '' : ' (NOT read from the snapshot)'}`,
  );
}

/** HTTP under load, bad input, and the three engines' direct calls. */
function reportHttpAndEngines(r: SizeResults) {
  const { uncached, load, queries } = r;
  const target = r.size === 10_000 ? ' (target p99 ≤ 10 ms)' : '';
  console.log(
    `    HTTP suggestions, autocannon 10 connections, ${uncached.total} different queries, each asked once: ` +
      `p50 ${uncached.p50} ms, p99 ${uncached.p99} ms${target}, ${fmt(uncached.rps, 0)} req/s, ` +
      `${uncached.non2xx} non-2xx, ${uncached.errors} errors, ${uncached.timeouts} timeouts`,
  );
  console.log(
    `    HTTP suggestions, the ${queries.length} queries cycled for ${DURATION} s (answered from memory from the third round: kept from their second asking): ` +
      `p50 ${load.p50} ms, p99 ${load.p99} ms, ${fmt(load.rps, 0)} req/s, ${load.total} requests, ` +
      `${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts`,
  );
  const { bad, loopDelayMax } = r.badInput;
  console.log(
    `    bad input (slowest of 5 each, over HTTP): ${bad.map((b) => `${b.name} ${b.status} ${fmt(b.ms, 1)} ms`).join('; ')}; ` +
      `event loop delay meanwhile max ${fmt(loopDelayMax / 1e6, 1)} ms`,
  );
  console.log('');
  console.log(
    table([
      ['engine (direct calls)', 'p50 ms', 'p99 ms', 'recall@10', ...KINDS],
      ...r.engines.map((e) => [
        e.name,
        fmt(e.p50, 2),
        fmt(e.p99, 2),
        pct(e.recall.all),
        ...KINDS.map((k) => pct(e.recall[k])),
      ]),
    ]),
  );
}

/** The learned table, how the server loads it, and how many queries learning and the synonyms touch. */
function reportPartsSummary(r: SizeResults) {
  const { learned, votes, learningMade, siteLang, different, synonymDifferent, partsTimed, defaultSynonyms } =
    r.ourIndex.direct;
  const { learnedLoad, partsHttp } = r.http;
  const matchesSynonyms = (text: string) => findSynonyms(defaultSynonyms, queryWords(text)).length > 0;
  const factors = [...learned.values()].flatMap((m) => [...m.values()]).sort((a, b) => a - b);
  const hasLearned = (text: string) => learned.has(learningKey(text, siteLang));
  const share = (texts: string[], test: (text: string) => boolean) =>
    pct(texts.filter(test).length / texts.length);
  const queryTexts = r.queries.map((q) => q.text);
  console.log(
    `\n    parts of search: learned table of ${learned.size} query keys, ${factors.length} articles ` +
      `(factors ${fmt(factors[0] ?? NaN, 2)} to ${fmt(factors.at(-1) ?? NaN, 2)}, median ${fmt(percentile(factors, 0.5), 2)}), ` +
      `${votes.length} votes, made in ${fmt(learningMade / 1000, 1)} s; the server loaded ${learnedLoad.keys} keys ` +
      `(loadLearned ${fmt(learnedLoad.ms, 0)} ms, a page at a time: the event loop's longest stall meanwhile ` +
      `${fmt(learnedLoad.stall, 1)} ms; one query key's reload ${fmt(learnedLoad.keyMs, 1)} ms). Something learned for ${share(
        queryTexts,
        hasLearned,
      )} ` +
      `of the benchmark's queries, ${share(different, hasLearned)} of the different ones; a synonym set matches ` +
      `${share(queryTexts, matchesSynonyms)} of the benchmark's queries, ${share(different, matchesSynonyms)} ` +
      `of the different ones, ${share(synonymDifferent, matchesSynonyms)} of those with a synonym word ` +
      `(${synonymDifferent.length}). Direct calls ${fmt(partsTimed / 1000, 1)} s, HTTP ${fmt(partsHttp / 1000, 1)} s.`,
  );
}

type Timed = { times: number[][]; cpu: number[][] };

/** A part's p50 and p99 of direct calls, and their ratios against (a)'s. */
function directColumns(parts: Part[], times: number[][], part: Part) {
  const stats = (of: Part) => {
    const sorted = times[parts.indexOf(of)] as number[];
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  };
  const mine = stats(part);
  const theirs = stats(baseOf(parts));
  return [fmt(mine.p50, 2), fmt(mine.p99, 2), ratio(mine.p50, theirs.p50), ratio(mine.p99, theirs.p99)];
}

/** Direct calls by part: the benchmark's queries and the different ones, with and without a synonym word. */
function directTable(direct: DirectParts, pick: (timed: Timed) => number[][]) {
  const { parts } = direct;
  return table([
    [
      'part',
      'queries p50',
      'p99',
      'x p50',
      'x p99',
      'different p50',
      'p99',
      'x p50',
      'x p99',
      'syn. queries p50',
      'p99',
      'x p50',
      'x p99',
      'syn. different p50',
      'p99',
      'x p50',
      'x p99',
    ],
    ...parts.map((part) => [
      part.name,
      ...directColumns(parts, pick(direct.partsBench), part),
      ...directColumns(parts, pick(direct.partsDifferent), part),
      ...directColumns(parts, pick(direct.partsSynonymBench), part),
      ...directColumns(parts, pick(direct.partsSynonymDifferent), part),
    ]),
  ]);
}

function reportDirectParts(r: SizeResults) {
  const { direct } = r.ourIndex;
  console.log(
    `\n    suggestion latency by part, direct calls (ms; ratios against (a) in this run): the ${r.queries.length} queries ` +
      `${PART_ROUNDS} times; ${direct.differentSample.length} of the different queries once; the same with a synonym word first`,
  );
  console.log(directTable(direct, (timed) => timed.times));
  console.log(
    `\n    the same, CPU time of the process per call (ms; all its threads, so parallel GC counts; time taken by other processes on the machine does not)`,
  );
  console.log(directTable(direct, (timed) => timed.cpu));
}

/** A part's closed-loop figures over HTTP: medians of its runs. */
function httpOf(overHttp: Map<Part, PartRuns>, part: Part) {
  const entry = overHttp.get(part);
  if (!entry) return null;
  return {
    p50: median(entry.runs.map((r) => r.p50Exact)),
    p99: median(entry.runs.map((r) => r.p99Exact)),
    rps: median(entry.runs.map((r) => r.rps)),
    cpu: median(entry.runs.map((r) => r.cpuPerRequest)),
    synonymP50: median(entry.synonymRuns.map((r) => r.p50Exact)),
    synonymP99: median(entry.synonymRuns.map((r) => r.p99Exact)),
    synonymCpu: median(entry.synonymRuns.map((r) => r.cpuPerRequest)),
    entry,
  };
}

/** One part's row of the closed-loop table. */
function httpRow(r: SizeResults, part: Part): string[] {
  const { overHttp } = r.http;
  const mine = httpOf(overHttp, part);
  const httpBase = httpOf(overHttp, baseOf(r.ourIndex.direct.parts));
  if (!mine || !httpBase) return [part.name, ...Array<string>(16).fill('-')];
  return [
    part.name,
    fmt(mine.p50, 2),
    fmt(mine.p99, 2),
    ratio(mine.p50, httpBase.p50),
    ratio(mine.p99, httpBase.p99),
    mine.entry.runs.map((run) => fmt(run.p99Exact, 2)).join(' / '),
    fmt(mine.rps, 0),
    ratio(mine.rps, httpBase.rps),
    fmt(mine.cpu, 2),
    ratio(mine.cpu, httpBase.cpu),
    fmt(mine.synonymP50, 2),
    fmt(mine.synonymP99, 2),
    ratio(mine.synonymP99, httpBase.synonymP99),
    fmt(mine.synonymCpu, 2),
    ratio(mine.synonymCpu, httpBase.synonymCpu),
    mine.entry.firstAnswer
      .map((ms, i) => `${fmt(ms, 0)}→${fmt(mine.entry.inPlace[i] ?? NaN, 0)}`)
      .join(' / '),
    `${mine.entry.same}/${r.queries.length}`,
  ];
}

function reportHttpParts(r: SizeResults) {
  const { httpDifferent, httpSynonym } = r.http;
  console.log(
    `\n    suggestion latency by part over HTTP (ms, to the microsecond; autocannon, 10 connections): ` +
      `${httpDifferent.length} different queries each asked once, and ${httpSynonym.length} with a synonym word; ` +
      `three runs per part in three orders (medians; each run's p99 shown); the server's CPU time per request ` +
      `(this process); first answer after the revision moved, and until answers are fresh (what changed in place)`,
  );
  console.log(
    table([
      [
        'part',
        'p50',
        'p99',
        'x p50',
        'x p99',
        'p99 runs',
        'req/s',
        'x req/s',
        'CPU/req',
        'x CPU',
        'syn. p50',
        'syn. p99',
        'x syn. p99',
        'syn. CPU/req',
        'x syn. CPU',
        'first answer→in place (ms)',
        'same top 10 as direct',
      ],
      ...r.ourIndex.direct.parts.map((part) => httpRow(r, part)),
    ]),
  );
}

/** Latency that is service time, not queueing: medians over a part's runs. */
const latencyOf = (runs: Run[] | undefined) => ({
  p50: median((runs ?? []).map((r) => r.p50Exact)),
  p99: median((runs ?? []).map((r) => r.p99Exact)),
  rps: median((runs ?? []).map((r) => r.rps)),
  inFlight: Math.max(0, ...(runs ?? []).map((r) => r.maxInFlight ?? 0)),
  failed: (runs ?? []).reduce((sum, r) => sum + r.non2xx + r.errors, 0),
});

/** The labels of the open loop's rates. */
const openLabels = [
  ...OPEN_LOOP_SHARES.map((share) => `${share * 100}% of capacity`),
  `${OPEN_LOOP_RATE} req/s`,
];

/** One part's row of the table without queueing: one connection, then the open loop at each rate. */
function noQueueingRow(r: SizeResults, part: Part): string[] {
  const { overHttp } = r.http;
  const entry = overHttp.get(part);
  const baseEntry = overHttp.get(baseOf(r.ourIndex.direct.parts));
  if (!entry || !baseEntry) return [part.name, ...Array<string>(5 + 6 * openLabels.length).fill('-')];
  const offered = (i: number) =>
    median(
      entry.runs.map((run) =>
        i < OPEN_LOOP_SHARES.length ? (OPEN_LOOP_SHARES[i] as number) * run.rps : OPEN_LOOP_RATE,
      ),
    );
  const single = latencyOf(entry.single);
  const baseSingle = latencyOf(baseEntry.single);
  const open = openLabels.map((_, i) => latencyOf(entry.open[i]));
  return [
    part.name,
    fmt(single.p50, 2),
    fmt(single.p99, 2),
    ratio(single.p50, baseSingle.p50),
    ratio(single.p99, baseSingle.p99),
    ...open.flatMap((mine, i) => [
      fmt(offered(i), 0),
      fmt(mine.rps, 0),
      fmt(mine.p50, 2),
      fmt(mine.p99, 2),
      ratio(mine.p99, latencyOf(baseEntry.open[i]).p99),
      String(mine.inFlight),
    ]),
    String(single.failed + open.reduce((sum, o) => sum + o.failed, 0)),
  ];
}

/** Latency that is service time, not queueing: one connection, and visitors arriving at a fixed rate (open loop). */
function reportNoQueueing(r: SizeResults) {
  console.log(
    `\n    suggestion latency by part over HTTP without queueing (ms, to the microsecond; medians of three runs): one ` +
      `connection, ${r.http.httpSingle.length} different queries each answered before the next is sent; an open loop, ` +
      `different queries each sent once at a fixed rate for ${OPEN_LOOP_SECONDS} s whether or not earlier ones are ` +
      `answered (${openLabels.join(', ')}; capacity is the part's closed-loop req/s in the same run), each answer timed ` +
      `from when it was due; ratios against (a) in this run`,
  );
  console.log(
    table([
      [
        'part',
        '1 conn p50',
        'p99',
        'x p50',
        'x p99',
        ...openLabels.flatMap((label) => [
          `${label}: offered`,
          'achieved',
          'p50',
          'p99',
          'x p99',
          'most in flight',
        ]),
        'failed',
      ],
      ...r.ourIndex.direct.parts.map((part) => noQueueingRow(r, part)),
    ]),
  );
}

function reportApart(r: SizeResults) {
  const { apart } = r;
  console.log(
    `\n    a server in its own process, as deployed (restarted from its snapshot; the shipped synonyms, nothing ` +
      `learned; each request logged, at the default level; different queries new to its index): ten connections p50 ${fmt(apart.closed.p50Exact, 2)} ms, p99 ` +
      `${fmt(apart.closed.p99Exact, 2)} ms, ${fmt(apart.closed.rps, 0)} req/s, ${fmt(apart.cpuPerRequest, 2)} ms of ` +
      `its CPU per request; one connection p50 ${fmt(apart.single.p50Exact, 2)} ms, p99 ` +
      `${fmt(apart.single.p99Exact, 2)} ms; open loop ${openLabels
        .map((label, i) => {
          const run = apart.open[i] as LoadResult;
          return `at ${label} (${fmt(run.rps, 0)} req/s) p50 ${fmt(run.p50Exact, 2)} ms, p99 ${fmt(run.p99Exact, 2)} ms`;
        })
        .join(
          '; ',
        )}; failed ${apart.closed.non2xx + apart.closed.errors + apart.single.non2xx + apart.single.errors + apart.open.reduce((sum, run) => sum + run.non2xx + run.errors, 0)}`,
  );
}

function reportRecall(r: SizeResults) {
  const { parts, partsBench, partsSynonymBench, synonymBench } = r.ourIndex.direct;
  const at = (part: Part) => parts.indexOf(part);
  const base = baseOf(parts);
  const baseAnswers = partsBench.answers[at(base)] as number[][];
  const changed = (mine: number[][], theirs: number[][]) =>
    `${mine.filter((ids, q) => ids.join(' ') !== (theirs[q] ?? []).join(' ')).length}/${mine.length}`;
  console.log(
    `\n    recall@10 by part (direct calls), and the benchmark's queries with a synonym word first`,
  );
  console.log(
    table([
      ['part', 'recall@10', ...KINDS, 'top 10 changed vs (a)', 'with a synonym word', 'changed vs (a)'],
      ...parts.map((part) => {
        const answers = partsBench.answers[at(part)] as number[][];
        const recall = recallOf(r.queries, answers);
        const synonymAnswers = partsSynonymBench.answers[at(part)] as number[][];
        const baseSynonym = partsSynonymBench.answers[at(base)] as number[][];
        return [
          part.name,
          pct(recall.all),
          ...KINDS.map((k) => pct(recall[k])),
          changed(answers, baseAnswers),
          pct(recallOf(synonymBench, synonymAnswers).all),
          changed(synonymAnswers, baseSynonym),
        ];
      }),
    ]),
  );
}

/** The targets at 10,000 articles for HTTP latency with every part on, with and without queueing. */
function latencyVerdicts(r: SizeResults) {
  const { overHttp } = r.http;
  const bothPart = r.ourIndex.direct.parts[4] as Part;
  const allOn = httpOf(overHttp, bothPart);
  const bothEntry = overHttp.get(bothPart);
  const bothOn = bothEntry && {
    single: latencyOf(bothEntry.single),
    open: openLabels.map((_, i) => latencyOf(bothEntry.open[i])),
  };
  const { uncached } = r;
  return [
    r.size === 10_000
      ? `HTTP p99 of different queries ${uncached.p99} ms ≤ 10 ms: ${uncached.p99 <= 10 ? 'MET' : 'NOT MET'}`
      : null,
    r.size === 10_000 && allOn
      ? `HTTP p99 of different queries with synonyms and learning on ${fmt(allOn.p99, 2)} ms ≤ 10 ms: ${allOn.p99 <= 10 ? 'MET' : 'NOT MET'}`
      : null,
    r.size === 10_000 && bothOn
      ? `HTTP p99 with synonyms and learning on without queueing, ${[
          ['one connection', bothOn.single] as const,
          ...openLabels.map((label, i) => [`open loop at ${label}`, bothOn.open[i]] as const),
        ]
          .map(
            ([label, run]) =>
              `${label} ${fmt(run?.p99 ?? NaN, 2)} ms ≤ 10 ms: ${(run?.p99 ?? NaN) <= 10 ? 'MET' : 'NOT MET'}`,
          )
          .join(', ')}`
      : null,
  ];
}

function reportTargets(r: SizeResults) {
  const { partsBench, partsSynonymBench, synonymBench } = r.ourIndex.direct;
  const { bad } = r.badInput;
  const worstBad = Math.max(...bad.map((b) => b.ms));
  const ours = r.engines[0] as EngineResult;
  const others = r.engines.slice(1);
  const verdicts = [
    ...latencyVerdicts(r),
    `recall@10 with synonyms and learning (d) no lower than words only (a), with and without a synonym word: ${
      recallOf(r.queries, partsBench.answers[4] as number[][]).all >=
        recallOf(r.queries, partsBench.answers[1] as number[][]).all &&
      recallOf(synonymBench, partsSynonymBench.answers[4] as number[][]).all >=
        recallOf(synonymBench, partsSynonymBench.answers[1] as number[][]).all
        ? 'MET'
        : 'NOT MET'
    }`,
    `bad input under 50 ms, never 500: ${worstBad < 50 && bad.every((b) => b.status === 200 || b.status === 400) ? 'MET' : 'NOT MET'}`,
    ...(['typo', 'inflection'] as const).map(
      (k) =>
        `recall on ${k} above both SQL engines: ` +
        (others.every((o) => ours.recall[k] > o.recall[k]) ? 'MET' : 'NOT MET'),
    ),
  ].filter(Boolean);
  console.log(`\n    targets: ${verdicts.join('; ')}`);
}

const LANGUAGE_ARTICLES = Number(process.env.BENCH_LANGUAGE_ARTICLES ?? 10_000);
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
if (LANGUAGE_ARTICLES > 0) {
  // One language against five (bench/support/languages.ts): the index's documents, build time and heap, and a
  // server's first search (built, then restarted from its snapshot) and suggestions for different queries, readers
  // spread over the languages.
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-languages-'));
  try {
    await compareLanguages({ articles: LANGUAGE_ARTICLES, workDir, parts: ['index', 'served'] });
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
console.log(`\nTotal ${fmt((performance.now() - started) / 1000)} s`);
