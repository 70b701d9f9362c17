import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-context.ts';
import { seedDemo } from '../content-folder/demo.service.ts';
import { WEB_DIST } from '../../render/web-assets.ts';
import { updateBranding } from '../../settings/branding.ts';

/**
 * The JavaScript a phone downloads before a public page is interactive: the entry script and every module the
 * page's HTML preloads, as the server sends them (its precompressed brotli and gzip files). Budgets in bytes, a little
 * above what the build gives today (docs/decisions.md, "First-load JavaScript"), so that it cannot creep back. The
 * test run's global setup builds the client when it is missing or stale (scripts/build.js).
 */
const BUDGETS: Record<string, { br: number; gz: number }> = {
  home: { br: 49_600, gz: 55_900 },
  category: { br: 52_500, gz: 59_100 },
  article: { br: 54_400, gz: 61_300 },
  'article in Russian': { br: 56_900, gz: 64_400 },
  search: { br: 49_400, gz: 55_600 },
  'portal sign-in': { br: 59_500, gz: 67_000 },
  'portal new request': { br: 59_500, gz: 67_000 },
};

/** The target for every public page, brotli: whatever the budgets above become, they stay under it. */
const TARGET_BR = 60_000;

/**
 * The chunks each page must preload to hydrate at once (manifest keys): its route's code, its language's texts (and
 * the site's, English here, which an article shown in another language keeps for its fallbacks).
 */
const EN = 'src/web/i18n/en.ts';
const PAGE_CHUNKS: Record<string, string[]> = {
  home: ['src/web/routes/home.tsx', EN],
  category: ['src/web/routes/category.tsx', EN],
  article: ['src/web/routes/instruction.tsx', EN],
  'article in Russian': ['src/web/routes/instruction.tsx', 'src/web/i18n/ru.ts', EN],
  search: ['src/web/routes/search.tsx', EN],
  'portal sign-in': ['src/web/portal/portal-pages.tsx', EN, 'src/web/portal/texts/en.ts'],
  'portal new request': ['src/web/portal/portal-pages.tsx', EN, 'src/web/portal/texts/en.ts'],
};

/** The scripts a page's HTML names: its module entry and its modulepreload links. */
function firstLoadScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
  return [...new Set([...entry, ...preloads])];
}

const compressedSize = (file: string, encoding: 'br' | 'gz') =>
  fs.statSync(path.join(WEB_DIST, `${file}.${encoding}`)).size;

interface Manifest {
  [key: string]: { file: string; imports?: string[] };
}

/** The files these import statically, however deep, from Vite's manifest: what the browser fetches before running. */
function withStaticImports(manifest: Manifest, files: string[]): string[] {
  const byFile = new Map(Object.values(manifest).map((chunk) => [`/${chunk.file}`, chunk]));
  const byKey = new Map(Object.entries(manifest));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const key of byFile.get(file)?.imports ?? []) visit(`/${byKey.get(key)!.file}`);
  };
  files.forEach(visit);
  return [...seen];
}

describe('first-load JavaScript of the public pages', () => {
  let t: TestApp;
  const urls: Record<string, string> = {};
  const manifest = JSON.parse(
    fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await seedDemo(t.ctx);
    const article = (await t.app.inject('/api/knowledge/instruction')).json().items[0];
    const category = (await t.app.inject('/api/knowledge/category')).json().items[0];
    Object.assign(urls, {
      home: '/knowledge/',
      category: `/knowledge/category/${category.id}`,
      article: `/knowledge/instruction/${article.id}`,
      'article in Russian': `/knowledge/instruction/${article.id}?lang=ru`,
      search: '/knowledge/search?query=wifi',
      'portal sign-in': '/login',
      'portal new request': '/issues/create',
    });
  });
  afterAll(async () => t?.close());

  const scriptsOf = async (url: string) => {
    const page = await t.app.inject(url);
    expect(page.statusCode).toBe(200);
    return firstLoadScripts(page.body);
  };

  it.each(Object.keys(BUDGETS))('keeps the %s page within its budget, brotli and gzip', async (name) => {
    const named = await scriptsOf(urls[name]!);
    const files = withStaticImports(manifest, named);
    // The page names every file it needs, so the browser fetches them side by side rather than one after another.
    expect(files.sort()).toEqual([...named].sort());
    for (const chunk of PAGE_CHUNKS[name]!) expect(files).toContain(`/${manifest[chunk]!.file}`);
    // Other languages' texts and the other pages' code stay out.
    const others = Object.values(PAGE_CHUNKS)
      .flat()
      .filter((chunk) => !PAGE_CHUNKS[name]!.includes(chunk));
    for (const chunk of others) expect(files).not.toContain(`/${manifest[chunk]!.file}`);
    const total = (encoding: 'br' | 'gz') =>
      files.reduce((sum, file) => sum + compressedSize(file, encoding), 0);
    const sizes = { br: total('br'), gz: total('gz') };
    console.log(`first load, ${name}: ${files.length} files, brotli ${sizes.br} B, gzip ${sizes.gz} B`);
    expect(sizes.br).toBeLessThanOrEqual(BUDGETS[name]!.br);
    expect(sizes.br).toBeLessThanOrEqual(TARGET_BR);
    expect(sizes.gz).toBeLessThanOrEqual(BUDGETS[name]!.gz);
  });
});

describe("first-load JavaScript of a portal page in the site's language", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await updateBranding(t.ctx.db, { lang: 'ru' });
  });
  afterAll(async () => t?.close());

  it("preloads the portal's texts in that language and no other", async () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8'),
    ) as Manifest;
    const page = await t.app.inject('/login');
    expect(page.statusCode).toBe(200);
    const named = firstLoadScripts(page.body);
    const files = withStaticImports(manifest, named);
    expect(files.sort()).toEqual([...named].sort());
    for (const chunk of [
      'src/web/portal/portal-pages.tsx',
      'src/web/i18n/ru.ts',
      'src/web/portal/texts/ru.ts',
    ])
      expect(files).toContain(`/${manifest[chunk]!.file}`);
    // Every language has every text: English is not loaded beside Russian as a fallback.
    for (const lang of ['en', 'pt-BR', 'it', 'sk']) {
      expect(files).not.toContain(`/${manifest[`src/web/portal/texts/${lang}.ts`]!.file}`);
      expect(files).not.toContain(`/${manifest[`src/web/i18n/${lang}.ts`]!.file}`);
    }
    const br = files.reduce((sum, file) => sum + compressedSize(file, 'br'), 0);
    const gz = files.reduce((sum, file) => sum + compressedSize(file, 'gz'), 0);
    console.log(`first load, portal sign-in in Russian: ${files.length} files, brotli ${br} B, gzip ${gz} B`);
    expect(br).toBeLessThanOrEqual(TARGET_BR);
    expect(gz).toBeLessThanOrEqual(68_600);
  });
});
