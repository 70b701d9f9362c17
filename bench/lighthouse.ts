/**
 * Lighthouse (mobile preset) on the home, a category, an article, the search page and the portal's sign-in page of a
 * production build, served by the real server with the demo content. Prints the four category scores and the
 * JavaScript transferred. Targets: performance ≥ 0.95; accessibility, best practices and SEO 1.00; ≤ 60 KB compressed
 * JS on every page.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../e2e/support/server.ts';
import { CHROMIUM_FLAGS } from '../e2e/support/browser.ts';

const root = path.resolve(import.meta.dirname, '..');
execFileSync(process.execPath, [path.join(root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });

const server = await startServer();
const categories = (await (await fetch(`${server.url}/api/knowledge/category`)).json()).items;
const articles = (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()).items;
const category = categories.find((c: { count_instruction: number }) => c.count_instruction > 2);
const pages = {
  home: '/knowledge/',
  category: `/knowledge/category/${category.id}`,
  article: `/knowledge/instruction/${articles[0].id}`,
  search: '/knowledge/search?query=heating',
  'portal sign-in': '/login',
};

const NOT_INDEXED = ['search', 'portal sign-in'];

// The full browser, as a visitor's is (the tests drive its headless shell).
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
});

const rows: string[][] = [];
try {
  for (const [name, pagePath] of Object.entries(pages)) {
    const result = await lighthouse(`${server.url}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`no result for ${name}`);
    const { categories: scores, audits } = result.lhr;
    const requests =
      (audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] })
        ?.items ?? [];
    const scriptBytes = requests
      .filter((r) => r.resourceType === 'Script')
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    const fontBytes = requests
      .filter((r) => r.resourceType === 'Font')
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    const ms = (id: string) => `${Math.round(audits[id]?.numericValue ?? 0)}`;
    const failed = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id)
      // The search results and the portal's pages ask not to be indexed (noindex, and robots.txt), as they should:
      // not a failure.
      .filter((id) => !(NOT_INDEXED.includes(name) && id === 'is-crawlable'));
    rows.push([
      name,
      (scores.performance?.score ?? 0).toFixed(2),
      (scores.accessibility?.score ?? 0).toFixed(2),
      (scores['best-practices']?.score ?? 0).toFixed(2),
      (scores.seo?.score ?? 0).toFixed(2),
      `${(scriptBytes / 1024).toFixed(1)} KB`,
      `${(fontBytes / 1024).toFixed(1)} KB`,
      `${ms('first-contentful-paint')} / ${ms('largest-contentful-paint')} / ${ms('total-blocking-time')}`,
      (audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
      failed.join(' ') || '-',
    ]);
  }
} finally {
  chrome.kill();
  await server.close();
}

const header = [
  'page',
  'performance',
  'accessibility',
  'best-practices',
  'seo',
  'JS transferred',
  'fonts',
  'FCP / LCP / TBT ms',
  'CLS',
  'failing audits',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(
  'targets: performance >= 0.95; accessibility, best-practices, seo = 1.00; JS <= 60 KB on every page',
);
console.log(
  'the search and portal pages ask not to be indexed, so their SEO score leaves out is-crawlable by design',
);
