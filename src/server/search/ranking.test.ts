import type { Query, SearchResult } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { randomFrom } from '../testing/random.ts';
import type { Ranked } from './ranking.ts';
import { TypoTolerantMiniSearch } from './term-tree.ts';

interface Doc {
  id: number;
  title: string;
  text: string;
  lang: string;
}

const random = randomFrom(11);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const syllables = ['ka', 'lo', 'mi', 're', 'tu', 'san', 'vel', 'or', 'pi', 'den'];
/** Words sharing beginnings and a letter or two apart, so prefixes and typos find several. */
const vocabulary = [
  ...new Set(
    Array.from({ length: 400 }, () =>
      Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(syllables)).join(''),
    ),
  ),
];
/** A few words in most documents, as 'the' or a product's name would be. */
const common = vocabulary.slice(0, 4);

const makeDoc = (id: number): Doc => ({
  id,
  title: Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(vocabulary)).join(' '),
  text: Array.from({ length: 10 + Math.floor(random() * 60) }, () =>
    random() < 0.3 ? pick(common) : pick(vocabulary),
  ).join(' '),
  lang: random() < 0.5 ? 'en' : 'it',
});

const byId = new Map<number, Doc>();
const fuzziness = (term: string) => (term.length >= 8 ? 2 : term.length >= 5 ? 1 : false);

function makeIndex() {
  const mini = new TypoTolerantMiniSearch<Doc>(
    {
      fields: ['title', 'text'],
      storeFields: [],
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term || null,
      searchOptions: {
        boost: { title: 4 },
        weights: { fuzzy: 0.4, prefix: 0.5 },
        tokenize: (text) => text.split(' '),
        processTerm: (term) => term || null,
      },
    },
    // For a ranking made after documents were added (from a snapshot, in the search index).
    (id) => byId.get(id as number),
  );
  return mini;
}

/** A query as the search index makes them: words OR'ed or AND'ed, each in forms, with prefixes, typos, fields, weights. */
function randomQuery(): Query {
  const count = 1 + Math.floor(random() * 3);
  const words = Array.from({ length: count }, (_, i) => {
    const word = pick(vocabulary);
    const last = i === count - 1;
    const typed = random() < 0.3 ? `${word.slice(0, 2)}x${word.slice(3)}` : word;
    const forms: Query[] = [
      { queries: [last && random() < 0.5 ? typed.slice(0, 3) : typed], prefix: last, fuzzy: fuzziness },
    ];
    if (random() < 0.4) forms.push({ queries: [pick(vocabulary)], fields: ['title'], boostTerm: () => 0.3 });
    if (random() < 0.3)
      forms.push({
        combineWith: 'AND',
        queries: [pick(common), pick(vocabulary)],
        boostTerm: () => 0.9,
      });
    return { combineWith: 'OR', queries: forms } as Query;
  });
  return { combineWith: random() < 0.3 ? 'AND' : 'OR', queries: words };
}

/** MiniSearch's results as [id, score, query terms, terms], by score then id. */
const expected = (results: SearchResult[]) =>
  results
    .map((r) => [r.id as number, r.score, [...r.queryTerms].sort(), [...r.terms].sort()] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);

const actual = (ranked: Ranked<Doc>) =>
  [...ranked.order()]
    .map(
      (at) =>
        [
          ranked.document(at).id,
          ranked.scores[at] as number,
          ranked.queryTermsOf(at).sort(),
          ranked.termsOf(at).sort(),
        ] as const,
    )
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);

describe('ranking', () => {
  const docs = Array.from({ length: 1_500 }, (_, i) => makeDoc(i + 1));
  for (const doc of docs) byId.set(doc.id, doc);
  const queries = Array.from({ length: 300 }, randomQuery);

  it('finds what MiniSearch finds, with the same scores to the bit, query terms and matched terms', () => {
    const mini = makeIndex();
    mini.addAll(docs);
    let found = 0;
    for (const query of queries) {
      const want = expected(mini.search(query));
      expect(actual(mini.rank(query)), JSON.stringify(query)).toEqual(want);
      found += want.length;
    }
    // The queries find something, many documents each: the comparison is not of empty lists.
    expect(found).toBeGreaterThan(300 * 50);
  });

  it('keeps the query terms of a query with more than 32, in room earlier searches left full', () => {
    const mini = makeIndex();
    mini.addAll(docs);
    for (const query of queries.slice(0, 20)) mini.rank(query);
    const words = [...new Set(Array.from({ length: 60 }, () => pick(vocabulary)))].slice(0, 40);
    expect(words.length).toBeGreaterThan(32);
    for (const combineWith of ['OR', 'AND'] as const) {
      const query: Query = {
        combineWith,
        queries: [
          { combineWith: 'OR', queries: words },
          { combineWith: 'OR', queries: words.slice(0, 2) },
        ],
      };
      for (const query2 of queries.slice(20, 25)) mini.rank(query2);
      expect(actual(mini.rank(query)), combineWith).toEqual(expected(mini.search(query)));
    }
  });

  it('weighs and leaves out documents as MiniSearch’s boost and filter do, within rounding', () => {
    const mini = makeIndex();
    mini.addAll(docs);
    const boost = (id: number) => (id % 7 === 0 ? 2.5 : id % 5 === 0 ? 1.5 : 1);
    const shown = (id: number) => id % 3 !== 0;
    for (const query of queries.slice(0, 100)) {
      const want = mini.search(query, {
        boostDocument: (id) => boost(id as number),
        filter: (result) => shown(result.id as number),
      });
      // Every document's factor, 0 for those left out; some boosted apart, as what visitors chose is.
      const factors = mini.factors((doc) => (shown(doc.id) ? (doc.id % 5 === 0 ? 1.5 : 1) : 0));
      const boosts = new Map(
        docs
          .filter((doc) => doc.id % 7 === 0)
          .map((doc) => [mini.shortIdOf(doc.id) as number, 2.5 / 1.5 ** Number(doc.id % 5 === 0)]),
      );
      const ranked = mini.rank(query, { factors, boosts });
      const got = new Map(
        [...ranked.order()].map((at) => [ranked.document(at).id, ranked.scores[at] as number]),
      );
      expect([...got.keys()].sort((a, b) => a - b)).toEqual(
        want.map((r) => r.id as number).sort((a, b) => a - b),
      );
      for (const result of want) expect(got.get(result.id as number)).toBeCloseTo(result.score, 9);
    }
  });

  it('orders the best first, equal scores by the order documents were added, and only those asked for', () => {
    const mini = makeIndex();
    mini.addAll(docs);
    const ranked = mini.rank({ queries: [common[0] as string] });
    expect(ranked.count).toBeGreaterThan(500);
    const order = [...ranked.order()];
    expect(new Set(order).size).toBe(ranked.count);
    for (let i = 1; i < order.length; i++) {
      const [a, b] = [order[i - 1] as number, order[i] as number];
      expect(ranked.scores[a]).toBeGreaterThanOrEqual(ranked.scores[b] as number);
      if (ranked.scores[a] === ranked.scores[b])
        expect(ranked.document(a).id).toBeLessThan(ranked.document(b).id);
    }
    const among = Int32Array.from(order.filter((_, i) => i % 3 === 1).reverse());
    expect([...ranked.order(among)]).toEqual(order.filter((_, i) => i % 3 === 1));
  });

  it('keeps up with documents added and discarded after a search, before and after the vacuum', async () => {
    const mini = makeIndex();
    const foundIds = (ranked: Ranked<Doc>) =>
      new Set([...ranked.order()].map((at) => ranked.document(at).id));
    const word = common[1] as string;
    /** What a search for `word` must find among the first `upTo` documents, those discarded left out. */
    const holding = (upTo: number) =>
      new Set(
        docs
          .slice(0, upTo)
          .filter((doc) => doc.id % 4 !== 0 && `${doc.title} ${doc.text}`.split(' ').includes(word))
          .map((doc) => doc.id),
      );
    mini.addAll(docs.slice(0, 1_000));
    mini.rank(queries[0] as Query);
    // Within the room the ranking's arrays were made with: added to them, and discarded from them, in place.
    mini.addAll(docs.slice(1_000, 1_200));
    for (const doc of docs.slice(0, 1_200)) if (doc.id % 4 === 0) mini.discard(doc.id);
    expect(foundIds(mini.rank({ queries: [word] }))).toEqual(holding(1_200));
    // Past that room: the arrays are made again.
    mini.addAll(docs.slice(1_200));
    for (const doc of docs.slice(1_200)) if (doc.id % 4 === 0) mini.discard(doc.id);
    expect(foundIds(mini.rank({ queries: [word] }))).toEqual(holding(docs.length));
    await mini.vacuum();
    for (const query of queries.slice(0, 100))
      expect(actual(mini.rank(query)), JSON.stringify(query)).toEqual(expected(mini.search(query)));
    // A document added after the vacuum is found with its own words.
    const added = { id: 5_000, title: 'zzunique', text: 'zzunique words', lang: 'en' };
    byId.set(added.id, added);
    mini.add(added);
    expect([...foundIds(mini.rank({ queries: ['zzunique'] }))]).toEqual([5_000]);
  });
});
