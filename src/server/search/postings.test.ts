import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { randomFrom } from '../testing/random.ts';
import { FieldPostings, Postings } from './postings.ts';
import { TypoTolerantMiniSearch } from './term-tree.ts';

describe('postings', () => {
  it.each([
    ['', 1],
    [', made wide by an id past 24 bits', 2 ** 24 - 3_000],
  ])('behave as a Map of document to frequency, also when removed from while walked%s', (_, firstId) => {
    const random = randomFrom(7);
    const postings = new Postings();
    const map = new Map<number, number>();
    // As MiniSearch's short ids, a new document's id is above every id used before.
    let nextId = firstId;
    const some = () => [...map.keys()][Math.floor(random() * map.size)] ?? nextId;
    for (let step = 0; step < 5_000; step++) {
      const choice = random();
      if (choice < 0.45) {
        const id = nextId;
        nextId += 1 + Math.floor(random() * 3);
        expect(postings.set(id, 1)).toBe(postings);
        map.set(id, 1);
      } else if (choice < 0.6) {
        const id = some();
        const frequency = (map.get(id) ?? 0) + 1;
        postings.set(id, frequency);
        map.set(id, frequency);
      } else if (choice < 0.85) {
        const id = random() < 0.9 ? some() : nextId + 5;
        expect(postings.delete(id)).toBe(map.delete(id));
      } else if (choice < 0.95) {
        // Walked while every other document is removed (MiniSearch's vacuum, its lazy removals while scoring).
        const seen: [number, number][] = [];
        let drop = false;
        for (const [id, frequency] of postings) {
          seen.push([id, frequency]);
          if ((drop = !drop)) postings.delete(id);
        }
        const expected: [number, number][] = [];
        drop = false;
        for (const [id, frequency] of map) {
          expected.push([id, frequency]);
          if ((drop = !drop)) map.delete(id);
        }
        expect(seen).toEqual(expected);
      } else {
        const id = random() < 0.8 ? some() : nextId;
        expect(postings.get(id)).toBe(map.get(id));
        expect(postings.has(id)).toBe(map.has(id));
      }
      expect(postings.size).toBe(map.size);
    }
    expect([...postings.keys()]).toEqual([...map.keys()]);
    expect([...postings.values()]).toEqual([...map.values()]);
    expect([...postings.entries()]).toEqual([...map.entries()]);
    const each: [number, number][] = [];
    postings.forEach((frequency, id) => each.push([id, frequency]));
    expect(each).toEqual([...map]);
    expect([...Postings.decode(postings.encode())]).toEqual([...map]);
  });

  it('go on after removals that compact them while walked', () => {
    const postings = Postings.from(Array.from({ length: 100 }, (_, at) => [at * 2 + 1, at + 1] as const));
    const seen: number[] = [];
    for (const id of postings.keys()) {
      seen.push(id);
      // The one walked and the next 60 removed: past half of the list, it is compacted under the walk.
      if (id === 21) for (let next = 21; next <= 141; next += 2) postings.delete(next);
    }
    expect(seen).toEqual([
      ...Array.from({ length: 11 }, (_, at) => at * 2 + 1),
      ...Array.from({ length: 29 }, (_, at) => 143 + at * 2),
    ]);
    expect(postings.size).toBe(39);
    expect(postings.get(143)).toBe(72);
    expect(postings.get(141)).toBeUndefined();
  });

  it('keep what a narrow cell cannot hold: a frequency of 256 or 0', () => {
    const postings = Postings.from([
      [1, 1],
      [2, 255],
      [3, 7],
    ]);
    postings.delete(3);
    postings.set(2, 256).set(4, 0).set(5, 1);
    expect([...postings]).toEqual([
      [1, 1],
      [2, 256],
      [4, 0],
      [5, 1],
    ]);
    expect(postings.has(3)).toBe(false);
    expect([...Postings.decode(postings.encode())]).toEqual([...postings]);
  });

  it('refuse what a typed array cannot hold, and bytes that are not theirs', () => {
    expect(() => new Postings().set(-1, 1)).toThrow(RangeError);
    expect(() => new Postings().set(1, 2 ** 32)).toThrow(RangeError);
    expect(() => new Postings().set(1.5, 1)).toThrow(RangeError);
    const bytes = Postings.from([
      [3, 1],
      [300, 2],
      [70_000, 1_000],
    ]).encode();
    expect([...Postings.decode(bytes)]).toEqual([
      [3, 1],
      [300, 2],
      [70_000, 1_000],
    ]);
    expect(() => Postings.decode(bytes.subarray(0, bytes.length - 1))).toThrow();
    expect(() => Postings.decode(Uint8Array.from([...bytes, 0]))).toThrow();
    expect(() => Postings.decode(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x10]))).toThrow();
    expect(() => FieldPostings.decode([[0, [1, 2]]])).toThrow();
  });

  it('by field, behave as a Map of field to postings', () => {
    const fields = new FieldPostings();
    expect(fields.size).toBe(0);
    fields.set(2, new Map([[5, 1]]));
    fields.set(0, Postings.from([[7, 3]]));
    expect(fields.get(2)).toBeInstanceOf(Postings);
    expect([...fields.keys()]).toEqual([0, 2]);
    expect(fields.delete(2)).toBe(true);
    expect(fields.delete(2)).toBe(false);
    expect(fields.size).toBe(1);
    expect(fields.get(2)).toBeUndefined();
    expect(
      [...FieldPostings.decode(fields.encode())].map(([field, postings]) => [field, [...postings]]),
    ).toEqual([[0, [[7, 3]]]]);
  });
});

const WORDS = [
  'account',
  'accounts',
  'accountant',
  'configure',
  'configuration',
  'configurations',
  'password',
  'passwords',
  'passport',
  'printer',
  'printers',
  'print',
  'network',
  'networking',
  'invoice',
  'invoices',
  'export',
  'exports',
  'exporter',
  'synchronisation',
  'synchronise',
  'notification',
  'notifications',
  'keyboard',
  'shortcut',
  'shortcuts',
  'team',
  'teams',
  'billing',
  'refund',
];

interface Doc {
  id: number;
  title: string;
  category: string;
  section: string;
  text: string;
}

describe('an index with compact postings', () => {
  const random = randomFrom(11);
  const word = () => WORDS[Math.floor(random() ** 2 * WORDS.length)] as string;
  const phrase = (most: number) => Array.from({ length: 1 + Math.floor(random() * most) }, word).join(' ');
  const document = (id: number): Doc => ({
    id,
    title: phrase(4),
    category: phrase(2),
    section: phrase(1),
    text: phrase(40),
  });
  const options: Options<Doc> = {
    fields: ['title', 'category', 'section', 'text'],
    searchOptions: { boost: { title: 4, category: 1.5 }, weights: { fuzzy: 0.4, prefix: 0.5 } },
  };
  // Typo lookups at two edits of words under nine letters are our tree's own; the rest is MiniSearch's.
  const queries: [string, SearchOptions][] = [
    ...WORDS.map((w): [string, SearchOptions] => [w, {}]),
    ...WORDS.map((w): [string, SearchOptions] => [w.slice(0, 4), { prefix: true }]),
    ...WORDS.map((w): [string, SearchOptions] => [`${w.slice(0, 2)}x${w.slice(3)}`, { fuzzy: 1 }]),
    ['synchronisaton configuraton', { fuzzy: 2 }],
    ['notificatoins', { fuzzy: 2, prefix: true }],
    ['account password', { combineWith: 'AND' }],
    ['print team refund', { combineWith: 'OR', prefix: true, fuzzy: 1 }],
    ['invoice export', { fields: ['title', 'section'] }],
    ['keyboard shortcut', { boostDocument: (id) => 1 + ((id as number) % 3) }],
    ['billing', { filter: (result) => (result.id as number) % 2 === 0 }],
  ];
  const same = (compact: MiniSearch<Doc>, plain: MiniSearch<Doc>) => {
    for (const [query, searchOptions] of queries)
      expect(compact.search(query, searchOptions), query).toEqual(plain.search(query, searchOptions));
  };

  it('answers as MiniSearch with its own maps, scores and order of ties included, across edits and removals', async () => {
    const compact = new TypoTolerantMiniSearch<Doc>(options, () => undefined);
    const plain = new MiniSearch<Doc>(options);
    const documents = Array.from({ length: 400 }, (_, at) => document(at + 1));
    for (const doc of documents) {
      compact.add(doc);
      plain.add(doc);
    }
    same(compact, plain);

    // Edited in place (discarded and added again), removed, and new: each index drops the old postings lazily as
    // queries meet them, and vacuums on its own past its dirt count.
    for (let round = 0; round < 3; round++) {
      for (let edit = 0; edit < 40; edit++) {
        const id = 1 + Math.floor(random() * documents.length);
        const changed = document(id);
        if (!compact.has(id)) continue;
        for (const index of [compact, plain]) {
          index.discard(id);
          index.add(changed);
        }
      }
      for (let removal = 0; removal < 15; removal++) {
        const id = 1 + Math.floor(random() * documents.length);
        if (!compact.has(id)) continue;
        compact.discard(id);
        plain.discard(id);
      }
      same(compact, plain);
    }
    await Promise.all([compact.vacuum(), plain.vacuum()]);
    expect(compact.dirtCount).toBe(0);
    expect(compact.termCount).toBe(plain.termCount);
    same(compact, plain);
  });
});
