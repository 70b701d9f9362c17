import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { build } from 'esbuild';
import Fastify from 'fastify';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';

describe(`every installed package on Node ${process.versions.node}`, () => {
  it('accepts the Node it runs on: npm’s own engine check, run on it, finds nothing (no EBADENGINE)', () => {
    // npm runs on the first `node` on its PATH; here the one running the suite (the project's, or CI's other Node).
    const npm = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--loglevel=warn'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    });
    expect(npm.stderr).not.toContain('EBADENGINE');
    expect(npm.status, npm.stderr).toBe(0);
    // What it would do otherwise is no concern here (it would drop the platform build that the `node` package's
    // install script adds beside the lockfile's packages, a copy of which that package keeps).
  });
});

/**
 * Packages whose manifests asked for Node 22 while Signpost ran on Node 20 (npm only warned, EBADENGINE): each path
 * Signpost or its framework takes through them, exercised on the Node that runs the suite.
 */
describe(`dependencies that declare Node 22, on Node ${process.versions.node}`, () => {
  it('cookie@2 (light-my-request): an injected request carries its cookies and reads the answer’s', async () => {
    const app = Fastify();
    app.get('/echo', async (request, reply) =>
      reply.header('set-cookie', 'seen=yes; Path=/; HttpOnly').send({ cookie: request.headers.cookie }),
    );
    const response = await app.inject({ url: '/echo', cookies: { signpost_visitor: 'a b;c', other: 'ü' } });
    expect(response.json()).toEqual({ cookie: 'signpost_visitor=a%20b%3Bc; other=%C3%BC' });
    expect(response.cookies).toEqual([{ name: 'seen', value: 'yes', path: '/', httpOnly: true }]);
    await app.close();
  });

  it('content-disposition@3 (@fastify/static): a download names a non-ASCII file in both forms', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-static-'));
    fs.writeFileSync(path.join(root, 'file.txt'), 'hello');
    const app = Fastify();
    await app.register(fastifyStatic, { root, serve: false });
    app.get('/download', async (_request, reply) => reply.download('file.txt', 'Résumé “final”.txt'));
    const response = await app.inject('/download');
    expect(response.body).toBe('hello');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="R?sum? ?final?.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%9Cfinal%E2%80%9D.txt`,
    );
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('sanitize-html@2.18 checks the schemes of every URL attribute it is told to keep (the 2.17.6 advisory)', () => {
    const dirty =
      '<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">b</button></form>' +
      '<video poster="javascript:alert(3)"></video><a href="https://example.com" ping="javascript:alert(4)">a</a>' +
      '<table background="javascript:alert(5)"><tr><td>c</td></tr></table>';
    const clean = sanitizeHtml(dirty, {
      allowedTags: ['form', 'button', 'video', 'a', 'table', 'tr', 'td'],
      allowedAttributes: {
        form: ['action'],
        button: ['formaction'],
        video: ['poster'],
        a: ['href', 'ping'],
        table: ['background'],
      },
    });
    expect(clean).not.toMatch(/javascript/i);
    expect(clean).toContain('<a href="https://example.com">a</a>');
  });
});

/**
 * What an operator's production install holds: the packages the command and the built server load, found by following
 * every import (static and dynamic) from `bin/signpost.js`, the built command it runs and the built HTML cleaner's
 * worker (the test run's global setup builds them, scripts/build.js), plus those loaded by name (`createRequire`).
 * Packages only the browser bundles use (the editor, Preact, Font Awesome's sources) are dev dependencies: they are
 * built into `dist/web`, never loaded by the server; so are the build's and the sources' tools (TypeScript, tsx).
 */
describe('runtime dependencies', () => {
  const LOADED_BY_NAME = ['snowball-stemmers'];

  async function packagesTheServerLoads(): Promise<string[]> {
    const result = await build({
      entryPoints: ['bin/signpost.js', 'dist/app/cli/main.js', 'dist/app/server/html/sanitize-worker.js'],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      outdir: path.join(os.tmpdir(), 'signpost-graph'),
      loader: { '.css': 'empty' },
      logLevel: 'silent',
    });
    const packages = new Set<string>(LOADED_BY_NAME);
    for (const input of Object.values(result.metafile.inputs))
      for (const imported of input.imports)
        // A relative path left unresolved is not a package: the icon font's stylesheet, which only the browser
        // bundle imports (src/web/components/font-icon.tsx), is not among the built server's files.
        if (imported.external && !imported.path.startsWith('node:') && !imported.path.startsWith('.'))
          packages.add(
            imported.path
              .split('/')
              .slice(0, imported.path.startsWith('@') ? 2 : 1)
              .join('/'),
          );
    return [...packages].sort();
  }

  it('are exactly the packages the command and the server load', async () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const loaded = await packagesTheServerLoads();
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('@tiptap/core');
    expect(loaded).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies).sort()).toEqual(loaded);
  });
});
