/**
 * HTTP benchmark: Signpost's public answers against bare `node:http` and nginx sending the same bytes with the same
 * headers, in one run, with the same load on loopback.
 *
 * It starts `signpost serve` (production build, SQLite, demo content), asks for the article page with a browser's
 * headers (Accept-Encoding, Accept-Language: BROWSER_HEADERS) and keeps what Signpost answers from memory: its
 * brotli bytes and headers. A bare `node:http` server in its own process (bench/support/bare-server.ts) sends that
 * answer to every request with a fresh x-request-id, and nginx (a throw-away configuration in a temporary folder;
 * the apt package `nginx-light` or `nginx`) sends the same bytes as a static file with the same headers. Every
 * request carries the browser's headers. The targets: nginx, node:http, then Signpost's article page kept in
 * memory, the same page rendered for each request (a second server on the same database with its cache off,
 * CACHE_MAX_MB=0: the line after the table counts its renders), the page of a signed-in visitor (a customer made
 * with `signpost user add` and signed in through the API: rendered for them, never kept), the home page, the
 * article's JSON call and the suggestions call. Each is warmed for 2 s, then measured. Shared machines are noisy
 * (another tenant's burst can halve a run), so the targets are measured in ROUNDS rounds, the references first in
 * each, and each figure is the median over the rounds; a ratio is taken within each round, against the reference
 * runs just before it, and its median and range are printed. The load tool is wrk when installed (the apt package
 * `wrk`), else autocannon in a separate process.
 *
 * With two cores or more and `taskset` (BENCH_PIN=0 turns it off), the load tool runs on the last core and the
 * servers on the others, so the load tool takes nothing from the servers, and requests per second per server
 * process mean something on a small machine: Signpost's WORKERS (BENCH_WORKERS, 1 unless told; `auto`: one per
 * server core), nginx one worker per server core, node:http one process.
 *
 * Prints requests per second (in all and per server process), p50 and p99 latency and errors for each, and each
 * one's ratio to node:http and to nginx. Targets: the kept article page at least 85% of bare node:http's
 * throughput, and its p99 under 10 ms at 50 connections; its share of nginx's is reported.
 *
 * Before the comparison (phase `own-work`, bench/support/own-work.ts), Signpost's own work per answer from memory, in one process
 * with no socket: the figure that a shared machine's noise hardly moves.
 *
 * Then a flood (phase `flood`, on a fresh server): BENCH_FLOOD_CONNECTIONS connections ask for the demo's real pages
 * and calls with random query strings (utm_source, fbclid...) and random Host headers, as a scanner or an attacker
 * would, while 8 connections read the real pages and calls as they are. Prints both sides' requests per second,
 * the real pages' hit rate (X-Cache) and latency under the flood, and the cache's entries and the answers it had to
 * make (misses, from /metrics). The flood's server keeps BENCH_FLOOD_CACHE_MB (4) of answers: the demo's real answers
 * take 2.6 MB, and a flood of a few seconds then reaches the bound that a longer one reaches at the default 64 MB.
 *
 *   npm run bench:http
 *   BENCH_CONNECTIONS=50 BENCH_DURATION=5 BENCH_ROUNDS=3 BENCH_WORKERS=2 npm run bench:http
 *   BENCH_PHASES=flood BENCH_FLOOD_DURATION=10 npm run bench:http      (no nginx needed)
 *
 * Then (phase `languages`) one language against five (bench/support/languages.ts): BENCH_LANGUAGE_ARTICLES (10,000)
 * articles in English, then the same articles each also in four more languages, each served by a fresh server:
 * how long until it answers its first search, suggestions for different queries, article pages each rendered once
 * and the same page kept, with the ratio of five languages to one.
 *   BENCH_PHASES=languages BENCH_LANGUAGE_ARTICLES=10000 npm run bench:http
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { apiPaths } from '../src/shared/paths.ts';
import { discoverSite, percentile, pick, startSignpost } from './support/traffic.ts';
import { compareLanguages } from './support/languages.ts';
import { measureOwnWork } from './support/own-work.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds each target is loaded in each round. */
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARMUP = 2;
/** `compare` (Signpost against nginx) and `flood` (random query strings and hosts), in this order. */
const PHASES = (process.env.BENCH_PHASES ?? 'own-work,compare,flood,languages')
  .split(',')
  .map((p) => p.trim());
const LANGUAGE_ARTICLES = Number(process.env.BENCH_LANGUAGE_ARTICLES ?? 10_000);
const FLOOD_DURATION = Number(process.env.BENCH_FLOOD_DURATION ?? 10);
const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 32);
const FLOOD_READERS = 8;
const FLOOD_CACHE_MB = process.env.BENCH_FLOOD_CACHE_MB ?? '4';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** Signpost's processes, as nginx's workers: one per core unless told. */
const WORKERS = process.env.BENCH_WORKERS ?? '1';

interface LoadResult {
  rps: number;
  requests: number;
  /** The server's CPU time per answer, in microseconds (NaN where not read). */
  cpuMicros?: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

if (process.env.BENCH_HTTP_LOAD) {
  // The autocannon child: one target, figures on stdout.
  const { default: autocannon } = await import('autocannon');
  const job = JSON.parse(process.env.BENCH_HTTP_LOAD) as {
    url: string;
    headers: Record<string, string>;
    duration: number;
    connections: number;
  };
  const result = await autocannon({
    url: job.url,
    headers: job.headers,
    connections: job.connections,
    duration: job.duration,
  });
  const figures: LoadResult = {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  process.stdout.write(JSON.stringify(figures));
  process.exit(0);
}

const which = (name: string) => {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin', ...(process.env.PATH ?? '').split(':')]) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function waitFor(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** wrk's duration text (e.g. 812.00us, 1.20ms, 2.00s) in milliseconds. */
function wrkMillis(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[
    match[2] as 'us' | 'ms' | 's' | 'm'
  ];
}

/**
 * What a browser sends with a page's request; every request of the comparison carries it (the signed-in line adds
 * its session cookie), so each server answers what it answers browsers: brotli, after negotiating the language.
 */
const BROWSER_HEADERS: [string, string][] = [
  [
    'User-Agent',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  ],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'],
  ['Accept-Language', 'en-GB,en;q=0.9'],
];

/**
 * Where each side runs: the load tool on the last core, the servers on the others (`taskset`), so the load tool
 * takes nothing from the servers and a figure per server process means something on a small machine. Null when
 * there is one core, no taskset, or BENCH_PIN=0.
 */
interface Cores {
  taskset: string;
  load: string;
  servers: string;
  serverCount: number;
}

function coreLayout(): Cores | null {
  const cpus = os.cpus().length;
  const taskset = which('taskset');
  if (process.env.BENCH_PIN === '0' || !taskset || cpus < 2) return null;
  return {
    taskset,
    load: String(cpus - 1),
    servers: cpus === 2 ? '0' : `0-${cpus - 2}`,
    serverCount: cpus - 1,
  };
}

/** The command line that runs `command` on the cores given, or as it is when nothing is pinned. */
const onCores = (cores: Cores | null, which: 'load' | 'servers', command: string[]) =>
  cores ? [cores.taskset, '-c', cores[which], ...command] : command;

interface Target {
  name: string;
  url: string;
  headers: [string, string][];
  /** Server processes answering it, for the figure per process. */
  processes: number;
  /** The server's first process: its CPU time, and its children's, is read around each run. */
  pid: number;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds a process and its descendants have used (Linux's /proc; NaN elsewhere): unlike requests per second,
 * the cost of an answer hardly moves when another tenant takes the machine's cores.
 */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    let ticks = Number(fields[11]) + Number(fields[12]);
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : [])
        ticks += cpuSeconds(Number(child)) * CLOCK_TICKS;
    }
    return ticks / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

function runWrk(wrk: string, target: Target, duration: number, cores: Cores | null): LoadResult {
  const threads = cores ? 1 : Math.max(1, Math.min(2, os.cpus().length));
  const headers = target.headers.flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const [command, ...args] = onCores(cores, 'load', [
    wrk,
    '-t',
    String(threads),
    '-c',
    String(CONNECTIONS),
    '-d',
    `${duration}s`,
    '--latency',
    ...headers,
    target.url,
  ]);
  const output = execFileSync(command as string, args, { encoding: 'utf8' });
  const latency = (label: string) =>
    wrkMillis(new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN),
    p50: latency('50'),
    p99: latency('99'),
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  };
}

async function runAutocannon(target: Target, duration: number, cores: Cores | null): Promise<LoadResult> {
  const [command, ...args] = onCores(cores, 'load', [
    process.execPath,
    '--import',
    'tsx',
    import.meta.filename,
  ]);
  const job = {
    url: target.url,
    headers: Object.fromEntries(target.headers),
    duration,
    connections: CONNECTIONS,
  };
  const child = spawn(command as string, args, {
    env: { ...process.env, BENCH_HTTP_LOAD: JSON.stringify(job) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  return JSON.parse(output) as LoadResult;
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface RawAnswer {
  status: number;
  /** As received: name, value, ... */
  headers: string[];
  body: Buffer;
}

/** One GET with the headers given, on a connection of its own, its body as sent (still compressed). */
function rawGet(url: string, headers: [string, string][]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: Object.fromEntries(headers) }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

const headerOf = (answer: RawAnswer, name: string) => {
  const at = answer.headers.findIndex((value, i) => i % 2 === 0 && value.toLowerCase() === name);
  return at < 0 ? undefined : answer.headers[at + 1];
};

/** Headers Node (or nginx) writes for each answer itself, or that are one answer's own: not replayed. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'x-request-id']);

const keptHeaders = (answer: RawAnswer) =>
  answer.headers.flatMap((value, i, all) =>
    i % 2 === 0 && !TRANSPORT_HEADERS.has(value.toLowerCase()) ? [value, all[i + 1] as string] : [],
  );

/**
 * nginx serving the kept answer's bytes as a static file, with its headers (its own ETag, and a fresh request id
 * per answer as Signpost gives one), one worker per core it may use.
 */
function nginxConfig(work: string, port: number, workers: number, kept: RawAnswer): string {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const added = [];
  for (let i = 0; i < kept.headers.length; i += 2) {
    const name = kept.headers[i] as string;
    const value = kept.headers[i + 1] as string;
    if (['content-type', 'etag'].includes(name.toLowerCase()) || TRANSPORT_HEADERS.has(name.toLowerCase()))
      continue;
    // nginx would read a `$` as a variable; no header Signpost sends has one.
    if (value.includes('$')) throw new Error(`${name} has a $, which nginx cannot send as it is`);
    added.push(`add_header ${name} ${quoted(value)};`);
  }
  return [
    `worker_processes ${workers};`,
    `pid ${path.join(work, 'nginx.pid')};`,
    'daemon off;',
    `error_log ${path.join(work, 'nginx-error.log')} warn;`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    '  sendfile on; tcp_nopush on; keepalive_requests 1000000;',
    `  client_body_temp_path ${work}/tmp-body; proxy_temp_path ${work}/tmp-proxy;`,
    `  fastcgi_temp_path ${work}/tmp-fastcgi; uwsgi_temp_path ${work}/tmp-uwsgi; scgi_temp_path ${work}/tmp-scgi;`,
    `  types {} default_type ${quoted(headerOf(kept, 'content-type') ?? 'text/html')};`,
    `  server { listen 127.0.0.1:${port}; root ${path.join(work, 'site')}; etag on;`,
    `    ${added.join(' ')} add_header X-Request-Id $request_id; }`,
    '}',
  ].join('\n');
}

/** A customer account made as an operator would, signed in through the API: its session cookie. */
async function signedInCookie(base: string, env: Record<string, string>): Promise<string> {
  const email = 'bench-visitor@example.com';
  const password = crypto.randomBytes(12).toString('base64url');
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'bin/signpost.js'),
      'user',
      'add',
      '--email',
      email,
      '--name',
      'Bench Visitor',
      '--password',
      password,
    ],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const response = await fetch(`${base}${apiPaths.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] as string)
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (!response.ok || !cookie) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return cookie;
}

/** Cache misses counted by a server (a render, or a call a render made), from /metrics. */
async function missesOf(base: string): Promise<number> {
  const text = (await rawGet(`${base}/metrics`, [])).body.toString();
  return Number(/^signpost_page_cache_misses_total (\S+)$/m.exec(text)?.[1] ?? NaN);
}

/** The targets' places in the list `compare` loads: the two references, the kept page and the rendered one. */
const NGINX = 0;
const BARE = 1;
const KEPT = 2;
const RENDERED = 3;

/**
 * The two references for the kept article page: the bytes Signpost keeps, served from memory by bare node:http
 * and as a static file by nginx. Their processes are added to `children`, to be stopped by the caller.
 */
async function startReferences(
  work: string,
  kept: RawAnswer,
  setup: {
    nginx: string;
    nginxWorkers: number;
    cores: Cores | null;
    ports: { bare: number; nginx: number };
    children: ChildProcess[];
  },
) {
  const { cores, children } = setup;
  const { bare: barePort, nginx: nginxPort } = setup.ports;
  const answerFile = path.join(work, 'kept-answer.json');
  fs.writeFileSync(
    answerFile,
    JSON.stringify({ status: kept.status, headers: keptHeaders(kept), body: kept.body.toString('base64') }),
  );
  const bare = onCores(cores, 'servers', [
    process.execPath,
    '--import',
    'tsx',
    path.join(ROOT, 'bench/support/bare-server.ts'),
  ]);
  const bareProcess = spawn(bare[0] as string, bare.slice(1), {
    env: { ...process.env, BARE_ANSWER: answerFile, PORT: String(barePort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(bareProcess);
  fs.mkdirSync(path.join(work, 'site'));
  fs.writeFileSync(path.join(work, 'site', 'article'), kept.body);
  const conf = path.join(work, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(work, nginxPort, setup.nginxWorkers, kept));
  const nginxCommand = onCores(cores, 'servers', [setup.nginx, '-c', conf, '-p', work]);
  const nginxProcess = spawn(nginxCommand[0] as string, nginxCommand.slice(1), {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(nginxProcess);
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const nginxUrl = `http://127.0.0.1:${nginxPort}`;
  await waitFor(`${bareUrl}/`);
  await waitFor(`${nginxUrl}/article`);
  return { bareProcess, nginxProcess, bareUrl, nginxUrl };
}

/** Each target's medians over the rounds, and its requests a second against each reference's in the same round. */
function resultsOf(targets: Target[], runs: LoadResult[][]) {
  const ratioTo = (own: LoadResult[], reference: LoadResult[]) => {
    const ratios = own.map((run, round) => run.rps / reference[round]!.rps);
    return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
  };
  return targets.map((target, i) => {
    const own = runs[i]!;
    const rps = median(own.map((run) => run.rps));
    return {
      name: target.name,
      rps,
      perProcess: rps / target.processes,
      p50: median(own.map((run) => run.p50)),
      p99: median(own.map((run) => run.p99)),
      cpuMicros: median(own.map((run) => run.cpuMicros ?? NaN)),
      errors: own.reduce((sum, run) => sum + run.errors, 0),
      non2xx: own.reduce((sum, run) => sum + run.non2xx, 0),
      toBare: ratioTo(own, runs[BARE]!),
      toNginx: ratioTo(own, runs[NGINX]!),
    };
  });
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

/** The table of targets, the renders the cache-off server made, and the targets met or not. */
function printResults(results: ReturnType<typeof resultsOf>, runs: LoadResult[][], renders: number) {
  const ratioCell = (r: { median: number; low: number; high: number }) =>
    `${percent(r.median)} (${percent(r.low)}–${percent(r.high)})`;
  const rows = [
    [
      'target',
      'req/s',
      'per process',
      'p50 ms',
      'p99 ms',
      'CPU µs/req',
      'errors',
      'non-2xx',
      'vs node:http',
      'vs nginx',
    ],
    ...results.map((r) => [
      r.name,
      r.rps.toFixed(0),
      r.perProcess.toFixed(0),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      r.cpuMicros.toFixed(1),
      String(r.errors),
      String(r.non2xx),
      ratioCell(r.toBare),
      ratioCell(r.toNginx),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  const rendered = runs[RENDERED]!.reduce((sum, run) => sum + run.requests, 0);
  console.log(
    `\nthe cache-off server made ${renders} answers (a page and the calls it renders from) for the ` +
      `${rendered} pages it was asked for: ${(renders / Math.max(1, rendered)).toFixed(2)} per page`,
  );
  const keptResult = results[KEPT]!;
  const bareResult = results[BARE]!;
  console.log(
    `targets: kept article page at ${percent(keptResult.toBare.median)} of bare node:http (≥ 85%): ` +
      `${keptResult.toBare.median >= 0.85 ? 'MET' : 'NOT MET'}; p99 ${keptResult.p99.toFixed(2)} ms at ` +
      `${CONNECTIONS} connections (< 10 ms): ${keptResult.p99 < 10 ? 'MET' : 'NOT MET'}; ` +
      `${percent(keptResult.toNginx.median)} of nginx; CPU per kept answer ${keptResult.cpuMicros.toFixed(1)} µs ` +
      `against node:http's ${bareResult.cpuMicros.toFixed(1)} µs (${percent(bareResult.cpuMicros / keptResult.cpuMicros)})`,
  );
}

async function compare() {
  const nginx = which('nginx');
  if (!nginx) throw new Error('nginx is not installed: apt-get install -y nginx-light');
  const wrk = which('wrk');
  const tool = wrk ? 'wrk' : 'autocannon';
  const cores = coreLayout();
  const load = async (target: Target, duration: number): Promise<LoadResult> => {
    const cpuBefore = cpuSeconds(target.pid);
    const result = wrk ? runWrk(wrk, target, duration, cores) : await runAutocannon(target, duration, cores);
    return { ...result, cpuMicros: ((cpuSeconds(target.pid) - cpuBefore) * 1e6) / result.requests };
  };

  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-http-'));
  // nginx's workers run as an unprivileged user: they must be able to read the static copy.
  fs.chmodSync(work, 0o755);
  const [signpostPort, renderPort, barePort, nginxPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const serverEnv = { NODE_ENV: 'production', DATA_DIR: path.join(work, 'data'), WORKERS };
  const serverPrefix = onCores(cores, 'servers', []);
  const signpostWorkers = WORKERS === 'auto' ? (cores?.serverCount ?? os.cpus().length) : Number(WORKERS);
  const nginxWorkers = cores?.serverCount ?? os.cpus().length;

  const signpost = await startSignpost('signpost', signpostPort, serverEnv, serverPrefix);
  const children: ChildProcess[] = [];
  let renderer: Awaited<ReturnType<typeof startSignpost>> | null = null;
  try {
    const { article, articlePath, plain, kept, encoding } = await keptArticle(signpost.url);
    // The same server's cache turned off (CACHE_MAX_MB=0 keeps nothing) on the same database: every request renders.
    renderer = await startSignpost(
      'signpost (cache off)',
      renderPort,
      { ...serverEnv, CACHE_MAX_MB: '0' },
      serverPrefix,
    );
    const cookie = await signedInCookie(signpost.url, serverEnv);
    const signedIn = await rawGet(`${signpost.url}${articlePath}`, [...BROWSER_HEADERS, ['Cookie', cookie]]);
    if (signedIn.status !== 200 || headerOf(signedIn, 'x-cache') !== undefined)
      throw new Error(
        `a signed-in visitor's page: ${signedIn.status}, x-cache ${headerOf(signedIn, 'x-cache')}`,
      );
    const references = await startReferences(work, kept, {
      nginx,
      nginxWorkers,
      cores,
      ports: { bare: barePort, nginx: nginxPort },
      children,
    });
    const targets = targetsOf({
      signpost,
      renderer,
      references,
      article,
      articlePath,
      cookie,
      signpostWorkers,
      nginxWorkers,
    });
    const where = cores
      ? `the load tool pinned to CPU ${cores.load}, the servers to CPU ${cores.servers}`
      : `${os.cpus().length} CPUs shared by the servers and the load tool`;
    console.log(
      `HTTP benchmark: ${tool}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per target after ` +
        `${WARMUP} s of warm-up, medians over the rounds; ${where}; Node ${process.version}; ` +
        `Signpost WORKERS=${WORKERS}, nginx worker_processes ${nginxWorkers}, node:http one process; ` +
        `requests with a browser's headers (Accept-Encoding, Accept-Language); article page ` +
        `${(plain.body.length / 1024).toFixed(1)} KB, sent as ${encoding} (${(kept.body.length / 1024).toFixed(1)} KB) ` +
        `by all three`,
    );
    for (const target of targets) await load(target, WARMUP);
    const rendersBefore = await missesOf(renderer.url);
    const runs: LoadResult[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, target] of targets.entries()) runs[i]!.push(await load(target, DURATION));
    const renders = (await missesOf(renderer.url)) - rendersBefore;
    printResults(resultsOf(targets, runs), runs, renders);
  } finally {
    for (const child of children) await stopped(child);
    await renderer?.stop();
    await signpost.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * What `compare` loads, in order: the two references (NGINX, BARE), the kept article page (KEPT), the same page
 * rendered (RENDERED), a signed-in visitor's, the home page, the article's JSON call and a suggestions call.
 */
function targetsOf(of: {
  signpost: Awaited<ReturnType<typeof startSignpost>>;
  renderer: Awaited<ReturnType<typeof startSignpost>>;
  references: Awaited<ReturnType<typeof startReferences>>;
  article: { id: number; title: string };
  articlePath: string;
  cookie: string;
  signpostWorkers: number;
  nginxWorkers: number;
}): Target[] {
  const { signpost, renderer, references, article, articlePath, cookie, signpostWorkers, nginxWorkers } = of;
  const browser = (
    name: string,
    url: string,
    server: ChildProcess = signpost.child,
    processes = signpostWorkers,
  ): Target => ({ name, url, headers: BROWSER_HEADERS, processes, pid: server.pid ?? 0 });
  return [
    browser(
      'nginx: the kept bytes as a static file',
      `${references.nginxUrl}/article`,
      references.nginxProcess,
      nginxWorkers,
    ),
    browser(
      'node:http: the kept bytes from memory',
      `${references.bareUrl}${articlePath}`,
      references.bareProcess,
      1,
    ),
    browser('signpost: article page, kept', `${signpost.url}${articlePath}`),
    browser('signpost: article page, rendered (cache off)', `${renderer.url}${articlePath}`, renderer.child),
    {
      ...browser("signpost: article page, signed-in visitor's", `${signpost.url}${articlePath}`),
      headers: [...BROWSER_HEADERS, ['Cookie', cookie]],
    },
    browser('signpost: home page, kept', `${signpost.url}/knowledge/`),
    browser('signpost: article JSON call, kept', `${signpost.url}/api/knowledge/instruction/${article.id}`),
    browser(
      'signpost: suggestions call, kept',
      `${signpost.url}/api/search/knowledge/suggestions?text=${encodeURIComponent(article.title.split(' ')[0] ?? 'help')}&limit=10`,
    ),
  ];
}

/** The demo's first article (loaded on first start), its page as sent plainly and as kept for a browser. */
async function keptArticle(url: string) {
  const bundle = (await (await fetch(`${url}/api/knowledge/instruction`)).json()) as {
    items: { id: number; title: string }[];
  };
  const article = bundle.items[0];
  if (!article) throw new Error('the demo content has no article');
  const articlePath = `/knowledge/instruction/${article.id}`;
  const plain = await rawGet(`${url}${articlePath}`, []);
  await rawGet(`${url}${articlePath}`, BROWSER_HEADERS);
  const kept = await rawGet(`${url}${articlePath}`, BROWSER_HEADERS);
  if (headerOf(kept, 'x-cache') !== 'hit') throw new Error('the article page was not answered from memory');
  const encoding = headerOf(kept, 'content-encoding') ?? 'none';
  return { article, articlePath, plain, kept, encoding };
}

interface Answer {
  status: number;
  hit: boolean;
  ms: number;
}

/**
 * One GET on a kept-alive connection, with the Host header given, its body read and dropped; `compressed` asks
 * for brotli as browsers do (a flood does not: an answer sent plain costs the server less).
 */
function get(
  agent: http.Agent,
  port: number,
  target: string,
  host: string,
  compressed: boolean,
): Promise<Answer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {
      host,
      ...(compressed ? { 'accept-encoding': 'br, gzip' } : {}),
    };
    const request = http.get({ agent, host: '127.0.0.1', port, path: target, headers }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          hit: response.headers['x-cache'] === 'hit',
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    request.on('error', reject);
  });
}

/** The cache's own figures, from /metrics. */
async function cacheFigures(base: string) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    entries: sample('signpost_page_cache_entries'),
    bytes: sample('signpost_page_cache_bytes'),
    misses: sample('signpost_page_cache_misses_total'),
  };
}

/** What a scanner, a tracking-link campaign or an attacker sends: real paths, junk parameters, any host. */
function junk(target: string): { target: string; host: string; compressed: boolean } {
  const token = () => crypto.randomBytes(6).toString('base64url');
  const params = `utm_source=${token()}&fbclid=${token()}`;
  return {
    target: `${target}${target.includes('?') ? '&' : '?'}${params}`,
    host: `${token().toLowerCase()}.example`,
    compressed: false,
  };
}

async function flood() {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-flood-'));
  const port = await freePort();
  const server = await startSignpost('signpost', port, {
    NODE_ENV: 'production',
    DATA_DIR: path.join(work, 'data'),
    WORKERS,
    CACHE_MAX_MB: FLOOD_CACHE_MB,
  });
  const host = `127.0.0.1:${port}`;
  try {
    const site = await discoverSite(server.url);
    const real = [...site.pages, ...site.calls];
    const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS + FLOOD_READERS });
    for (const target of real) await get(agent, port, target, host, true);
    const before = await cacheFigures(server.url);

    const readers: Answer[] = [];
    const flooders: Answer[] = [];
    let failures = 0;
    const deadline = Date.now() + FLOOD_DURATION * 1000;
    const loop = async (
      answers: Answer[],
      next: () => { target: string; host: string; compressed: boolean },
    ) => {
      while (Date.now() < deadline) {
        const { target, host: asHost, compressed } = next();
        try {
          answers.push(await get(agent, port, target, asHost, compressed));
        } catch {
          failures++;
        }
      }
    };
    let turn = 0;
    await Promise.all([
      ...Array.from({ length: FLOOD_READERS }, () =>
        loop(readers, () => ({ target: real[turn++ % real.length]!, host, compressed: true })),
      ),
      ...Array.from({ length: FLOOD_CONNECTIONS }, () => loop(flooders, () => junk(pick(real)))),
    ]);
    const after = await cacheFigures(server.url);
    agent.destroy();

    console.log(
      `\nFlood: ${FLOOD_DURATION} s; ${FLOOD_CONNECTIONS} connections ask for the ${real.length} real pages and ` +
        `calls with random query strings and random Host headers while ${FLOOD_READERS} connections read them as ` +
        `they are; CACHE_MAX_MB=${FLOOD_CACHE_MB}, WORKERS=${WORKERS}, Node's http client in this process`,
    );
    const row = (name: string, answers: Answer[]) => {
      const ms = answers.map((a) => a.ms);
      const hits = answers.filter((a) => a.hit).length;
      const bad = answers.filter((a) => a.status >= 400 && a.status !== 404).length;
      return [
        name,
        String(answers.length),
        (answers.length / FLOOD_DURATION).toFixed(0),
        `${((hits / Math.max(1, answers.length)) * 100).toFixed(1)}%`,
        percentile(ms, 50).toFixed(2),
        percentile(ms, 99).toFixed(2),
        String(bad),
      ];
    };
    const rows = [
      ['', 'requests', 'req/s', 'hit rate', 'p50 ms', 'p99 ms', 'errors'],
      row('real pages and calls', readers),
      row('flood (junk query, any host)', flooders),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
    console.log(
      `cache: ${before.entries} entries (${(before.bytes / 1048576).toFixed(1)} MB) before the flood, ` +
        `${after.entries} (${(after.bytes / 1048576).toFixed(1)} MB) after; answers made during the flood ` +
        `(misses): ${after.misses - before.misses}; connection failures: ${failures}`,
    );
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (PHASES.includes('own-work')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-own-work-'));
  try {
    await measureOwnWork(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (PHASES.includes('compare')) await compare();
if (PHASES.includes('flood')) await flood();
if (PHASES.includes('languages')) {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-languages-'));
  try {
    await compareLanguages({ articles: LANGUAGE_ARTICLES, workDir, parts: ['served'] });
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
