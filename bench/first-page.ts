/**
 * From a fresh clone to the first page: what a new operator waits for. Each revision named in BENCH_REFS is cloned
 * from this checkout into a new folder, then the README's first command runs there (`npm install && npm start`, the
 * demo help centre on the embedded database), and the clock stops when /knowledge answers 200. npm's cache is warmed
 * by one untimed install of each revision first, so the figures are the install's own work (the native SQLite
 * driver's compile among it), not the network. Rounds alternate the revisions; medians and their ratio to the first
 * revision are printed.
 *
 *   npm run bench:first-page
 *   BENCH_REFS=HEAD~20,HEAD BENCH_ROUNDS=3 npm run bench:first-page     (before and after, in one run)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { cloneAt, machineEnv } from './support/revisions.ts';
import { freePort } from '../src/server/testing/free-port.ts';

const REFS = (process.env.BENCH_REFS ?? 'HEAD').split(',').map((ref) => ref.trim());
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LIMIT_MS = 15 * 60_000;

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

/** Seconds from `npm install && npm start` in a fresh clone of `ref` to /knowledge answering 200. */
async function firstPage(ref: string): Promise<number> {
  const dir = cloneAt(ref, 'signpost-first-page-');
  const port = await freePort();
  const started = performance.now();
  // The README's command, in a process group of its own so the server it starts stops with it.
  const child = spawn(
    'sh',
    ['-c', 'npm install --no-audit --no-fund --loglevel=error && npm start --silent'],
    {
      cwd: dir,
      // As on a new machine: no NODE_ENV (production would make npm leave out the build's tools), SQLite.
      env: { ...machineEnv(['NODE_ENV', 'DATABASE_URL']), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2_000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    while (!(await answers(`http://127.0.0.1:${port}/knowledge`))) {
      if (exited) throw new Error(`${ref}: npm exited before the first page\n${errors}`);
      if (performance.now() - started > LIMIT_MS) throw new Error(`${ref}: no page within 15 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return (performance.now() - started) / 1000;
  } finally {
    if (!exited) process.kill(-child.pid!, 'SIGTERM');
    await new Promise((resolve) => (exited ? resolve(null) : child.once('exit', resolve)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(
  `first page from a fresh clone: ${REFS.join(', ')}; ${ROUNDS} rounds; Node ${process.version}, ${os.cpus().length} cores`,
);
for (const ref of REFS) {
  process.stdout.write(`warming npm's cache for ${ref}... `);
  console.log(`${(await firstPage(ref)).toFixed(1)} s (not counted)`);
}
const times = new Map<string, number[]>(REFS.map((ref) => [ref, []]));
for (let round = 1; round <= ROUNDS; round++)
  for (const ref of REFS) {
    const seconds = await firstPage(ref);
    times.get(ref)!.push(seconds);
    console.log(`round ${round}  ${ref.padEnd(12)} ${seconds.toFixed(1)} s`);
  }
const reference = median(times.get(REFS[0]!)!);
console.log('\nrevision      median    range            ratio to ' + REFS[0]);
for (const [ref, values] of times)
  console.log(
    `${ref.padEnd(12)} ${median(values).toFixed(1).padStart(6)} s  ${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)} s`.padEnd(
      40,
    ) + (median(values) / reference).toFixed(2),
  );
