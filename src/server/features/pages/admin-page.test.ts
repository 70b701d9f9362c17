import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { registerAdminPageRoutes } from './admin-page.routes.ts';
import { ADMIN_BUNDLE, readWebAssets } from '../../render/web-assets.ts';

/** A built folder as Vite writes it: one manifest for the public entry, one for the admin app. */
const dist = writeFolder({
  '.vite/manifest.json': JSON.stringify({
    'src/web/entry-client.tsx': { file: 'assets/entry-client-P1.js', css: ['assets/entry-client-P1.css'] },
  }),
  '.vite/admin-manifest.json': JSON.stringify({
    'src/web/admin/entry-admin.tsx': {
      file: 'assets/entry-admin-A1.js',
      css: ['assets/entry-admin-A1.css'],
      imports: ['_shared.js'],
    },
    '_shared.js': { file: 'assets/shared-S1.js' },
  }),
});

describe('the admin app document', () => {
  it('loads the admin bundle and names the public stylesheet for the previews', async () => {
    const app = Fastify();
    registerAdminPageRoutes(app, dist);
    for (const url of ['/admin', '/admin/', '/admin/articles/12?x=1', '/admin/sign-in']) {
      const page = await app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.body).toContain('<script type="module" src="/assets/entry-admin-A1.js"></script>');
      expect(page.body).toContain('<link rel="stylesheet" href="/assets/entry-admin-A1.css">');
      expect(page.body).toContain('<link rel="modulepreload" href="/assets/shared-S1.js">');
      expect(page.body).toContain(
        '<meta name="signpost-public-styles" content="/assets/entry-client-P1.css">',
      );
      expect(page.body).toContain('<meta name="robots" content="noindex">');
      // The public bundle is not part of the admin document, nor the other way round.
      expect(page.body).not.toContain('entry-client-P1.js');
    }
    await app.close();
  });

  it('says so when the admin app is not built', async () => {
    const app = Fastify();
    registerAdminPageRoutes(app, writeFolder({ 'empty.txt': '' }));
    const page = await app.inject('/admin/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm run build');
    expect(page.body).not.toContain('<script');
    expect(readWebAssets(dist, ADMIN_BUNDLE).script).toBe('/assets/entry-admin-A1.js');
    await app.close();
  });
});

describe.each(testDialects())('the admin app in the whole server on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('answers /admin and its paths with the shell, apart from the public pages and the API', async () => {
    const shell = await t.app.inject('/admin/branding');
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('<div id="root"></div>');
    expect(shell.body).toContain('<title>Signpost admin</title>');
    const bare = await t.app.inject('/admin');
    expect(bare.statusCode).toBe(200);
    // Neighbours keep their own answers.
    expect((await t.app.inject('/administrator')).headers.location).toBe('/knowledge/404');
    expect((await t.app.inject('/api/admin/tree')).statusCode).toBe(401);
  });
});
