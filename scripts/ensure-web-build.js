#!/usr/bin/env node
// Builds the web client when it is missing or older than its sources, so `npm start` and `npm test` always serve
// what the code says without rebuilding on every run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// One manifest per build: the public site's and the admin app's (vite.config.ts).
const manifests = ['manifest.json', 'admin-manifest.json'].map((name) =>
  path.join(root, 'dist/web/.vite', name),
);

function newest(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
}

const sources = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'].map((p) =>
  path.join(root, p),
);
const built = Math.min(...manifests.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
if (built < Math.max(...sources.filter((p) => fs.existsSync(p)).map(newest))) {
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
      // Under a test runner NODE_ENV is 'test', which would build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}
