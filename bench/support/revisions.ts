import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh clone of this checkout at `ref`, in a new folder under the system's temporary one. */
export function cloneAt(ref: string, prefix = 'signpost-revision-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir]);
  execFileSync('git', [
    '-C',
    dir,
    'checkout',
    '--quiet',
    execFileSync('git', ['-C', ROOT, 'rev-parse', ref]).toString().trim(),
  ]);
  return dir;
}

/**
 * The environment of a new machine's shell, from this one: without what `npm run` adds (its npm_* settings and this
 * checkout's node_modules/.bin, whose Node would otherwise run the other revision's scripts and installs) and without
 * `drop` (NODE_ENV, DATABASE_URL...).
 */
export function machineEnv(drop: string[] = []): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && !drop.includes(key)),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((folder) => !folder.includes('node_modules'))
    .join(path.delimiter);
  return env;
}
