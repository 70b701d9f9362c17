/**
 * The team's inbox at scale: 100,000 requests and 500,000 messages on SQLite and on PostgreSQL, then over HTTP on a
 * real server: the inbox list (first page, a later page, by status), a full-text search (a rare word, a common
 * word, two words, a word's start), and one request's thread. Prints p50/p99 for each, and their ratio to a
 * reference measured in the same run (GET /healthz, the cheapest answer). Then the time from a team reply to its
 * email leaving the outbox, through a real SMTP server.
 *
 *   npm run bench:inbox
 *   BENCH_TICKETS=20000 BENCH_DATABASES=sqlite npm run bench:inbox
 *   BENCH_DATABASE_URL=postgres://... (default postgres://postgres@127.0.0.1:5432/test; a fresh schema, dropped after)
 *   BENCH_KEEP=1 keeps the SQLite folder and the PostgreSQL schema, to look at their plans afterwards
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createPasswords } from '../src/server/accounts/password.ts';
import { loadConfig } from '../src/server/config/config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/server/db/database.ts';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const MESSAGES_PER_TICKET = 5;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const root = path.resolve(import.meta.dirname, '..');

/** A vocabulary with a long tail, as support mail has: a few words everywhere, most words rare. */
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 997}`);
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
/** Word i is drawn with a probability falling as 1/(i+1) (Zipf). */
const word = () =>
  VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(Math.exp(random() * Math.log(5000)) - 1))]!;
const sentence = (length: number) => Array.from({ length }, word).join(' ');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function fill(handle: DatabaseHandle, agentId: number): Promise<void> {
  const started = performance.now();
  const now = Date.now();
  const batch = handle.dialect === 'postgres' ? 1000 : 500;
  const statuses = ['new', 'open', 'waiting', 'solved', 'closed'] as const;
  await handle.db.transaction().execute(async (trx) => {
    for (let first = 1; first <= TICKETS; first += batch) {
      const rows = [];
      for (let id = first; id < first + batch && id <= TICKETS; id++) {
        const created = now - (TICKETS - id) * 60_000;
        rows.push({
          id,
          title: sentence(5),
          description: sentence(40),
          name: `Customer ${id % 20_000}`,
          email: `customer${id % 20_000}@example.com`,
          channel: 'web',
          user_id: null,
          lang: 'en',
          created_at: created,
          status: statuses[id % 5]!,
          assignee_id: id % 3 === 0 ? agentId : null,
          updated_at: created + 30_000,
        });
      }
      await trx.insertInto('tickets').values(rows).execute();
      const messages = rows.flatMap((ticket) =>
        Array.from({ length: MESSAGES_PER_TICKET }, (_, m) => {
          const text = sentence(30);
          return {
            ticket_id: ticket.id,
            author_id: m % 2 === 0 ? agentId : null,
            author_name: m % 2 === 0 ? 'Dana Desk' : ticket.name,
            from_team: m % 2 === 0 ? 1 : 0,
            internal: m === 4 ? 1 : 0,
            body_text: text,
            body_html: `<p>${text}</p>`,
            created_at: Number(ticket.created_at) + (m + 1) * 1000,
          };
        }),
      );
      for (let i = 0; i < messages.length; i += batch)
        await trx
          .insertInto('ticket_messages')
          .values(messages.slice(i, i + batch) as never)
          .execute();
    }
  });
  if (handle.dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('tickets', 'id'), ${TICKETS})`.execute(handle.db);
    await sql`analyze`.execute(handle.db);
  } else await sql`analyze`.execute(handle.db);
  console.log(
    `  filled ${TICKETS.toLocaleString()} requests and ${(TICKETS * MESSAGES_PER_TICKET).toLocaleString()} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  // The command runs the built server: built first when missing or older than the sources.
  execFileSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  const child = spawn(process.execPath, [path.join(root, 'bin/signpost.js'), 'serve'], {
    env,
    stdio: 'inherit',
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

async function timeCalls(label: string, urls: () => string, token: string, reference: number) {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const url = urls();
    const started = performance.now();
    const response = await fetch(url, { headers: { 'x-auth-token': token } });
    const body = (await response.json()) as { _meta?: { totalCount: number } };
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    total += body._meta?.totalCount ?? 0;
  }
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  console.log(
    `  ${label.padEnd(44)} p50 ${ms(p50).padStart(9)}  p99 ${ms(p99).padStart(9)}  (${(p99 / reference).toFixed(1)}x the reference's p99)${total ? `  ~${Math.round(total / SAMPLES).toLocaleString()} found` : ''}${p99 <= 50 ? '' : '  ABOVE 50 ms'}`,
  );
}

/** A schema of its own on the PostgreSQL database, and the URL that reads it. */
async function createSchema(schema: string): Promise<string> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** A mail server that keeps nothing but when each message arrived (in `mails`). */
async function startMailSink(mails: number[]) {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        mails.push(performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  return smtp;
}

/** The database migrated and filled, with the agent the calls sign in as, then vacuumed as autovacuum would. */
async function prepareDatabase(env: Record<string, string>, databaseUrl: string | undefined) {
  // The fill's batches of a thousand rows with their triggers may outlast a request's statement timeout on a busy
  // machine; the server started below keeps the default.
  const config = loadConfig({ ...env, DATABASE_TIMEOUT_MS: '600000' });
  const handle = openDatabase(config.database);
  await migrateToLatest(handle);
  const passwords = createPasswords(config.passwords);
  const agent = await handle.db
    .insertInto('users')
    .values({
      email: 'desk@example.com',
      name: 'Dana Desk',
      password_hash: await passwords.hash('bench password 1'),
      role: 'agent',
      email_verified_at: Date.now(),
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await fill(handle, agent.id);
  await handle.close();
  if (databaseUrl) {
    // What autovacuum does to tables soon after a bulk load: the visibility map that lets counts and searches
    // read indexes without visiting every row. Longer than a request's statement timeout, so on its own client.
    const vacuum = new pg.Client({ connectionString: databaseUrl });
    await vacuum.connect();
    await vacuum.query('set statement_timeout = 0');
    await vacuum.query('vacuum analyze');
    await vacuum.end();
  }
}

/** The inbox's calls, each line against the reference: the cheapest answer of the same server. */
async function timeInbox(base: string, token: string) {
  const reference: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    reference.push(performance.now() - started);
  }
  const referenceP99 = percentile(reference, 99);
  console.log(
    `  reference GET /healthz                        p50 ${ms(percentile(reference, 50)).padStart(9)}  p99 ${ms(referenceP99).padStart(9)}`,
  );
  const list = `${base}/api/admin/tickets`;
  const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)]!;
  const calls: [string, () => string][] = [
    ['inbox, first page', () => list],
    ['inbox, page 1-50', () => `${list}?page=${1 + Math.floor(Math.random() * 50)}`],
    ['inbox by status, given to me', () => `${list}?status=${pick(['new', 'open', 'waiting'])}&assignee=me`],
    ['search, a rare word', () => `${list}?q=${pick(VOCABULARY.slice(2000))}`],
    ['search, a common word', () => `${list}?q=${pick(VOCABULARY.slice(0, 20))}`],
    [
      'search, two words',
      () => `${list}?q=${pick(VOCABULARY.slice(0, 200))}+${pick(VOCABULARY.slice(0, 200))}`,
    ],
    [
      'search, a word\u2019s start (therm*)',
      () => `${list}?q=${pick(VOCABULARY.slice(100, 1000)).slice(0, 5)}*`,
    ],
    ['search, an email', () => `${list}?q=customer${Math.floor(Math.random() * 20_000)}@example.com`],
    ['one thread', () => `${list}/${1 + Math.floor(Math.random() * TICKETS)}`],
  ];
  for (const [label, url] of calls) await timeCalls(label, url, token, referenceP99);
}

/** A reply's way out: from the answer to the reply until the mail server has the message. */
async function timeReplies(base: string, token: string, mails: number[]) {
  const list = `${base}/api/admin/tickets`;
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    const before = mails.length;
    const started = performance.now();
    // A new request each time (status follows id % 5: 0 is new), so none of them is closed.
    const id = TICKETS - (TICKETS % 5) - i * 5;
    const response = await fetch(`${list}/${id}/messages`, {
      method: 'POST',
      headers: { 'x-auth-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ body: `Reply ${i}: ${sentence(20)}`, internal: false }),
    });
    if (!response.ok) throw new Error(`reply: ${response.status} ${await response.text()}`);
    while (mails.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    delays.push(mails[before]! - started);
  }
  console.log(
    `  a reply until its email leaves the outbox     p50 ${ms(percentile(delays, 50)).padStart(9)}  max ${ms(Math.max(...delays)).padStart(9)}  (the worker looks every second)`,
  );
}

async function run(dialect: 'sqlite' | 'postgres') {
  console.log(`\n${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-inbox-'));
  const schema = `bench_inbox_${crypto.randomBytes(4).toString('hex')}`;
  const databaseUrl = dialect === 'postgres' ? await createSchema(schema) : undefined;
  const mails: number[] = [];
  const smtp = await startMailSink(mails);
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_CONTENT: 'false',
    CAPTCHA_PROVIDER: 'none',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SUPPORT_EMAIL: 'support@example.com',
    PASSWORD_SCRYPT_N: '1024',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  };
  let server: ChildProcess | undefined;
  try {
    await prepareDatabase(env, databaseUrl);
    server = await startServer(env, port);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'desk@example.com', password: 'bench password 1' }),
    });
    const { token } = (await login.json()) as { token: string };
    await timeInbox(base, token);
    await timeReplies(base, token, mails);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    if (dialect === 'postgres' && process.env.BENCH_KEEP) console.log(`  kept schema ${schema}`);
    else if (dialect === 'postgres') {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    if (process.env.BENCH_KEEP) console.log(`  kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `bench:inbox: ${TICKETS.toLocaleString()} requests, ${MESSAGES_PER_TICKET} messages each, ${SAMPLES} samples per line; target p99 <= 50 ms`,
);
for (const dialect of DATABASES) await run(dialect as 'sqlite' | 'postgres');
