import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { writeFolder } from '../../testing/folder.ts';
import { seedDemo } from '../demo/demo.service.ts';
import { updateBranding } from '../settings/branding.service.ts';

describe.each(testDialects())('server-rendered pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const snippet = writeFolder({
      'snippet.html': '<script src="https://tags.example/gtm.js?id={{project_id}}"></script>',
    });
    t = await createTestApp(dialect, {
      ANALYTICS_SNIPPET_FILE: `${snippet}/snippet.html`,
      ANALYTICS_HOSTS: 'help.example.com',
    });
    await seedDemo(t.ctx);
    await updateBranding(t.ctx.db, { project_id: 'P-1<2>' });
  });
  afterAll(async () => t?.close());

  it('renders an article with its title, description, trail and body', async () => {
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[5];
    const page = await t.app.inject(`/knowledge/instruction/${article.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.body).toContain(`<title>${article.title} | Lumo Help Centre</title>`);
    expect(page.body).toContain('window.__staticRouterHydrationData');
  });

  it('adds the analytics snippet only on its hosts, with the project id escaped', async () => {
    const on = await t.app.inject({ url: '/knowledge/', headers: { host: 'help.example.com' } });
    expect(on.body).toContain('<script src="https://tags.example/gtm.js?id=P-1&lt;2&gt;"></script>');
    const off = await t.app.inject({ url: '/knowledge/', headers: { host: 'localhost:3000' } });
    expect(off.body).not.toContain('tags.example');
  });

  it('redirects the root to the help centre and other addresses to its not-found page', async () => {
    const root = await t.app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/knowledge/');
    const other = await t.app.inject('/some/page');
    expect(other.headers.location).toBe('/knowledge/404');
    const post = await t.app.inject({ method: 'POST', url: '/some/page' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('not_found');
  });

  it('answers 404 with the not-found screen for unknown categories and for ids that are not numbers', async () => {
    for (const path of ['/knowledge/category/999999', '/knowledge/category/abc', '/knowledge/zzz']) {
      const page = await t.app.inject(path);
      expect(page.statusCode, path).toBe(404);
      expect(page.body, path).toContain('Perhaps it is outdated');
    }
  });
});
