import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { randomFrom } from '../testing/random.ts';
import { FieldPostings } from './postings.ts';
import { TermTree, withinEdits } from './term-tree.ts';

/** Terms and their distances, in one order, as the two walks may list them in different ones. */
const sorted = (found: Map<string, [number, number]>) =>
  [...found].map(([term, [value, distance]]) => `${term}:${value}:${distance}`).sort();

describe('typo lookups', () => {
  it.each([
    [1, 1, 'a few letters', 'abcd', 1],
    [1, 1, 'letters outside the basic plane and accents', 'aéж😀', 2],
    [2, 2, 'a few letters', 'abcd', 3],
    [2, 2, 'letters outside the basic plane and accents', 'aéж😀', 4],
    [3, 3, 'a few letters', 'abcdef', 5],
    // Enough letters for nodes with more edges than are searched one by one (EdgesByLetter keeps a table of those).
    [1, 1, 'many letters', 'abcdefghijklmnop', 6],
    [2, 2, 'many letters', 'abcdefghijklmnop', 7],
    // A term with another first letter than the query's, allowed fewer edits.
    [2, 1, 'a few letters', 'abcd', 9],
    [2, 1, 'many letters', 'abcdefghijklmnop', 10],
    [1, 0, 'a few letters', 'abcd', 11],
  ])(
    'at %i edits (%i with another first letter) find what MiniSearch finds, with the same distances, over %s',
    (most, otherFirst, _, letters, seed) => {
      const random = randomFrom(seed);
      const alphabet = [...letters];
      const word = (most: number) =>
        Array.from(
          { length: 1 + Math.floor(random() * most) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
      const tree = new SearchableMap<number>();
      const terms: string[] = [];
      for (let n = 0; n < 600; n++) {
        const term = word(8);
        tree.set(term, n);
        terms.push(term);
      }
      // Removals merge nodes back together, as they do when articles leave the index.
      for (let n = 0; n < 150; n++) tree.delete(terms[Math.floor(random() * terms.length)] as string);
      const queries = [
        '',
        ...Array.from({ length: 300 }, () => word(9)),
        ...terms.slice(0, 100),
        ...terms.slice(100, 200).map((term) => `${term}${word(1)}`),
        ...terms.slice(200, 300).map((term) => term.slice(1)),
      ];
      let near = 0;
      for (const query of queries) {
        const theirs = new Map(
          [...SearchableMap.prototype.fuzzyGet.call(tree, query, most)].filter(
            ([term, [, distance]]) => term.charCodeAt(0) === query.charCodeAt(0) || distance <= otherFirst,
          ),
        );
        const ours = withinEdits<number>(
          tree._tree as Map<string, unknown>,
          query,
          most,
          undefined,
          otherFirst,
        );
        expect(sorted(ours), query).toEqual(sorted(theirs));
        near += [...theirs.values()].filter(([, distance]) => distance > 0).length;
      }
      // The comparison means something: many queries have terms some edits away.
      expect(near).toBeGreaterThan(queries.length / 2);
    },
  );

  it('follow the tree as terms come and go, with the edges by letter made before', () => {
    const random = randomFrom(8);
    const alphabet = [...'abcdefghijklmnopqrst'];
    const word = () =>
      Array.from(
        { length: 2 + Math.floor(random() * 6) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    const tree = new TermTree();
    const held = new Set<string>();
    const check = () => {
      for (let n = 0; n < 200; n++) {
        const query = word();
        const theirs = SearchableMap.prototype.fuzzyGet.call(tree, query, 1);
        const ours = tree.fuzzyGet(query, 1);
        expect([...ours.keys()].sort(), query).toEqual([...theirs.keys()].sort());
        expect(tree.get(query) !== undefined).toBe(held.has(query));
      }
      for (const term of held) expect(tree.get(term), term).toBeDefined();
    };
    for (let round = 0; round < 6; round++) {
      // Adding splits edges and removing merges them: what the tables knew of a node may be wrong after either.
      for (let n = 0; n < 400; n++) {
        const term = word();
        tree.fetch(term, () => new FieldPostings());
        held.add(term);
      }
      check();
      for (const term of [...held].filter(() => random() < 0.4)) {
        tree.delete(term);
        held.delete(term);
      }
      check();
    }
  });
});
