#!/usr/bin/env node
/*
 * The two builds, each from its sources into its folder of dist/:
 *   web  the browser bundles and their manifests (Vite, vite.config.ts) in dist/web;
 *   app  the server and the CLI as JavaScript (TypeScript's compiler, tsconfig.build.json) in dist/app, which
 *        bin/signpost.js runs.
 *
 *   node scripts/build.js [--if-stale] [web|app ...]
 *
 * builds both, or those named (`npm run build`, `npm pack`). With --if-stale it builds only those that are missing or
 * older than their sources (`npm start`, the test run, the benchmarks), so a start serves what the code says without
 * rebuilding every time.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (file) => path.join(root, file);

const BUILDS = {
  web: {
    what: 'the web client (dist/web)',
    sources: ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json', 'scripts/build.js'],
    // One manifest per bundle, written last: the public site's and the admin app's (vite.config.ts).
    outputs: ['dist/web/.vite/manifest.json', 'dist/web/.vite/admin-manifest.json'],
    tool: 'node_modules/vite/bin/vite.js',
    build: (tool) =>
      execFileSync(process.execPath, [tool, 'build', '--logLevel', 'warn'], {
        cwd: root,
        stdio: 'inherit',
        // Under a test runner NODE_ENV is 'test', which would build React's development bundle.
        env: { ...process.env, NODE_ENV: 'production' },
      }),
  },
  app: {
    what: 'the server (dist/app)',
    // The server renders pages with the web client's components, so src/web is among its sources too.
    sources: [
      'src/server',
      'src/cli',
      'src/shared',
      'src/web',
      'tsconfig.json',
      'tsconfig.build.json',
      'package-lock.json',
      'scripts/build.js',
    ],
    outputs: ['dist/app/cli/main.js'],
    tool: 'node_modules/typescript/bin/tsc',
    build: (tool) => {
      // Compiled beside, then moved into place: a server never starts on half a build, and the JavaScript of a
      // source since deleted does not linger.
      const temporary = at(`dist/app.${process.pid}.tmp`);
      fs.rmSync(temporary, { recursive: true, force: true });
      try {
        execFileSync(process.execPath, [tool, '-p', 'tsconfig.build.json', '--outDir', temporary], {
          cwd: root,
          stdio: 'inherit',
        });
        // The old build moves aside first (a rename), so dist/app is missing only between two renames, and a second
        // build finishing meanwhile finds no folder in its way.
        const old = at(`dist/app.${process.pid}.old`);
        if (fs.existsSync(at('dist/app'))) fs.renameSync(at('dist/app'), old);
        fs.renameSync(temporary, at('dist/app'));
        fs.rmSync(old, { recursive: true, force: true });
      } finally {
        fs.rmSync(temporary, { recursive: true, force: true });
      }
    },
  },
};

/** The newest modification time of a file or of anything in a folder; 0 for what does not exist. */
function newest(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
}

/**
 * Only a checkout has sources to compare with; an installed package (npm pack leaves them out) has its builds and
 * nothing to rebuild them from, and npm gives all its files one date, so its lockfile may be newer.
 */
const checkout = fs.existsSync(at('src'));

/**
 * The one staleness rule: a build is stale when one of its outputs is missing or, in a checkout, older than any of
 * its sources.
 */
function isStale(build) {
  const built = Math.min(
    ...build.outputs.map((file) => (fs.existsSync(at(file)) ? fs.statSync(at(file)).mtimeMs : 0)),
  );
  return built === 0 || (checkout && built < Math.max(...build.sources.map((source) => newest(at(source)))));
}

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const named = args.filter((arg) => arg !== '--if-stale');
for (const name of named) if (!BUILDS[name]) throw new Error(`unknown build "${name}": web or app`);

for (const name of named.length ? named : Object.keys(BUILDS)) {
  const build = BUILDS[name];
  if (ifStale && !isStale(build)) continue;
  if (!fs.existsSync(at(build.tool))) {
    // A production install (npm ci --omit=dev) has no build tools; a checkout needs its dev dependencies to build.
    console.error(
      `signpost: ${build.what} needs building, but ${build.tool} is not installed: run \`npm ci\`, then \`npm run build\``,
    );
    process.exit(1);
  }
  build.build(at(build.tool));
}
