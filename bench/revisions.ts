/**
 * Other benchmarks, run on several revisions in one run: before and after a change that touches everything (a new
 * runtime, a new database driver). Each revision in BENCH_REFS is cloned from this checkout and installed as a new
 * machine would (`npm ci`, with the machine's PATH: each revision runs on the Node it brings, or the machine's).
 * Then each benchmark in BENCH_NAMES runs, BENCH_REVISION_ROUNDS times (1), alternating the revisions, so that a machine busier in
 * one minute than the next weighs on both alike. Every run prints its own figures and ratios against the reference it
 * measures itself (bench:http's bare Node server on the same Node, for example); this prints them one after the
 * other under their revision, then each run's wall time.
 *
 *   BENCH_REFS=eccfb94,HEAD BENCH_NAMES=http,inbox npm run bench:revisions
 *   Other BENCH_* variables pass through to the benchmarks (BENCH_PHASES=compare, BENCH_SIZES=100000, BENCH_ROUNDS...).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { cloneAt, machineEnv } from './support/revisions.ts';

const REFS = (process.env.BENCH_REFS ?? 'HEAD~1,HEAD').split(',').map((ref) => ref.trim());
const NAMES = (process.env.BENCH_NAMES ?? 'http').split(',').map((name) => name.trim());
const ROUNDS = Math.max(1, Number(process.env.BENCH_REVISION_ROUNDS ?? 1));

const env = machineEnv(['NODE_ENV']);
const nodeOf = (dir: string) =>
  spawnSync('npm', ['exec', '--offline', '--', 'node', '--version'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  }).stdout.trim();

console.log(
  `benchmarks ${NAMES.join(', ')} on ${REFS.join(', ')}; ${ROUNDS} round(s); ${os.cpus().length} cores`,
);
const checkouts = REFS.map((ref) => {
  const dir = cloneAt(ref, 'signpost-bench-');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    env,
    stdio: 'inherit',
  });
  console.log(`${ref}: ${dir}, Node ${nodeOf(dir)}`);
  return { ref, dir };
});

const walls: string[] = [];
try {
  for (const name of NAMES)
    for (let round = 1; round <= ROUNDS; round++)
      for (const { ref, dir } of checkouts) {
        console.log(`\n===== bench:${name} on ${ref} (round ${round}) =====`);
        const started = performance.now();
        const run = spawnSync('npm', ['run', '--silent', `bench:${name}`], {
          cwd: dir,
          env,
          stdio: 'inherit',
        });
        const seconds = (performance.now() - started) / 1000;
        walls.push(
          `bench:${name.padEnd(8)} ${ref.padEnd(12)} round ${round}: ${seconds.toFixed(0)} s, exit ${run.status}`,
        );
      }
} finally {
  for (const { dir } of checkouts) fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${walls.join('\n')}`);
