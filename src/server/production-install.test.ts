import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supported } from '../../bin/runtime.js';
import { machineNode, signpost, startServe, versionOf } from './testing/run-cli.ts';
import { createTestEnvironment, testDialects } from './testing/test-context.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Moves `relative` (a folder of the install) aside for `run`, then puts it back: the install as an operator would have
 * it with that build missing.
 */
async function without<T>(installed: string, relative: string, run: () => Promise<T>): Promise<T> {
  const folder = path.join(installed, relative);
  const aside = `${folder}.aside`;
  fs.renameSync(folder, aside);
  try {
    return await run();
  } finally {
    fs.renameSync(aside, folder);
  }
}

/**
 * What an operator installs: the package as `npm pack` makes it (the builds the test run's global setup made, and
 * nothing else of the checkout: no sources), its production dependencies installed from the lockfile with
 * `npm ci --omit=dev` (no tsx, TypeScript or Vite; Node 24 itself, the optional `node` package, with its install
 * script), and its own `signpost` command. One install for the file's tests.
 */
describe('a production install of the packed package', () => {
  let work: string;
  let installed: string;
  let bin: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-install-'));
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as { filename: string }[];
    execFileSync('tar', ['xzf', path.join(work, packed!.filename)], { cwd: work });
    installed = path.join(work, 'package');
    // npm never packs the lockfile; an operator's checkout or release has it, and npm ci installs what it says.
    fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(installed, 'package-lock.json'));
    execFileSync(
      'npm',
      ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      { cwd: installed, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
    );
    bin = path.join(installed, 'bin/signpost.js');
  }, 120_000);

  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('holds the builds, the command and the demo content, and neither the sources nor the dev tools', () => {
    for (const file of [
      'bin/signpost.js',
      'dist/app/cli/main.js',
      'dist/web/.vite/manifest.json',
      'content/demo',
    ])
      expect(fs.existsSync(path.join(installed, file)), file).toBe(true);
    for (const absent of ['src', 'node_modules/tsx', 'node_modules/typescript', 'node_modules/vite'])
      expect(fs.existsSync(path.join(installed, absent)), absent).toBe(false);
  });

  it('`npm start` builds nothing first: an installed package has no sources to rebuild from', () => {
    const built = ['dist/app/cli/main.js', 'dist/web/.vite/manifest.json'].map((file) =>
      path.join(installed, file),
    );
    const before = built.map((file) => fs.statSync(file).mtimeMs);
    // What `npm start` runs before `signpost serve` (package.json); npm gives the packed files one old date, and the
    // lockfile put beside them is newer.
    execFileSync('npm', ['run', 'prestart', '--silent'], {
      cwd: installed,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(built.map((file) => fs.statSync(file).mtimeMs)).toEqual(before);
  });

  it.each(testDialects())(
    'serves the demo help centre with its scripts and styles on %s',
    async (dialect) => {
      const environment = await createTestEnvironment(dialect);
      try {
        // Started from elsewhere by the machine's Node, as a service would start it: the install finds its own files,
        // and runs on the Node it brought when the machine's is too old.
        const machine = machineNode();
        const server = await startServe(environment.env, { bin, cwd: os.tmpdir(), node: machine });
        try {
          const runtime = supported(versionOf(machine).slice(1))
            ? versionOf(machine)
            : versionOf(path.join(installed, 'node_modules/node/bin/node'));
          expect(await (await fetch(`${server.url}/metrics`)).text()).toContain(
            `nodejs_version_info{version="${runtime}"`,
          );
          const page = await fetch(`${server.url}/knowledge`);
          expect(page.status).toBe(200);
          const html = await page.text();
          expect(html).toContain('Getting started');
          const script = /<script[^>]* src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
          const style = /<link[^>]* rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
          expect(script).toBeDefined();
          expect(style).toBeDefined();
          for (const [asset, type] of [
            [script!, 'javascript'],
            [style!, 'text/css'],
          ] as const) {
            const response = await fetch(`${server.url}${asset}`);
            expect(response.status, asset).toBe(200);
            expect(response.headers.get('content-type')).toContain(type);
            expect(await response.text()).toBe(
              fs.readFileSync(path.join(installed, 'dist/web', asset), 'utf8'),
            );
          }
        } finally {
          await server.stop();
        }
      } finally {
        await environment.cleanup();
      }
    },
  );

  it('without the built web client, `serve` stops at once with one line saying what to run', async () => {
    const environment = await createTestEnvironment('sqlite');
    try {
      const run = await without(installed, 'dist/web', () => signpost(['serve'], environment.env, { bin }));
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `signpost serve: the web client is not built (${path.join(installed, 'dist/web/.vite/manifest.json')} is ` +
          'missing): run `npm run build`\n',
      );
    } finally {
      await environment.cleanup();
    }
  });

  it('without the built server, the command stops with one line saying what to run', async () => {
    const run = await without(installed, 'dist/app', () => signpost(['help'], {}, { bin }));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('signpost: the server is not built (dist/app is missing): run `npm run build`\n');
  });
});
