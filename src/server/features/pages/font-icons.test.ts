import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWebAssets } from '../../render/web-assets.ts';
import { buildArticle, buildCategory } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { seedDemo } from '../content-folder/demo.service.ts';

describe.each(testDialects())('category icons on the public pages on %s', (dialect) => {
  let t: TestApp;
  const stylesheet = readWebAssets().fontIcons ?? '';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedDemo(t.ctx);
  });
  afterAll(async () => t?.close());

  it("links Font Awesome's stylesheet, served by this server, only into pages that show a font icon", async () => {
    expect(stylesheet).toMatch(/^\/assets\/font-icons-[\w-]+\.css$/);
    const home = (await t.app.inject('/knowledge/')).body;
    expect(home).toContain(`<link rel="stylesheet" href="${stylesheet}">`);
    // After the page's content, so that it holds back only the icons, not the first paint.
    expect(home).toContain(`</div>\n<link rel="stylesheet" href="${stylesheet}">`);
    expect(home.slice(0, home.indexOf('</head>'))).not.toContain(stylesheet);
    expect(home).toContain('<span class="font-icon tile-glyph fa fa-credit-card" aria-hidden="true">');
    expect(home).toContain('<span class="font-icon tile-glyph fa-solid fa-rocket" aria-hidden="true">');

    const [article] = (await t.app.inject('/api/knowledge/instruction')).json().items;
    const articlePage = await t.app.inject(`/knowledge/instruction/${article.id}`);
    expect(articlePage.statusCode).toBe(200);
    expect(articlePage.body).not.toContain('font-icons-');
    expect((await t.app.inject('/knowledge/search?query=wifi')).body).not.toContain('font-icons-');

    const css = await t.app.inject(stylesheet);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toContain('.fa.fa-credit-card');
    expect(css.body).not.toContain('@import');
    const fonts = new Set([...css.body.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]!.replace(/["']/g, '')));
    expect(fonts.size).toBeGreaterThanOrEqual(3);
    for (const font of fonts) {
      expect(font).toMatch(/^\/assets\/fa-[\w-]+\.woff2$/);
      const answer = await t.app.inject(font);
      expect(answer.statusCode, font).toBe(200);
      expect(answer.headers['content-type']).toBe('font/woff2');
    }
  });

  it('draws a folder for a category without an icon, and for a stored class that is not plain class names', async () => {
    const plain = await buildCategory(t.ctx.db, { name: 'No icon at all' });
    await buildArticle(t.ctx.db, { category_id: plain.id });
    const legacy = await buildCategory(t.ctx.db, {
      name: 'Legacy icon',
      icon_type: 'font',
      font_icon: 'fa-wifi" data-x="1',
    });
    await buildArticle(t.ctx.db, { category_id: legacy.id });
    const home = (await t.app.inject('/knowledge/')).body;
    const tileOf = (name: string) => {
      const start = home.lastIndexOf('<li class="tile">', home.indexOf(`>${name}<`));
      return home.slice(start, home.indexOf('</li>', start));
    };
    for (const name of ['No icon at all', 'Legacy icon']) {
      expect(tileOf(name)).toContain('<span class="tile-icon tile-icon-default"><svg');
      expect(tileOf(name)).not.toContain('font-icon');
    }
    // The value stays inert data (the hydration JSON), never an attribute.
    expect(home).not.toContain('data-x="1');
  });
});
