import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { importFolder } from '../features/content-folder/import-folder.ts';
import { touchContent } from '../revisions/revision.repository.ts';
import { startEmbeddingsServer, trainRandomIndexing } from '../testing/embeddings-server.ts';
import { httpEmbedder } from './embeddings.ts';
import { createSearchService, loadSearchDocuments, type SearchService } from './search.service.ts';
import { DEFAULT_SYNONYMS, writeSynonyms } from './synonyms.ts';

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

/**
 * Kinds of query held to MRR_PER_KIND; the others are measured and printed. Paraphrases ("get my money back" for
 * "Refund a payment") share too few words with their articles for words, joins and general synonyms to find them:
 * they wait for semantic matching.
 */
const UNASSERTED_KINDS = ['paraphrase'];
const MRR_ASSERTED = 0.9;
const MRR_PER_KIND = 0.8;

interface Result {
  query: RelevanceQuery;
  rank: number;
}

const mrr = (rows: Result[]) =>
  rows.reduce((sum, r) => sum + (Number.isFinite(r.rank) ? 1 / r.rank : 0), 0) / rows.length;
const recall3 = (rows: Result[]) => rows.filter((r) => r.rank <= 3).length / rows.length;

/**
 * The relevance set: queries over the demo and a multilingual corpus, each with the article that must come first,
 * run with the default synonyms, without any, and with both the synonyms and semantic matching through a model derived
 * from the articles themselves (printed to decide whether such a model is worth shipping; it is not asserted). With
 * the default synonyms alone, the suite fails below MRR 0.9 over every kind but
 * paraphrase, and below 0.8 for any such kind; it prints MRR and recall@3 per language, per kind, and per language
 * for compound and paraphrase queries, both ways.
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

  const run = async (service?: SearchService): Promise<Result[]> => {
    const results: Result[] = [];
    for (const query of queries) {
      let items: { id: number }[];
      if (service) items = (await service.suggest(query.q, 10, 'everyone')).items;
      else {
        const response = await t.app.inject(
          `/api/search/knowledge/suggestions?text=${encodeURIComponent(query.q)}&limit=10&perPage=10`,
        );
        expect(response.statusCode, query.q).toBe(200);
        items = response.json<{ items: { id: number }[] }>().items;
      }
      const found = items.map((item) => pathOf.get(item.id));
      const ranks = query.expect.map((expected) => found.indexOf(expected)).filter((index) => index >= 0);
      results.push({ query, rank: ranks.length ? Math.min(...ranks) + 1 : Infinity });
    }
    return results;
  };

  it(`ranks the right article first for ${queries.length} queries in five languages (MRR ≥ ${MRR_ASSERTED} but paraphrase, ≥ ${MRR_PER_KIND} per kind)`, async () => {
    const withSynonyms = await run();
    await writeSynonyms(t.ctx.db, {});
    await touchContent(t.ctx.db, ['search']);
    const without = await run();
    // Semantic matching with a model derived from the content alone (no model ships with Signpost): trained on the
    // help centre's own articles, served as an embeddings endpoint, blended as EMBEDDINGS_URL would.
    await writeSynonyms(t.ctx.db, DEFAULT_SYNONYMS);
    await touchContent(t.ctx.db, ['search']);
    const documents = await loadSearchDocuments(t.ctx.db);
    const endpoint = await startEmbeddingsServer(
      trainRandomIndexing(documents.map((doc) => `${doc.title}\n\n${doc.text}`)),
    );
    let derived: Result[];
    try {
      const embeddings = {
        url: endpoint.url,
        model: 'content',
        apiKey: null,
        weight: 1,
        minSimilarity: 0.2,
        timeoutMs: 5_000,
      };
      const service = createSearchService(t.ctx.db, {
        embeddings: { embedder: httpEmbedder(embeddings), weight: 1, minSimilarity: 0.2, timeoutMs: 5_000 },
      });
      await service.refresh();
      await service.settled();
      derived = await run(service);
    } finally {
      await endpoint.close();
    }

    const figures = (rows: Result[]) =>
      `MRR ${mrr(rows).toFixed(3)}  recall@3 ${recall3(rows).toFixed(3)}`.padEnd(29);
    const line = (label: string, pick: (r: Result) => boolean) => {
      const rows = withSynonyms.filter(pick);
      return `${label.padEnd(17)} n=${String(rows.length).padStart(3)}  ${figures(rows)} | ${figures(without.filter(pick))} | ${figures(derived.filter(pick))}`;
    };
    const values = (key: 'lang' | 'kind') => [...new Set(queries.map((q) => q[key]))];
    const asserted = (r: Result) => !UNASSERTED_KINDS.includes(r.query.kind);
    const misses = withSynonyms
      .filter((r) => r.rank > 3)
      .map((r) => `  ${r.query.lang} ${r.query.kind} "${r.query.q}" → rank ${r.rank}`);
    console.log(
      [
        `relevance (${dialect})              with the default synonyms       | without synonyms              | + content-derived embeddings`,
        line('all', () => true),
        line(`all but ${UNASSERTED_KINDS.join(', ')}`, asserted),
        ...values('lang').map((lang) => line(lang, (r) => r.query.lang === lang)),
        ...values('kind').map((kind) => line(kind, (r) => r.query.kind === kind)),
        ...['compound', 'paraphrase'].flatMap((kind) =>
          values('lang').map((lang) =>
            line(`${lang} ${kind}`, (r) => r.query.lang === lang && r.query.kind === kind),
          ),
        ),
        `not in the first three, with the default synonyms (${misses.length}):`,
        ...misses,
      ].join('\n'),
    );
    expect(mrr(withSynonyms.filter(asserted))).toBeGreaterThanOrEqual(MRR_ASSERTED);
    for (const kind of values('kind').filter((k) => !UNASSERTED_KINDS.includes(k))) {
      expect(mrr(withSynonyms.filter((r) => r.query.kind === kind)), kind).toBeGreaterThanOrEqual(
        MRR_PER_KIND,
      );
    }
    // Three passes over 426 queries: about 25 s alone, longer on a machine busy with other work.
  }, 120_000);
});
