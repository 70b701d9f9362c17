/**
 * Fault benchmark: two `signpost serve` processes on one PostgreSQL database (a new database, dropped at the end),
 * behind a small load balancer in this script that alternates between them and stops sending to a server that
 * refuses connections. Under steady load (pages, API calls, suggestions, support requests with and without a
 * small upload), three faults in turn:
 *
 *   (a) restart   PostgreSQL is restarted (pg_ctlcluster ... restart: every connection is cut)
 *   (b) pause     PostgreSQL's processes are frozen with SIGSTOP for 10 s, then SIGCONT
 *   (c) kill      one of the two servers is killed with SIGKILL; the other carries the load
 *
 * Prints per phase the requests, the errors (503 answers, requests cut off), the slowest answer and the time from
 * the database's return to the last error; then whether every support request answered 201 is in the database
 * (none may be lost) and was delivered to the webhook, and whether the surviving server is still running.
 * Targets: no acknowledged request lost, no server crash, no answer slower than a few seconds, recovery within 5 s.
 *
 * It restarts and freezes the local PostgreSQL server, which other work on the machine may share: run it rarely.
 * PostgreSQL is always resumed and started again at the end, whatever happens.
 *
 *   npm run bench:faults
 *   BENCH_PHASES=kill npm run bench:faults           (PostgreSQL left alone)
 *   BENCH_PG_CLUSTER=15/main BENCH_PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:faults
 */
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  discoverSite,
  percentile,
  pick,
  read,
  startSignpost,
  suggest,
  supportRequest,
  type Outcome,
  type Server,
  type Site,
} from './support/traffic.ts';

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RATE = Number(process.env.BENCH_RATE ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 12);
/** Which faults to cause, in order (e.g. BENCH_PHASES=kill to leave PostgreSQL alone). */
const PHASES = (process.env.BENCH_PHASES ?? 'restart,pause,kill').split(',').map((p) => p.trim());
const PAUSE_MS = 10_000;
const SETTLE_MS = 8_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

// ---- the local PostgreSQL server: which cluster, its processes, and putting it back as it was ----

function findCluster(): { version: string; name: string; dataDir: string } {
  const lines = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' }).trim().split('\n');
  const wanted = process.env.BENCH_PG_CLUSTER?.split('/');
  for (const line of lines) {
    const [version = '', name = '', , status = '', , dataDir = ''] = line.trim().split(/\s+/);
    if (wanted ? version === wanted[0] && name === wanted[1] : status === 'online')
      return { version, name, dataDir };
  }
  throw new Error('no PostgreSQL cluster found online (pg_lsclusters); set BENCH_PG_CLUSTER=VERSION/NAME');
}

const cluster = findCluster();
const frozen = new Set<number>();

function postgresProcesses(): number[] {
  const postmaster = Number(
    fs.readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  return [postmaster, ...children];
}

function isReady(): boolean {
  try {
    execFileSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', new URL(ADMIN_URL).port || '5432']);
    return true;
  } catch {
    return false;
  }
}

/** Whatever happened: every frozen process resumed, the cluster started if it is down, and answering. */
async function restorePostgres(): Promise<void> {
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // gone
    }
  }
  frozen.clear();
  for (let i = 0; i < 100 && !isReady(); i++) {
    if (i === 20) {
      try {
        execFileSync('pg_ctlcluster', [cluster.version, cluster.name, 'start'], { stdio: 'ignore' });
      } catch {
        // already starting
      }
    }
    await sleep(300);
  }
}

let restoring: Promise<void> | null = null;
const emergency = (signal: string) => {
  restoring ??= restorePostgres().finally(() => process.exit(signal === 'exit' ? 1 : 130));
};
process.on('SIGINT', () => emergency('SIGINT'));
process.on('SIGTERM', () => emergency('SIGTERM'));

// ---- a database of its own, two servers, a webhook receiver ----

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databaseName = `signpost_faults_${crypto.randomBytes(4).toString('hex')}`;
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = `/${databaseName}`;

const delivered = new Set<number>();
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    try {
      delivered.add(Number(JSON.parse(body).ticket.id));
    } catch {
      // not a ticket
    }
    response.writeHead(204).end();
  });
});

const dataDirs: string[] = [];
const servers: (Server & { downUntil: number })[] = [];

async function startServers(): Promise<Site> {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    CAPTCHA_PROVIDER: 'none',
    REQUESTS_PER_HOUR: '100000000',
    UPLOADS_PER_HOUR: '100000000',
    TICKET_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  };
  const base = 20_000 + Math.floor(Math.random() * 20_000);
  for (const [i, name] of ['A', 'B'].entries()) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `signpost-faults-${name}-`));
    dataDirs.push(dataDir);
    // One after the other: the first loads the demo help centre.
    servers.push({ ...(await startSignpost(name, base + i, { ...env, DATA_DIR: dataDir })), downUntil: 0 });
  }
  return discoverSite(servers[0]?.url ?? '');
}

// ---- the load, through a load balancer that alternates and notices a server refusing connections ----

interface Result {
  start: number;
  end: number;
  kind: string;
  server: string;
  outcome: Outcome;
  rerouted: boolean;
}
const results: Result[] = [];
const acknowledged: number[] = [];
let running = true;
let turn = 0;
let requestNumber = 0;

async function balanced(send: (base: string) => Promise<Outcome>): Promise<[string, Outcome, boolean]> {
  let rerouted = false;
  for (let attempt = 0; attempt < servers.length; attempt++) {
    const live = servers.filter((s) => s.downUntil <= Date.now());
    const server = (live.length ? live : servers)[
      turn++ % (live.length || servers.length)
    ] as (typeof servers)[0];
    const outcome = await send(server.url);
    // Refused: nothing was sent, so the balancer tries the other server, and leaves this one alone for a while.
    if (outcome.error === 'ECONNREFUSED') {
      server.downUntil = Date.now() + 5_000;
      rerouted = true;
      continue;
    }
    return [server.name, outcome, rerouted];
  }
  return ['none', { status: 0, error: 'ECONNREFUSED' }, rerouted];
}

async function visitor(site: Site) {
  const interval = (CONCURRENCY / RATE) * 1000;
  while (running) {
    const start = Date.now();
    const roll = Math.random();
    const n = ++requestNumber;
    const [kind, send]: [string, (base: string) => Promise<Outcome>] =
      roll < 0.35
        ? ['page', (base) => read(base, pick(site.pages))]
        : roll < 0.65
          ? ['api', (base) => read(base, pick(site.calls))]
          : roll < 0.8
            ? ['suggest', (base) => suggest(base, site.words)]
            : ['request', (base) => supportRequest(base, n, roll < 0.9)];
    const [server, outcome, rerouted] = await balanced(send);
    if (outcome.ticketId !== undefined) acknowledged.push(outcome.ticketId);
    results.push({ start, end: Date.now(), kind, server, outcome, rerouted });
    await sleep(Math.max(0, interval - (Date.now() - start)));
  }
}

// ---- the phases ----

interface Phase {
  name: string;
  start: number;
  /** When the fault was over: the database answering again, or (kill) the moment of the kill. */
  back: number;
  end: number;
}
const phases: Phase[] = [];

async function phase(name: string, fault: () => Promise<void>, settleMs = SETTLE_MS): Promise<void> {
  const start = Date.now();
  await fault();
  const back = Date.now();
  await sleep(settleMs);
  phases.push({ name, start, back, end: Date.now() });
  console.log(`${name}: done`);
}

const failed = (r: Result) => !(r.outcome.status >= 200 && r.outcome.status < 400);

function report(): void {
  console.log('');
  console.log('phase     requests  errors  503s  cut off  rerouted  slowest  p99     last error after back');
  for (const p of phases) {
    const these = results.filter((r) => r.start >= p.start && r.start < p.end);
    const errors = these.filter(failed);
    const lastError = Math.max(...errors.map((r) => r.end), 0);
    const latencies = these.map((r) => r.end - r.start);
    const recovery = errors.length ? `${Math.max(0, lastError - p.back)} ms` : '-';
    console.log(
      [
        p.name.padEnd(9),
        String(these.length).padStart(8),
        String(errors.length).padStart(7),
        String(errors.filter((r) => r.outcome.status === 503).length).padStart(5),
        String(errors.filter((r) => r.outcome.status === 0).length).padStart(8),
        String(these.filter((r) => r.rerouted).length).padStart(9),
        `${Math.max(0, ...latencies)} ms`.padStart(8),
        `${percentile(latencies, 99)} ms`.padStart(7),
        `  ${recovery}`,
      ].join(' '),
    );
    const others = errors.filter((r) => r.outcome.status !== 503 && r.outcome.status !== 0);
    if (others.length)
      console.log(`          other errors: ${JSON.stringify(others.slice(0, 3).map((r) => r.outcome))}`);
  }
}

let exitCode = 1;
try {
  if (!isReady()) throw new Error('PostgreSQL is not answering before the benchmark; not starting');
  await admin((client) => client.query(`create database ${databaseName}`));
  const site = await startServers();
  console.log(
    `faults: two servers on database ${databaseName} (cluster ${cluster.version}/${cluster.name}), ` +
      `~${RATE} req/s from ${CONCURRENCY} visitors`,
  );
  const visitors = Array.from({ length: CONCURRENCY }, () => visitor(site));

  await phase('steady', async () => {}, 5_000);
  if (PHASES.includes('restart')) {
    await phase('restart', async () => {
      await run('pg_ctlcluster', [cluster.version, cluster.name, 'restart']);
    });
  }
  if (PHASES.includes('pause'))
    await phase('pause', async () => {
      for (const pid of postgresProcesses()) {
        frozen.add(pid);
        process.kill(pid, 'SIGSTOP');
      }
      await sleep(PAUSE_MS);
      await restorePostgres();
    });
  if (PHASES.includes('kill')) {
    await phase(
      'kill',
      async () => {
        servers[1]?.child.kill('SIGKILL');
      },
      10_000,
    );
  }
  running = false;
  await Promise.all(visitors);
  report();

  const db = new pg.Client({ connectionString: databaseUrl.toString() });
  await db.connect();
  const stored = new Set(
    (await db.query<{ id: number }>('select id from tickets')).rows.map((row) => Number(row.id)),
  );
  await db.end();
  const lost = acknowledged.filter((id) => !stored.has(id));
  for (let i = 0; i < 300 && acknowledged.some((id) => !delivered.has(id)); i++) await sleep(100);
  const notDelivered = acknowledged.filter((id) => !delivered.has(id));
  const survivor = servers[0];
  const alive = survivor?.child.exitCode === null && survivor.child.signalCode === null;
  const slowest = Math.max(...results.map((r) => r.end - r.start));
  const recoveries = phases
    .filter((p) => p.name === 'restart' || p.name === 'pause')
    .map((p) => {
      const errors = results.filter((r) => r.start >= p.start && r.start < p.end && failed(r));
      return errors.length ? Math.max(0, Math.max(...errors.map((r) => r.end)) - p.back) : 0;
    });

  console.log('');
  console.log(
    `support requests acknowledged (201): ${acknowledged.length}; in the database: ${acknowledged.length - lost.length}; lost: ${lost.length}`,
  );
  console.log(
    `tickets in the database: ${stored.size} (acknowledged or not; a request cut off may still have been stored)`,
  );
  console.log(
    `delivered to the webhook: ${acknowledged.length - notDelivered.length} of ${acknowledged.length}`,
  );
  console.log(`server A still running: ${alive ? 'yes' : `NO\n${survivor?.output()}`}`);
  console.log(
    `slowest answer: ${slowest} ms; recovery after the database came back: ${recoveries.map((ms) => `${ms} ms`).join(', ')}`,
  );
  const ok = lost.length === 0 && alive && recoveries.every((ms) => ms < 5_000) && slowest < 10_000;
  console.log(ok ? 'faults passed' : 'FAULTS FAILED');
  exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(error);
} finally {
  running = false;
  await restorePostgres();
  for (const server of servers) await server.stop();
  receiver.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  await admin((client) => client.query(`drop database if exists ${databaseName} with (force)`)).catch(
    (error: unknown) => console.error(`could not drop ${databaseName}:`, error),
  );
  console.log(`PostgreSQL ${isReady() ? 'is running and answering' : 'IS NOT ANSWERING'}`);
}
process.exit(exitCode);
