import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { importFolder } from '../features/content-folder/import-folder.ts';

const CONTENT = fileURLToPath(new URL('../../../content', import.meta.url));

interface RelevanceQuery {
  q: string;
  lang: string;
  kind: string;
  expect: string[];
}

const queries = JSON.parse(
  fs.readFileSync(path.join(CONTENT, 'relevance-queries.json'), 'utf8'),
) as RelevanceQuery[];

/** Kinds of query that are measured and printed but not yet held to the threshold. */
const UNASSERTED_KINDS = ['compound', 'paraphrase'];

/**
 * The relevance set: queries over the demo and a multilingual corpus, each with the article that must come first.
 * The suite fails below a mean reciprocal rank of 0.85 over every kind but compound and paraphrase, and reports
 * MRR and recall@3 per language and kind of query, and per language for each of those two kinds.
 */
describe.each(testDialects())('search relevance on %s', (dialect) => {
  let t: TestApp;
  const pathOf = new Map<number, string>();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    for (const folder of ['demo', 'relevance']) {
      await importFolder(t.ctx, path.join(CONTENT, folder));
      const rows = await t.ctx.db.selectFrom('articles').select(['id', 'source_path']).execute();
      for (const row of rows) if (!pathOf.has(row.id)) pathOf.set(row.id, `${folder}/${row.source_path}`);
    }
  });
  afterAll(async () => t?.close());

  it(`ranks the right article first for ${queries.length} queries in five languages (MRR ≥ 0.85 before compound and paraphrase)`, async () => {
    const results: { query: RelevanceQuery; rank: number }[] = [];
    for (const query of queries) {
      const response = await t.app.inject(
        `/api/search/knowledge/suggestions?text=${encodeURIComponent(query.q)}&limit=10&perPage=10`,
      );
      expect(response.statusCode, query.q).toBe(200);
      const found = (response.json().items as { id: number }[]).map((item) => pathOf.get(item.id));
      const ranks = query.expect.map((expected) => found.indexOf(expected)).filter((index) => index >= 0);
      results.push({ query, rank: ranks.length ? Math.min(...ranks) + 1 : Infinity });
    }

    const mrr = (rows: typeof results) =>
      rows.reduce((sum, r) => sum + (Number.isFinite(r.rank) ? 1 / r.rank : 0), 0) / rows.length;
    const recall3 = (rows: typeof results) => rows.filter((r) => r.rank <= 3).length / rows.length;
    const line = (label: string, rows: typeof results) =>
      `${label.padEnd(16)} n=${String(rows.length).padStart(3)}  MRR ${mrr(rows).toFixed(3)}  recall@3 ${recall3(rows).toFixed(3)}`;
    const table = (key: 'lang' | 'kind') =>
      [...new Set(results.map((r) => r.query[key]))].map((value) => {
        const rows = results.filter((r) => r.query[key] === value);
        return line(value, rows);
      });
    const byLanguage = (kind: string) =>
      [...new Set(results.map((r) => r.query.lang))].map((lang) => {
        const rows = results.filter((r) => r.query.lang === lang && r.query.kind === kind);
        return line(`${lang} ${kind}`, rows);
      });
    const asserted = results.filter((r) => !UNASSERTED_KINDS.includes(r.query.kind));
    const misses = results
      .filter((r) => r.rank > 3)
      .map((r) => `  ${r.query.lang} ${r.query.kind} "${r.query.q}" → rank ${r.rank}`);
    console.log(
      [
        `relevance (${dialect}): MRR ${mrr(results).toFixed(3)}, recall@3 ${recall3(results).toFixed(3)} over ${results.length} queries`,
        `without ${UNASSERTED_KINDS.join(' and ')}: MRR ${mrr(asserted).toFixed(3)}, recall@3 ${recall3(asserted).toFixed(3)} over ${asserted.length} queries`,
        ...table('lang'),
        ...table('kind'),
        ...UNASSERTED_KINDS.flatMap(byLanguage),
        `not in the first three (${misses.length}):`,
        ...misses,
      ].join('\n'),
    );
    expect(mrr(asserted)).toBeGreaterThanOrEqual(0.85);
  });
});
