/**
 * Soak test: N minutes of mixed visitors' traffic against one `signpost serve` (SQLite, demo content, a local
 * webhook receiving the support requests): pages, API calls, suggestions with varied text, search events, support
 * requests, half of them with a small upload; and an editor who changes an article's text every 10 s and a title
 * every minute through the admin API, so caches and the search index keep being renewed. Prints, per minute, the
 * requests, errors, p50 and p99 latency and the server's memory; then memory at the start and the end.
 *
 * Targets: no error at all, every acknowledged request delivered, and memory (resident without the answer cache,
 * and heap used) growing less than 10% from the start (taken after a 2-minute warm-up: the process's native
 * memory, SQLite's cache and compiled code settle within it, then stay flat) to the end. The answer cache is
 * reported apart: it grows with every new URL asked for (search texts above all) until CACHE_MAX_MB, by design. Memory is read from the server's /metrics
 * (process_resident_memory_bytes, nodejs_heap_size_used_bytes), else from /proc/PID/status (resident only), every
 * second. Each figure stands for 30 seconds of samples: resident memory their median, heap their lowest (the heap
 * right after a garbage collection: what is really kept), so one collection more or less does not decide.
 *
 *   npm run bench:soak                                   (10 minutes)
 *   BENCH_MINUTES=2 BENCH_RATE=200 BENCH_CONCURRENCY=16 npm run bench:soak
 *   BENCH_DATABASE_URL=postgres://... npm run bench:soak
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  discoverSite,
  percentile,
  pick,
  read,
  searchEvent,
  startSignpost,
  suggest,
  supportRequest,
  type Outcome,
} from './support/traffic.ts';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 120);
const SAMPLE_WINDOW_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Delivery is at least once: repeats (the same Idempotency-Key) are counted apart, as a receiver would drop them.
const deliveredKeys = new Set<string>();
let repeats = 0;
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const key = String(request.headers['idempotency-key'] ?? '');
    if (deliveredKeys.has(key)) repeats++;
    else deliveredKeys.add(key);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-soak-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const server = await startSignpost('server', port, {
  DATA_DIR: dataDir,
  CAPTCHA_PROVIDER: 'none',
  REQUESTS_PER_HOUR: '100000000',
  UPLOADS_PER_HOUR: '100000000',
  // Visitors arrive through a proxy that names them: search events are limited per visitor, as in production.
  TRUST_PROXY: 'true',
  TICKET_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});
const site = await discoverSite(server.url);

// An administrator for the editor, made with the CLI on the same data folder.
const cli = spawnSync(
  process.execPath,
  [
    path.join(import.meta.dirname, '../bin/signpost.js'),
    'user',
    'add',
    '--email',
    'editor@example.com',
    '--name',
    'Editor',
    '--password',
    'soak-editor-password',
    '--admin',
  ],
  {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    },
    encoding: 'utf8',
  },
);
if (cli.status !== 0) throw new Error(`signpost user add: ${cli.stderr}`);
const login = await fetch(`${server.url}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'editor@example.com', password: 'soak-editor-password' }),
});
const adminToken = ((await login.json()) as { token: string }).token;
const tree = (await (
  await fetch(`${server.url}/api/admin/tree`, { headers: { 'x-auth-token': adminToken } })
).json()) as { articles: { id: number; title: string; published: boolean }[] };
const edited = tree.articles.filter((a) => a.published).slice(0, 5);

interface Memory {
  rss: number;
  heap: number | null;
  /** Bytes of the answers the server keeps in memory: a cache that fills up to CACHE_MAX_MB by design. */
  cache: number;
}

async function memory(): Promise<Memory> {
  try {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (name: string) => {
      const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
      return match ? Number(match[1]) : null;
    };
    const rss = value('process_resident_memory_bytes');
    if (rss !== null)
      return {
        rss,
        heap: value('nodejs_heap_size_used_bytes'),
        cache: value('signpost_page_cache_bytes') ?? 0,
      };
  } catch {
    // no /metrics: read the kernel's figure
  }
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return { rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024, heap: null, cache: 0 };
}

interface Sample extends Memory {
  at: number;
}
const samples: Sample[] = [];

interface Result {
  at: number;
  kind: string;
  ms: number;
  outcome: Outcome;
}
const results: Result[] = [];
let requestNumber = 0;
let acknowledged = 0;
let running = true;
let measuring = false;

async function visitor() {
  const interval = (CONCURRENCY / RATE) * 1000;
  while (running) {
    const started = performance.now();
    const roll = Math.random();
    let kind: string;
    let outcome: Outcome;
    if (roll < 0.3) {
      kind = 'page';
      outcome = await read(server.url, pick(site.pages));
    } else if (roll < 0.6) {
      kind = 'api';
      outcome = await read(server.url, pick(site.calls));
    } else if (roll < 0.85) {
      kind = 'suggest';
      outcome = await suggest(server.url, site.words);
    } else if (roll < 0.9) {
      kind = 'event';
      outcome = await searchEvent(server.url, site.words);
    } else {
      kind = 'request';
      outcome = await supportRequest(server.url, ++requestNumber, Math.random() < 0.5);
    }
    const ms = performance.now() - started;
    if (outcome.ticketId !== undefined) acknowledged++;
    if (measuring) results.push({ at: Date.now(), kind, ms, outcome });
    await sleep(Math.max(0, interval - ms));
  }
}

/** The support team at work: an article's text every 10 s, a title every minute (which renews every page). */
async function editor() {
  let n = 0;
  while (running) {
    await sleep(10_000);
    if (!running) break;
    n++;
    const article = edited[n % edited.length] as { id: number; title: string };
    const change =
      n % 6 === 0 ? { title: `${article.title} (${n})` } : { body_html: `<p>Revised text number ${n}.</p>` };
    const started = performance.now();
    let outcome: Outcome;
    try {
      const response = await fetch(`${server.url}/api/admin/articles/${article.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-auth-token': adminToken },
        body: JSON.stringify(change),
      });
      await response.arrayBuffer();
      outcome = { status: response.status };
    } catch (error) {
      outcome = { status: 0, error: String(error) };
    }
    if (measuring) results.push({ at: Date.now(), kind: 'edit', ms: performance.now() - started, outcome });
  }
}

/**
 * The server's own latency histogram (all routes), summed by bucket: the client's figures include its own delays
 * (16 visitors in one process, and the load tool shares the machine), the server's do not.
 */
async function serverBuckets(): Promise<Map<number, number>> {
  const buckets = new Map<number, number>();
  try {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    for (const match of text.matchAll(
      /^signpost_http_request_duration_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\d+)/gm,
    )) {
      const le = match[1] === '+Inf' ? Infinity : Number(match[1]);
      buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
    }
  } catch {
    // no figures this time
  }
  return buckets;
}

/** The upper bound of the bucket holding the p-th percentile of what was answered between two readings. */
function bucketPercentile(before: Map<number, number>, after: Map<number, number>, p: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  for (const le of bounds) {
    if ((after.get(le) ?? 0) - (before.get(le) ?? 0) >= (total * p) / 100) return le * 1000;
  }
  return Infinity;
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const ok = (result: Result) => result.outcome.status >= 200 && result.outcome.status < 400;

console.log(
  `soak: ${MINUTES} min at ~${RATE} req/s (${CONCURRENCY} visitors) after a ${WARMUP_SECONDS} s warm-up; ` +
    `${site.pages.length} pages, ${site.calls.length} calls, ${site.words.length} words to search; ` +
    `database: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`,
);
const visitors = [...Array.from({ length: CONCURRENCY }, () => visitor()), editor()];
let exitCode: number;
try {
  await sleep(WARMUP_SECONDS * 1000);
  measuring = true;
  const start = Date.now();
  const sampler = setInterval(() => {
    void memory().then((m) => samples.push({ ...m, at: Date.now() }));
  }, 1_000);
  let buckets = await serverBuckets();
  for (let minute = 1; minute <= MINUTES; minute++) {
    await sleep(start + minute * 60_000 - Date.now());
    const nowBuckets = await serverBuckets();
    const serverP99 = bucketPercentile(buckets, nowBuckets, 99);
    buckets = nowBuckets;
    const these = results.filter(
      (r) => r.at > start + (minute - 1) * 60_000 && r.at <= start + minute * 60_000,
    );
    const latencies = these.map((r) => r.ms);
    const now = samples.at(-1);
    console.log(
      `minute ${minute}: ${these.length} requests, ${these.filter((r) => !ok(r)).length} errors, ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms ` +
        `(server's own p99 ≤ ${serverP99} ms), ` +
        `rss ${mb(now?.rss ?? null)}, heap ${mb(now?.heap ?? null)}, answers kept ${mb(now?.cache ?? null)}`,
    );
  }
  clearInterval(sampler);
  running = false;
  await Promise.all(visitors);

  const windowOf = (from: number, to: number) => samples.filter((s) => s.at >= from && s.at <= to);
  const median = (values: number[]) => percentile(values, 50);
  const first = windowOf(start, start + SAMPLE_WINDOW_MS);
  const last = windowOf(Date.now() - SAMPLE_WINDOW_MS, Date.now());
  const growth = (key: 'rss' | 'heap' | 'net') => {
    const figure = (window: Sample[]) =>
      key === 'rss'
        ? median(window.map((s) => s.rss))
        : key === 'net'
          ? median(window.map((s) => s.rss - s.cache))
          : Math.min(...window.map((s) => s.heap ?? 0));
    const a = figure(first);
    const b = figure(last);
    return { a, b, pct: a ? ((b - a) / a) * 100 : 0 };
  };
  const rss = growth('rss');
  const net = growth('net');
  const heap = growth('heap');
  const errors = results.filter((r) => !ok(r));
  const byKind = new Map<string, number[]>();
  for (const r of results) byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r.ms]);

  console.log('');
  for (const [kind, latencies] of byKind) {
    console.log(
      `${kind.padEnd(8)} ${String(latencies.length).padStart(7)} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
  }
  console.log(`memory (rss): start ${mb(rss.a)}, end ${mb(rss.b)}, growth ${rss.pct.toFixed(1)}%`);
  const cacheAt = (window: Sample[]) => median(window.map((s) => s.cache));
  console.log(
    `memory (rss without the answers kept in memory, a cache bounded by CACHE_MAX_MB that fills as new URLs are ` +
      `asked for; ${mb(cacheAt(first))} at the start, ${mb(cacheAt(last))} at the end): start ${mb(net.a)}, ` +
      `end ${mb(net.b)}, growth ${net.pct.toFixed(1)}%`,
  );
  if (samples.some((s) => s.heap !== null)) {
    console.log(`memory (heap used): start ${mb(heap.a)}, end ${mb(heap.b)}, growth ${heap.pct.toFixed(1)}%`);
  }
  console.log(`errors: ${errors.length}${errors.length ? ` (first: ${JSON.stringify(errors[0])})` : ''}`);
  for (let i = 0; i < 100 && deliveredKeys.size < acknowledged; i++) await sleep(100);
  console.log(
    `support requests acknowledged: ${acknowledged}; delivered to the webhook: ${deliveredKeys.size} ` +
      `(and ${repeats} repeated deliveries, which receivers drop by Idempotency-Key)`,
  );
  const passed =
    errors.length === 0 &&
    deliveredKeys.size >= acknowledged &&
    net.pct < 10 &&
    (heap.a === 0 || heap.pct < 10);
  console.log(passed ? 'soak passed' : 'SOAK FAILED');
  exitCode = passed ? 0 : 1;
} finally {
  running = false;
  await server.stop();
  receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
