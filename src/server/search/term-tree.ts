import MiniSearch, { type Options, type Query } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { FieldPostings } from './postings.ts';
import { Ranker, type Ranked, type RankedIndex, type Weights } from './ranking.ts';

/** Typo lookups remembered per index: a help centre's visitors type the same words again and again. */
const EXPANSIONS_KEPT = 10_000;
/** Words shorter than this are looked up at two edits as one edit or one swap of neighbouring letters. */
const FULL_TWO_EDITS_FROM = 9;
/**
 * Edits a typo lookup allows a term that does not begin with the query's first letter: a second edit is looked for
 * only after a first letter typed right (as Lucene's fuzzy queries keep a prefix), which spares walking the branch of
 * every other first letter with an edit still to spend (two thirds of a two-edit lookup's time).
 */
const OTHER_FIRST_LETTER_EDITS = 1;

type Expansions<T> = ReturnType<SearchableMap<T>['fuzzyGet']>;

/** MiniSearch's own figures, besides its documents and terms: what a snapshot keeps of them. */
export interface MiniSearchFigures {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  avgFieldLength: number[];
  dirtCount: number;
}

/**
 * A branch of the term tree: the edges from the root to it, and the node there (or a term's postings, under LEAF),
 * each term's postings in the form `FieldPostings.encode` gives. Restored in the order written, the tree is the same
 * node for node, so terms are walked in the same order and a restored index ranks ties and adds up scores exactly as
 * the one written.
 */
type Branch = [path: string[], node: unknown];
/** The parts of MiniSearch's index a snapshot keeps, each a list of entries restored in turn. */
export interface MiniSearchParts {
  /** Short id to document id. */
  ids: [number, unknown][];
  /** Short id to the length of each field. */
  lengths: [number, number[]][];
  branches: Branch[];
}

/**
 * MiniSearch's tree of indexed terms, each term's postings compact (postings.ts), with its typo lookups made cheaper. A lookup at two edits walks much of the
 * tree (40% of a query's time at 10,000 articles): below nine letters it is one edit, or two neighbouring letters
 * swapped ('worklaod', the typo that needs the second edit most), at a fraction of the cost. (One edit below ten
 * letters lost 'worklaod', and 'pagamemto' fell to second: the relevance suite's typo MRR went from 0.974 to 0.961.) Lookups are remembered
 * (least recently used first out) until the index changes.
 */
export class TermTree extends SearchableMap<FieldPostings> {
  private readonly expansions = new Map<string, Expansions<FieldPostings>>();
  /** Forgotten whenever the tree changes (`forget`): through these methods, or a snapshot's branches put in place. */
  private readonly edges = new EdgesByLetter();

  /**
   * MiniSearch makes a new term's data here, as a `Map` from `initial`: it gets compact postings instead, which it
   * uses as that map (its only use of `fetch`).
   */
  override fetch(key: string, _initial: () => FieldPostings): FieldPostings {
    this.forget();
    return super.fetch(key, () => new FieldPostings());
  }

  override set(key: string, value: FieldPostings): SearchableMap<FieldPostings> {
    this.forget();
    return super.set(key, value);
  }

  override update(
    key: string,
    fn: (value: FieldPostings | undefined) => FieldPostings,
  ): SearchableMap<FieldPostings> {
    this.forget();
    return super.update(key, fn);
  }

  override delete(key: string): void {
    this.forget();
    super.delete(key);
  }

  override clear(): void {
    this.forget();
    super.clear();
  }

  /** A term's data, found with the edges by letter. */
  override get(key: string): FieldPostings | undefined {
    return lookUp(this._tree, key, this.edges)?.get(LEAF) as FieldPostings | undefined;
  }

  override fuzzyGet(key: string, maxEditDistance: number): Expansions<FieldPostings> {
    const at = `${maxEditDistance}\u0000${key}`;
    let found = this.expansions.get(at);
    if (found) this.expansions.delete(at);
    else {
      found =
        maxEditDistance === 2 && key.length < FULL_TWO_EDITS_FROM
          ? this.oneEditOrSwap(key)
          : withinEdits<FieldPostings>(
              this._tree,
              key,
              maxEditDistance,
              this.edges,
              OTHER_FIRST_LETTER_EDITS,
            );
      if (this.expansions.size >= EXPANSIONS_KEPT)
        this.expansions.delete(this.expansions.keys().next().value as string);
    }
    this.expansions.set(at, found);
    // MiniSearch takes the prefix matches out of what it is given.
    return new Map(found);
  }

  /** Drops what was worked out from the tree as it was: called on every change to it. */
  forget(): void {
    if (this.expansions.size) this.expansions.clear();
    this.edges.clear();
  }

  /** Terms one edit away, and those with two neighbouring letters swapped (two edits, weighed as such). */
  private oneEditOrSwap(key: string): Expansions<FieldPostings> {
    const found = withinEdits<FieldPostings>(this._tree, key, 1, this.edges);
    for (let at = 0; at + 1 < key.length; at++) {
      if (key[at] === key[at + 1]) continue;
      const swapped = `${key.slice(0, at)}${key[at + 1]}${key[at]}${key.slice(at + 2)}`;
      if (found.has(swapped)) continue;
      const value = this.get(swapped);
      if (value !== undefined) found.set(swapped, [value, 2]);
    }
    return found;
  }
}

/**
 * The terms at most `most` edits (letters added, dropped or changed) from `query`, each with its distance: what
 * MiniSearch's `fuzzyGet(query, most)` finds (at one edit in about a third of its time, at two in about three
 * quarters; `OTHER_FIRST_LETTER_EDITS` cuts two further). Its walk goes down the tree with a row of
 * the edit-distance table per letter; once a row's least distance is `most`, the edits are spent and a term can only
 * go on as the query does from a column at `most`, so those few endings are looked up (`EdgesByLetter`) instead of
 * every branch below being walked a letter at a time. Near the root that is most of the walk: a branch taken with a
 * changed first letter is one of dozens, each with dozens below it. Distances above `most` are kept as `most + 1`.
 */
export function withinEdits<T>(
  root: Tree,
  query: string,
  most: number,
  edges: EdgesByLetter = new EdgesByLetter(),
  /** Edits allowed to a term whose first letter is not the query's (at most `most`). */
  otherFirstLetter = most,
): Map<string, [T, number]> {
  const found = new Map<string, [T, number]>();
  const over = most + 1;
  const n = query.length + 1;
  // A term at most `most` letters longer than the query.
  const rows = n + most;
  const table = new Uint8Array(rows * n).fill(over);
  for (let j = 0; j < n; j++) table[j] = Math.min(j, over);
  for (let i = 1; i < rows; i++) table[i * n] = Math.min(i, over);

  // The edges from the root to where the walk is: joined only for a term found.
  const path: string[] = [];
  const walk = (node: Tree, depth: number, budget: number): void => {
    for (const edge of node.keys()) {
      if (edge === LEAF) {
        const distance = table[depth * n + n - 1] as number;
        if (distance <= budget) found.set(path.join(''), [node.get(LEAF) as T, distance]);
        continue;
      }
      const allowed =
        depth === 0 && edge.charCodeAt(0) !== query.charCodeAt(0)
          ? Math.min(budget, otherFirstLetter)
          : budget;
      let row = depth;
      let least = 0;
      let pos = 0;
      while (pos < edge.length && least < allowed) {
        row++;
        if (row >= rows) break;
        const letter = edge.charCodeAt(pos++);
        const at = row * n;
        const above = at - n;
        least = table[at] as number;
        const last = Math.min(n - 1, row + most);
        for (let j = Math.max(1, row - most); j <= last; j++) {
          const changed = (table[above + j - 1] as number) + (letter === query.charCodeAt(j - 1) ? 0 : 1);
          const dropped = (table[above + j] as number) + 1;
          const added = (table[at + j - 1] as number) + 1;
          const cell = Math.min(changed, dropped, added, over);
          table[at + j] = cell;
          if (cell < least) least = cell;
        }
      }
      if (row >= rows || least > allowed) continue;
      path.push(edge);
      if (least < allowed) walk(node.get(edge) as Tree, row, allowed);
      else endings(node.get(edge) as Tree, edge, pos, row, allowed);
      path.pop();
    }
  };

  /**
   * With the edits spent (`spent`) after `row` letters, `pos` of them into `edge`: the terms that go on as the query
   * does from a column at `spent`. Nothing is made unless a term is found: most endings end at their first letter.
   */
  const endings = (child: Tree, edge: string, pos: number, row: number, spent: number): void => {
    const at = row * n;
    const last = Math.min(n - 1, row + most);
    const left = edge.length - pos;
    for (let j = Math.max(0, row - most); j <= last; j++) {
      if (table[at + j] !== spent || j + left > query.length) continue;
      let same = true;
      for (let k = 0; k < left && same; k++) same = edge.charCodeAt(pos + k) === query.charCodeAt(j + k);
      if (!same) continue;
      const value = lookUp(child, query, edges, j + left)?.get(LEAF);
      if (value !== undefined) found.set(path.join('') + query.slice(j + left), [value as T, spent]);
    }
  };

  walk(root, 0, most);
  return found;
}

/** The node `key` (from its letter `from` on) leads to from `node`, if the tree has it. */
function lookUp(node: Tree, key: string, edges: EdgesByLetter, from = 0): Tree | undefined {
  for (let at = from; at < key.length;) {
    const edge = edges.from(node, key.charCodeAt(at));
    if (edge === undefined || !key.startsWith(edge, at)) return undefined;
    node = node.get(edge) as Tree;
    at += edge.length;
  }
  return node;
}

/** Nodes with fewer edges than this are searched edge by edge: a table would save little. */
const EDGES_BY_LETTER_FROM = 8;

/**
 * The edges of the tree's larger nodes by their first letter (the edges from a node begin with different letters),
 * made as lookups reach each node and kept until the tree changes. MiniSearch finds an edge by trying each one, which
 * near the root is dozens per letter looked up, and a typo lookup looks up hundreds of endings there.
 */
export class EdgesByLetter {
  private byNode = new WeakMap<Tree, Map<number, string>>();
  private made = false;

  /** The edge from `node` that begins with `letter` (a UTF-16 code unit), if there is one. */
  from(node: Tree, letter: number): string | undefined {
    if (node.size < EDGES_BY_LETTER_FROM) {
      for (const edge of node.keys()) if (edge !== LEAF && edge.charCodeAt(0) === letter) return edge;
      return undefined;
    }
    let byLetter = this.byNode.get(node);
    if (!byLetter) {
      byLetter = new Map();
      for (const edge of node.keys()) if (edge !== LEAF) byLetter.set(edge.charCodeAt(0), edge);
      this.byNode.set(node, byLetter);
      this.made = true;
    }
    return byLetter.get(letter);
  }

  clear(): void {
    if (!this.made) return;
    this.byNode = new WeakMap();
    this.made = false;
  }
}

/** MiniSearch over a TermTree, whose remembered lookups are forgotten whenever a document comes or goes. */
export class TypoTolerantMiniSearch<T> extends MiniSearch<T> {
  private readonly terms = new TermTree();
  private readonly ranker = new Ranker<T>(() => this.arrays());
  /** The documents as the ranking reads them (ranking.ts), kept up as documents come and go; null when to be made. */
  private documents: RankedIndex<T> | null = null;

  /**
   * `documentOf` gives a document by its id, for those the index has from a snapshot rather than by `add`. `termsOf`
   * gives the terms a document is indexed under in a field, when they are worked out otherwise than as the options say
   * (MiniSearch's `extractField`, `tokenize` and `processTerm`).
   */
  constructor(
    options: Options<T>,
    private readonly documentOf: (id: unknown) => T | undefined,
    private readonly termsOf?: (document: T, field: string) => readonly string[],
  ) {
    super(options);
    // The package declares its tree's types twice (here and in 'minisearch/SearchableMap'), alike but unrelated.
    this._index = this.terms as unknown as typeof this._index;
  }

  override add(document: T): void {
    this.terms.forget();
    const shortId = this._nextId;
    super.add(document);
    const documents = this.documents;
    if (!documents) return;
    if (shortId >= documents.live.length) {
      this.documents = null;
      return;
    }
    documents.live[shortId] = 1;
    (documents.documents as T[])[shortId] = document;
    const lengths = this._fieldLength.get(shortId) ?? [];
    const room = documents.live.length;
    for (let field = 0; field < documents.fieldCount; field++)
      documents.fieldLengths[field * room + shortId] = lengths[field] ?? 0;
  }

  override discard(id: unknown): void {
    this.terms.forget();
    const shortId = this._idToShortId.get(id);
    super.discard(id);
    if (shortId === undefined || !this.documents) return;
    const { live, fieldLengths, fieldCount } = this.documents;
    live[shortId] = 0;
    for (let field = 0; field < fieldCount; field++) fieldLengths[field * live.length + shortId] = 0;
    (this.documents.documents as (T | undefined)[])[shortId] = undefined;
  }

  /** Every document the query finds, as MiniSearch's `search` finds them, in arrays (see ranking.ts). */
  rank(query: Query, weights?: Weights): Ranked<T> {
    return this.ranker.search(query, weights);
  }

  /** A factor for every document by short id (see `Weights`), from `factor`; 0 where there is no document. */
  factors(factor: (document: T) => number): Float64Array {
    const { documents, live } = this.arrays();
    const factors = new Float64Array(live.length);
    for (let shortId = 0; shortId < live.length; shortId++)
      if (live[shortId] === 1) factors[shortId] = factor(documents[shortId] as T);
    return factors;
  }

  /** A document's short id, by which `Weights` name it. */
  shortIdOf(id: unknown): number | undefined {
    return this._idToShortId.get(id);
  }

  /** The ranking's view of the index, made again (with room to grow) when a document outgrew it or after a restore. */
  private arrays(): RankedIndex<T> {
    if (this.documents) {
      this.documents.documentCount = this._documentCount;
      return this.documents;
    }
    const fieldCount = Math.max(0, ...Object.values(this._fieldIds)) + 1;
    const room = Math.ceil(this._nextId * 1.25) + 64;
    const live = new Uint8Array(room);
    // Filled one by one: an array made at a large length keeps its elements in a dictionary, a lookup each.
    const documents: (T | undefined)[] = [];
    for (let shortId = 0; shortId < room; shortId++) documents.push(undefined);
    const fieldLengths = new Uint32Array(room * fieldCount);
    for (const [shortId, id] of this._documentIds) {
      live[shortId] = 1;
      documents[shortId] = this.documentOf(id);
    }
    for (const [shortId, lengths] of this._fieldLength)
      for (let field = 0; field < fieldCount; field++)
        fieldLengths[field * room + shortId] = lengths[field] ?? 0;
    const { searchOptions, fields, tokenize, processTerm, extractField, stringifyField } = this._options;
    const terms = this.terms;
    const fieldNames: string[] = [];
    for (const [name, id] of Object.entries(this._fieldIds)) fieldNames[id] = name;
    // As MiniSearch's `add` reads a document's field.
    const termsOf =
      this.termsOf ??
      ((document: T, field: string) => {
        const value = extractField(document, field) as unknown;
        if (value === null || value === undefined) return [];
        return tokenize(stringifyField(value, field), field).flatMap((token) => {
          const processed = processTerm(token, field);
          return Array.isArray(processed) ? processed : processed ? [processed] : [];
        });
      });
    this.documents = {
      documentCount: this._documentCount,
      fieldIds: this._fieldIds,
      avgFieldLength: this._avgFieldLength,
      fields,
      searchOptions,
      tokenize: searchOptions.tokenize ?? tokenize,
      processTerm: searchOptions.processTerm ?? processTerm,
      terms: {
        get: (term) => terms.get(term),
        atPrefix: (prefix) => terms.atPrefix(prefix),
        fuzzyGet: (term, distance) => terms.fuzzyGet(term, distance),
      },
      live,
      fieldLengths,
      fieldCount,
      documents,
      termsIn: (document, field) => {
        const name = fieldNames[field];
        return name === undefined ? [] : termsOf(document, name);
      },
    };
    return this.documents;
  }

  /** Gives back the room the postings grew into, a term at a time (see `Postings.trim`). */
  *trimPostings(): Generator<void> {
    for (const [, fields] of this.terms) {
      for (const postings of fields.values()) postings.trim();
      yield;
    }
  }

  figures(): MiniSearchFigures {
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      fieldIds: this._fieldIds,
      avgFieldLength: this._avgFieldLength,
      dirtCount: this._dirtCount,
    };
  }

  /**
   * Each part's entries as they are now, read lazily, so a snapshot is written in slices; the term tree in branches
   * of at most `postings` postings each where it can be cut so (a term's postings are never cut).
   */
  parts(postings: number): {
    ids: Iterable<MiniSearchParts['ids'][number]>;
    lengths: Iterable<MiniSearchParts['lengths'][number]>;
    branches: Iterable<{ branch: Branch; postings: number }>;
  } {
    return {
      ids: this._documentIds.entries() as Iterable<[number, unknown]>,
      lengths: this._fieldLength.entries(),
      branches: branchesOf(this.terms._tree as Tree, [], postings),
    };
  }

  /** Takes a snapshot's figures, on an index just made with the same options. */
  restoreFigures(figures: MiniSearchFigures): void {
    this.documents = null;
    this._documentCount = figures.documentCount;
    this._nextId = figures.nextId;
    this._fieldIds = figures.fieldIds;
    this._avgFieldLength = figures.avgFieldLength;
    this._dirtCount = figures.dirtCount;
  }

  /** Adds a snapshot's entries of one part, as written (terms go into the tree as they are, not analysed again). */
  restorePart<K extends keyof MiniSearchParts>(part: K, entries: MiniSearchParts[K]): void {
    this.documents = null;
    if (part === 'ids') {
      for (const [shortId, id] of entries as MiniSearchParts['ids']) {
        this._documentIds.set(shortId, id);
        this._idToShortId.set(id, shortId);
      }
    } else if (part === 'lengths') {
      for (const [shortId, lengths] of entries as MiniSearchParts['lengths'])
        this._fieldLength.set(shortId, lengths);
    } else {
      this.terms.forget();
      for (const [path, node] of entries as MiniSearchParts['branches']) {
        let parent = this.terms._tree as Tree;
        for (const edge of path.slice(0, -1)) {
          let child = parent.get(edge) as Tree | undefined;
          if (!child) parent.set(edge, (child = new Map()));
          parent = child;
        }
        const edge = path.at(-1) as string;
        parent.set(edge, decodeNode(edge, node));
      }
    }
  }
}

/** MiniSearch keeps a term's postings under this key of its last node. */
const LEAF = '';

type Tree = Map<string, unknown>;

/** How many postings a term's data (by field, by document) or a branch of terms holds. */
function postingsIn(edge: string, node: unknown): number {
  if (edge === LEAF) {
    let count = 0;
    for (const documents of (node as FieldPostings).values()) count += documents.size;
    return count;
  }
  let count = 0;
  for (const [next, child] of node as Tree) count += postingsIn(next, child);
  return count;
}

/** The tree's branches in order, each whole when it holds at most `most` postings, else cut further. */
function* branchesOf(
  tree: Tree,
  path: string[],
  most: number,
): Generator<{ branch: Branch; postings: number }> {
  for (const [edge, node] of tree) {
    const at = [...path, edge];
    const postings = postingsIn(edge, node);
    if (edge === LEAF || postings <= most) yield { branch: [at, encodeNode(edge, node)], postings };
    else yield* branchesOf(node as Tree, at, most);
  }
}

/** A node of the tree as a snapshot keeps it: its terms' postings encoded. */
function encodeNode(edge: string, node: unknown): unknown {
  if (edge === LEAF) return (node as FieldPostings).encode();
  const encoded: Tree = new Map();
  for (const [next, child] of node as Tree) encoded.set(next, encodeNode(next, child));
  return encoded;
}

/** A node of the tree from a snapshot. Throws when it is not such. */
function decodeNode(edge: string, node: unknown): unknown {
  if (edge === LEAF) return FieldPostings.decode(node);
  if (!(node instanceof Map)) throw new Error('a node of the term tree is malformed');
  const decoded: Tree = new Map();
  for (const [next, child] of node as Tree) decoded.set(next, decodeNode(next, child));
  return decoded;
}
