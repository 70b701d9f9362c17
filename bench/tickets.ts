/**
 * Reliability check for support requests: submits tickets continuously while the server is killed with SIGKILL at
 * random moments and restarted, then checks that every ticket answered with success is stored exactly once with
 * its file, and delivered exactly once to a local webhook receiver. Prints the counts; all must match.
 *
 *   npm run bench:tickets                       (SQLite)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:tickets
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/server/config/config.ts';
import { openDatabase } from '../src/server/db/database.ts';

const KILLS = Number(process.env.BENCH_KILLS ?? 5);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-tickets-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;

// The team's receiver: counts every delivery it accepts, by ticket. Like any receiver of at-least-once deliveries
// it drops a repeat by its Idempotency-Key (a kill between its answer and our commit makes us send again); the
// repeats are counted apart so the figure stays visible.
const received = new Map<number, number>();
const seenKeys = new Set<string>();
let repeatsDropped = 0;
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    try {
      const id = Number(JSON.parse(body).ticket.id);
      const key = String(request.headers['idempotency-key']);
      if (seenKeys.has(key)) repeatsDropped++;
      else {
        seenKeys.add(key);
        received.set(id, (received.get(id) ?? 0) + 1);
      }
      response.writeHead(204).end();
    } catch {
      response.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  DEMO_CONTENT: 'false',
  CAPTCHA_PROVIDER: 'none',
  TICKET_WEBHOOK_URL: webhook,
  REQUESTS_PER_HOUR: '1000000',
  UPLOADS_PER_HOUR: '1000000',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
};

const serverProcess: { current: ChildProcess | null } = { current: null };
async function startServer(): Promise<void> {
  // The command runs the built server: built first when missing or older than the sources.
  execFileSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  serverProcess.current = spawn(process.execPath, [path.join(root, 'bin/signpost.js'), 'serve'], {
    env,
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/settings/branding`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

interface Acknowledged {
  id: number;
  fileName: string;
  size: number;
}
const acknowledged: Acknowledged[] = [];
let attempts = 0;
let failures = 0;
let running = true;

async function writer(index: number) {
  const cookieJar = { value: '' };
  while (running) {
    attempts++;
    const content = crypto.randomBytes(64 + Math.floor(Math.random() * 4000));
    const fileName = `w${index}-${attempts}.bin`;
    try {
      const form = new FormData();
      form.append('file[]', new Blob([content]), fileName);
      const upload = await fetch(`${base}/api/file`, {
        method: 'POST',
        body: form,
        headers: { cookie: cookieJar.value },
      });
      if (!upload.ok) throw new Error(`upload ${upload.status}`);
      const setCookie = upload.headers.get('set-cookie');
      if (setCookie) cookieJar.value = setCookie.split(';')[0] ?? '';
      const [file] = (await upload.json()) as { id: number }[];
      const response = await fetch(`${base}/panel/api/issue-open`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookieJar.value },
        body: JSON.stringify({
          title: `Bench ${index}`,
          description: `Request ${attempts}`,
          channel: 'web',
          name: 'Bench',
          email: 'bench@example.com',
          files: [file?.id],
        }),
      });
      if (response.status === 201) {
        const { data } = (await response.json()) as { data: { id: number } };
        acknowledged.push({ id: data.id, fileName, size: content.length });
      } else failures++;
    } catch {
      failures++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

await startServer();
const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
for (let kill = 1; kill <= KILLS; kill++) {
  await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
  serverProcess.current?.kill('SIGKILL');
  await new Promise((resolve) => serverProcess.current?.once('exit', resolve));
  console.log(`kill ${kill}: ${acknowledged.length} acknowledged so far`);
  await startServer();
}
await new Promise((resolve) => setTimeout(resolve, 1500));
running = false;
await Promise.all(writers);

// Let the outbox drain.
const deadline = Date.now() + 120_000;
while (Date.now() < deadline && acknowledged.some((a) => !received.has(a.id))) {
  await new Promise((resolve) => setTimeout(resolve, 500));
}

const config = loadConfig(env);
const database = openDatabase(config.database);
const tickets = await database.db.selectFrom('tickets').select('id').execute();
const files = await database.db
  .selectFrom('ticket_files')
  .innerJoin('files', 'files.id', 'ticket_files.file_id')
  .select(['ticket_files.ticket_id', 'files.original_name', 'files.size'])
  .execute();
await database.close();
serverProcess.current?.kill('SIGTERM');
receiver.close();

const stored = new Set(tickets.map((t) => t.id));
const fileOf = new Map(files.map((f) => [f.ticket_id, f]));
const missing = acknowledged.filter((a) => !stored.has(a.id));
const wrongFile = acknowledged.filter((a) => {
  const file = fileOf.get(a.id);
  return !file || file.original_name !== a.fileName || Number(file.size) !== a.size;
});
const notDelivered = acknowledged.filter((a) => !received.has(a.id));
const duplicates = [...received.values()].filter((n) => n > 1).length;

console.log(
  `database: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; kills: ${KILLS}; writers: ${WRITERS}`,
);
console.log(`requests attempted: ${attempts}; refused or cut off by a kill: ${failures}`);
console.log(`acknowledged (201): ${acknowledged.length}`);
console.log(`stored: ${acknowledged.length - missing.length} (missing ${missing.length})`);
console.log(
  `stored with the right file: ${acknowledged.length - wrongFile.length} (wrong or missing ${wrongFile.length})`,
);
console.log(
  `tickets in the database: ${tickets.length} (unacknowledged extras: ${tickets.length - acknowledged.length})`,
);
console.log(
  `delivered: ${acknowledged.length - notDelivered.length} (not delivered ${notDelivered.length}; delivered more than once: ${duplicates})`,
);
console.log(`repeat sends after a kill, dropped by the receiver's idempotency key: ${repeatsDropped}`);
const ok = missing.length === 0 && wrongFile.length === 0 && notDelivered.length === 0 && duplicates === 0;
console.log(ok ? 'all counts match' : 'MISMATCH');
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
