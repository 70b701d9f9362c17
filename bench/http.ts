/**
 * HTTP benchmark: Signpost's public answers against nginx serving the same bytes from disk, in one run, with the
 * same load on loopback.
 *
 * It starts `signpost serve` (production build, SQLite, demo content) and nginx (a throw-away configuration in a
 * temporary folder; the apt package `nginx-light` or `nginx`), saves the article page as Signpost renders it into
 * nginx's folder, then loads each target in turn: nginx's static copy, the article page, the home page, the
 * article's JSON call and the suggestions call. Each is warmed for 2 s, then measured. Shared machines are noisy
 * (another tenant's burst can halve a run), so the targets are measured in ROUNDS rounds, nginx first in each, and
 * each figure is the median over the rounds; a ratio to nginx is taken within each round, against the nginx run
 * just before it, and its median and range are printed. The load tool is wrk when
 * installed (the apt package `wrk`), else autocannon in a separate process; both share the machine's cores with
 * the servers, as the figures below say.
 *
 * Prints requests per second, p50 and p99 latency and errors for each, and the ratio of each to nginx.
 * Targets: the cached article page at least 50% of nginx's throughput, and its p99 under 10 ms at 50 connections.
 *
 * Signpost runs as one process (WORKERS=1; BENCH_WORKERS to change) against nginx with one worker per core: on a
 * small machine the load tool needs a core too, and more server processes than cores only lengthen the queue (on
 * this 2-core machine WORKERS=2 gave the same throughput with a p99 of 22 ms instead of 6). On a machine with cores
 * to spare, give Signpost as many workers as nginx.
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
import { discoverSite, percentile, pick, startSignpost } from './support/traffic.ts';
import { compareLanguages } from './support/languages.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds each target is loaded in each round. */
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARMUP = 2;
/** `compare` (Signpost against nginx) and `flood` (random query strings and hosts), in this order. */
const PHASES = (process.env.BENCH_PHASES ?? 'compare,flood,languages').split(',').map((p) => p.trim());
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
    duration: number;
    connections: number;
  };
  const result = await autocannon({ url: job.url, connections: job.connections, duration: job.duration });
  const figures: LoadResult = {
    rps: result.requests.average,
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

function runWrk(wrk: string, url: string, duration: number): LoadResult {
  const threads = String(Math.max(1, Math.min(2, os.cpus().length)));
  const output = execFileSync(
    wrk,
    ['-t', threads, '-c', String(CONNECTIONS), '-d', `${duration}s`, '--latency', url],
    { encoding: 'utf8' },
  );
  const latency = (label: string) =>
    wrkMillis(new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN),
    p50: latency('50'),
    p99: latency('99'),
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  };
}

async function runAutocannon(url: string, duration: number): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    env: { ...process.env, BENCH_HTTP_LOAD: JSON.stringify({ url, duration, connections: CONNECTIONS }) },
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

async function compare() {
  const nginx = which('nginx');
  if (!nginx) throw new Error('nginx is not installed: apt-get install -y nginx-light');
  const wrk = which('wrk');
  const tool = wrk ? 'wrk' : 'autocannon';
  const load = (url: string, duration: number) =>
    wrk ? runWrk(wrk, url, duration) : runAutocannon(url, duration);

  execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-web-build.js')], { stdio: 'inherit' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-http-'));
  // nginx's workers run as an unprivileged user: they must be able to read the static copy.
  fs.chmodSync(work, 0o755);
  const signpostPort = await freePort();
  const nginxPort = await freePort();
  const signpostUrl = `http://127.0.0.1:${signpostPort}`;
  const nginxUrl = `http://127.0.0.1:${nginxPort}`;

  const signpost = spawn(process.execPath, [path.join(ROOT, 'bin/signpost.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATA_DIR: path.join(work, 'data'),
      PORT: String(signpostPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let nginxProcess: ChildProcess | null = null;
  try {
    await waitFor(`${signpostUrl}/api/settings/branding`);
    // The demo is loaded on first start; take its first article with a body worth reading.
    const bundle = (await (await fetch(`${signpostUrl}/api/knowledge/instruction`)).json()) as {
      items: { id: number; title: string }[];
    };
    const article = bundle.items[0];
    if (!article) throw new Error('the demo content has no article');
    const articlePath = `/knowledge/instruction/${article.id}`;
    const page = Buffer.from(await (await fetch(`${signpostUrl}${articlePath}`)).arrayBuffer());

    const site = path.join(work, 'site');
    fs.mkdirSync(site, { recursive: true });
    fs.writeFileSync(path.join(site, 'article.html'), page);
    const conf = path.join(work, 'nginx.conf');
    fs.writeFileSync(
      conf,
      [
        `worker_processes ${os.cpus().length};`,
        `pid ${path.join(work, 'nginx.pid')};`,
        'daemon off;',
        `error_log ${path.join(work, 'nginx-error.log')} warn;`,
        'events { worker_connections 4096; }',
        'http {',
        '  access_log off;',
        '  sendfile on; tcp_nopush on; keepalive_requests 1000000;',
        `  client_body_temp_path ${work}/tmp-body; proxy_temp_path ${work}/tmp-proxy;`,
        `  fastcgi_temp_path ${work}/tmp-fastcgi; uwsgi_temp_path ${work}/tmp-uwsgi; scgi_temp_path ${work}/tmp-scgi;`,
        `  server { listen 127.0.0.1:${nginxPort}; root ${site}; default_type text/html; etag on; }`,
        '}',
      ].join('\n'),
    );
    nginxProcess = spawn(nginx, ['-c', conf, '-p', work], { stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(`${nginxUrl}/article.html`);

    const targets = [
      { name: 'nginx: the article page as a static file', url: `${nginxUrl}/article.html` },
      { name: 'signpost: article page (cached render)', url: `${signpostUrl}${articlePath}` },
      { name: 'signpost: home page', url: `${signpostUrl}/knowledge/` },
      { name: 'signpost: article JSON call', url: `${signpostUrl}/api/knowledge/instruction/${article.id}` },
      {
        name: 'signpost: suggestions call',
        url: `${signpostUrl}/api/search/knowledge/suggestions?text=${encodeURIComponent(article.title.split(' ')[0] ?? 'help')}&limit=10`,
      },
    ];
    console.log(
      `HTTP benchmark: ${tool}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s per target after ` +
        `${WARMUP} s of warm-up, medians over the rounds; ` +
        `${os.cpus().length} CPUs shared by the servers and the load tool; Node ${process.version}; ` +
        `Signpost WORKERS=${WORKERS}, nginx worker_processes ${os.cpus().length}; ` +
        `article page ${(page.length / 1024).toFixed(1)} KB, sent uncompressed to both`,
    );
    for (const target of targets) await load(target.url, WARMUP);
    const runs: LoadResult[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, target] of targets.entries()) runs[i]!.push(await load(target.url, DURATION));

    const nginxRuns = runs[0]!;
    const results = targets.map((target, i) => {
      const own = runs[i]!;
      const ratios = own.map((run, round) => run.rps / nginxRuns[round]!.rps);
      return {
        name: target.name,
        rps: median(own.map((run) => run.rps)),
        p50: median(own.map((run) => run.p50)),
        p99: median(own.map((run) => run.p99)),
        errors: own.reduce((sum, run) => sum + run.errors, 0),
        non2xx: own.reduce((sum, run) => sum + run.non2xx, 0),
        ratio: median(ratios),
        ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      };
    });
    const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
    const rows = [
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs nginx', 'rounds'],
      ...results.map((r) => [
        r.name,
        r.rps.toFixed(0),
        r.p50.toFixed(2),
        r.p99.toFixed(2),
        String(r.errors),
        String(r.non2xx),
        percent(r.ratio),
        `${percent(r.ratioRange[0]!)}–${percent(r.ratioRange[1]!)}`,
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
    const articleResult = results[1]!;
    console.log(
      `\ntargets: article page at ${percent(articleResult.ratio)} of nginx's throughput (≥ 50%): ${articleResult.ratio >= 0.5 ? 'MET' : 'NOT MET'}; ` +
        `p99 ${articleResult.p99.toFixed(2)} ms at ${CONNECTIONS} connections (< 10 ms): ${articleResult.p99 < 10 ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    if (nginxProcess) await stopped(nginxProcess);
    await stopped(signpost);
    fs.rmSync(work, { recursive: true, force: true });
  }
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
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-web-build.js')], { stdio: 'inherit' });
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

if (PHASES.includes('compare')) await compare();
if (PHASES.includes('flood')) await flood();
if (PHASES.includes('languages')) {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-web-build.js')], { stdio: 'inherit' });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-languages-'));
  try {
    await compareLanguages({ articles: LANGUAGE_ARTICLES, workDir, parts: ['served'] });
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
