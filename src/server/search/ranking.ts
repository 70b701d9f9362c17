import type { Query } from 'minisearch';
import type { FieldPostings, Postings } from './postings.ts';

/** A removed pair's frequency in a wide list (see `Postings.view`). */
const REMOVED = 0xffff_ffff;

/**
 * A query's answer ranked over the index's arrays, for what MiniSearch's `search` costs most at 100,000 articles: it
 * keeps every matching document as an object in a `Map` (a word in a fifth of all bodies is 20,000 of them), merges
 * those maps, makes a result object for each and sorts them all, when a visitor is shown ten.
 *
 * Here each part of the query finds its documents as sorted arrays (ids, scores, and which query terms matched,
 * as bits), parts are merged as sorted lists, and only what is shown is ordered. Without factors (`Weights`),
 * scores are MiniSearch's to the bit: the same BM25 terms, multiplied and added in the same order (ranking.test.ts
 * compares them). What differs: a document's factor multiplies its summed score rather than each term's (ours
 * depends on the document alone; the last bits may differ), equal scores rank by the order documents were added,
 * and a removed document still counted in a term's postings (until MiniSearch's vacuum takes it out) is passed over
 * without changing the term's weight for the others.
 */

/** What the ranking reads of the index: MiniSearch's figures and term tree, and its documents as arrays. */
export interface RankedIndex<D> {
  documentCount: number;
  fieldIds: Readonly<Record<string, number>>;
  avgFieldLength: readonly number[];
  /** The index's fields, in the order MiniSearch scores them when a query names none. */
  fields: readonly string[];
  /** MiniSearch's search options with its defaults (`_options.searchOptions`). */
  searchOptions: SearchDefaults;
  tokenize: (text: string) => string[];
  processTerm: (term: string) => string | string[] | null | undefined | false;
  terms: {
    get(term: string): FieldPostings | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldPostings]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldPostings, number]>;
  };
  /** Per short id: 1 while the document is in the index. */
  live: Uint8Array;
  /**
   * Each field's length in each document: a run of `live.length` (by short id) per field, by field id, 0 for a short
   * id with no document. A field's lengths side by side are what scoring a term in that field reads.
   */
  fieldLengths: Uint32Array;
  fieldCount: number;
  /** Per short id, the document (undefined where none is). */
  documents: readonly (D | undefined)[];
  /** The terms a document holds in a field (by field id), as the index was given them. */
  termsIn(document: D, field: number): readonly string[];
}

interface SearchDefaults {
  boost?: Record<string, number>;
  weights?: { fuzzy?: number; prefix?: number };
  maxFuzzy?: number;
  bm25?: { k: number; b: number; d: number };
}

/** The options a query's parts take from those around them, as MiniSearch passes them down. */
interface Inherited {
  fields?: string[];
  prefix?: boolean | ((term: string, i: number, terms: string[]) => boolean);
  fuzzy?: boolean | number | ((term: string, i: number, terms: string[]) => boolean | number);
  boostTerm?: (term: string, i: number, terms: string[]) => number;
  combineWith?: string;
  boost?: Record<string, number>;
  weights?: { fuzzy?: number; prefix?: number };
  maxFuzzy?: number;
  bm25?: { k: number; b: number; d: number };
}

/** One word of the query looked up: its terms in the index (itself, completions, typos), each with its weight. */
interface TermPlan {
  kind: 'term';
  /** Which bit stands for the query term (MiniSearch's `queryTerms`). */
  bit: number;
  found: { term: string; weight: number; data: FieldPostings }[];
  fields: { id: number; boost: number }[];
  bm25: { k: number; b: number; d: number };
  /** `found` by term, made when first needed (see `matchedTerms`). */
  byTerm?: Map<string, FieldPostings>;
}

type Plan = TermPlan | { kind: 'and' | 'or'; parts: Plan[] };

/** Documents found by a part of the query, by short id ascending, with their scores and query terms (as bits). */
interface Found {
  count: number;
  docs: Int32Array;
  scores: Float64Array;
  /** `words` 32-bit cells per document. */
  bits: Uint32Array;
}

const EMPTY: Found = {
  count: 0,
  docs: new Int32Array(0),
  scores: new Float64Array(0),
  bits: new Uint32Array(0),
};

/** The most entries a ranker keeps as room for found documents, per document in the index (see `Arena`). */
const ARENA_DOCUMENTS = 4;

/** Factors of documents' scores, by short id (see `Ranker.search`). */
export interface Weights {
  /** Every document's, 0 to leave it out; a document past its end is left out. */
  factors?: Float64Array;
  boosts?: ReadonlyMap<number, number>;
}

/** What a search found: every matching document the filter lets through, unordered (see `order`). */
export class Ranked<D> {
  constructor(
    readonly count: number,
    /** Short ids. */
    readonly docs: Int32Array,
    /** What the documents were found in. */
    private readonly index: RankedIndex<D>,
    /** Final scores: MiniSearch's score times the number of query terms matched. */
    readonly scores: Float64Array,
    private readonly bits: Uint32Array,
    private readonly words: number,
    private readonly queryTerms: string[],
    private readonly plan: Plan,
  ) {}

  /** The `at`-th document found. */
  document(at: number): D {
    return this.index.documents[this.docs[at] as number] as D;
  }

  /** The query terms the `at`-th document matched (MiniSearch's `queryTerms`). */
  queryTermsOf(at: number): string[] {
    const terms: string[] = [];
    for (let bit = 0; bit < this.queryTerms.length; bit++) {
      if (((this.bits[at * this.words + (bit >>> 5)] as number) >>> (bit & 31)) & 1)
        terms.push(this.queryTerms[bit] as string);
    }
    return terms;
  }

  /** A number for each query term (by its bit), for `union`. */
  perTerm(value: (term: string) => number): Int32Array {
    return Int32Array.from(this.queryTerms, value);
  }

  /** The union of `perTerm`'s numbers for the query terms the `at`-th document matched. */
  union(at: number, perTerm: Int32Array): number {
    let union = 0;
    for (let word = 0; word < this.words; word++) {
      let cell = this.bits[at * this.words + word] as number;
      while (cell !== 0) {
        const low = cell & -cell;
        union |= perTerm[word * 32 + 31 - Math.clz32(low)] as number;
        cell ^= low;
      }
    }
    return union;
  }

  /**
   * The terms of the index the `at`-th document was found by (MiniSearch's `terms`); with `field`, only those the
   * document holds in that field (for a snippet of the body: the terms that can mark a word there).
   */
  termsOf(at: number, field?: string): string[] {
    const doc = this.docs[at] as number;
    const found = matchedTerms(this.plan, new DocumentTerms(this.index, doc));
    if (!found) return [];
    if (field === undefined) return [...found.keys()];
    const id = this.index.fieldIds[field];
    return [...found].filter(([, data]) => id !== undefined && data.get(id)?.has(doc)).map(([term]) => term);
  }

  /** Whether the `a`-th document ranks before the `b`-th. */
  before(a: number, b: number): boolean {
    const sa = this.scores[a] as number;
    const sb = this.scores[b] as number;
    return sa > sb || (sa === sb && (this.docs[a] as number) < (this.docs[b] as number));
  }

  /**
   * Positions of the documents (all, or those `among` gives), best first, ordered as they are taken: a caller that
   * wants ten pays for ten. Equal scores keep the order documents were added to the index.
   */
  *order(among?: Int32Array): Generator<number> {
    let heap: Int32Array;
    if (among) heap = Int32Array.from(among);
    else {
      heap = new Int32Array(this.count);
      for (let at = 0; at < this.count; at++) heap[at] = at;
    }
    let size = heap.length;
    const better = (a: number, b: number) => this.before(a, b);
    const down = (from: number) => {
      let at = from;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= size) return;
        const right = left + 1;
        const child = right < size && better(heap[right] as number, heap[left] as number) ? right : left;
        if (!better(heap[child] as number, heap[at] as number)) return;
        [heap[at], heap[child]] = [heap[child] as number, heap[at] as number];
        at = child;
      }
    };
    for (let at = (size >>> 1) - 1; at >= 0; at--) down(at);
    while (size > 0) {
      const top = heap[0] as number;
      heap[0] = heap[--size] as number;
      down(0);
      yield top;
    }
  }
}

/** Room reused by every search on one index (searches run one at a time on the event loop). */
class Scratch {
  /** A word's score so far, by short id: read only where `marks` has the document. */
  scores = new Float64Array(0);
  /**
   * One bit per short id: the documents a word has found so far, cleared as they are read out. A 100,000-document
   * index takes 12.5 KB, which stays in the processor's nearest cache while postings are scored.
   */
  marks = new Uint32Array(0);
  /** The documents found, in the order first found. */
  touched = new Int32Array(0);
  /** Query terms matched (as bits), `words` cells per short id: read only where `marks` has the document. */
  private cells = new Uint32Array(0);

  fit(documents: number): void {
    if (this.scores.length >= documents) return;
    const room = Math.max(documents, Math.ceil(this.scores.length * 1.5));
    this.scores = new Float64Array(room);
    this.marks = new Uint32Array(Math.ceil(room / 32));
    this.touched = new Int32Array(room);
  }

  /**
   * The marked documents from short id `lowest` to `highest`, in order, into `into`, a word of 32 documents at a time;
   * the marks are left clear for the next. Returns how many.
   */
  readOut(lowest: number, highest: number, into: Int32Array): number {
    const marks = this.marks;
    let count = 0;
    for (let word = lowest >>> 5; word <= highest >>> 5; word++) {
      let cell = marks[word] as number;
      if (cell === 0) continue;
      marks[word] = 0;
      while (cell !== 0) {
        const low = cell & -cell;
        into[count++] = word * 32 + 31 - Math.clz32(low);
        cell ^= low;
      }
    }
    return count;
  }

  /** Room for `words` cells of bits per document. */
  cellsFor(words: number): Uint32Array {
    const wanted = this.scores.length * words;
    if (this.cells.length < wanted) this.cells = new Uint32Array(wanted);
    return this.cells;
  }
}

/**
 * Room for one search's found documents, handed out in turn and taken back whole when the next search begins. A
 * query at 100,000 articles made some twenty typed arrays of thousands of entries each, every one a new buffer
 * outside the heap; their churn set off a young collection (about 2 ms) every few dozen queries.
 */
class Arena {
  private ints = new Int32Array(0);
  private floats = new Float64Array(0);
  private cells = new Uint32Array(0);
  private used = 0;
  private cellsUsed = 0;
  /** What the last search asked for in all, for the room of the next. */
  private asked = 0;
  private cellsAsked = 0;

  /** Takes everything back; grows to what the last search asked for, up to `most` entries. */
  reset(most: number): void {
    if (this.asked > this.ints.length && this.ints.length < most) {
      const room = Math.min(most, Math.ceil(this.asked * 1.25));
      this.ints = new Int32Array(room);
      this.floats = new Float64Array(room);
    }
    if (this.cellsAsked > this.cells.length && this.cells.length < most)
      this.cells = new Uint32Array(Math.min(most, Math.ceil(this.cellsAsked * 1.25)));
    this.used = this.cellsUsed = this.asked = this.cellsAsked = 0;
  }

  /** Room for `room` documents found, `words` cells of bits each (not cleared). */
  found(room: number, words: number): Found {
    const cells = room * words;
    this.asked += room;
    this.cellsAsked += cells;
    if (this.used + room > this.ints.length || this.cellsUsed + cells > this.cells.length)
      return {
        count: 0,
        docs: new Int32Array(room),
        scores: new Float64Array(room),
        bits: new Uint32Array(cells),
      };
    const found = {
      count: 0,
      docs: this.ints.subarray(this.used, this.used + room),
      scores: this.floats.subarray(this.used, this.used + room),
      bits: this.cells.subarray(this.cellsUsed, this.cellsUsed + cells),
    };
    this.used += room;
    this.cellsUsed += cells;
    return found;
  }
}

/** Ranks queries over one index (see the file's comment); `search` gives what MiniSearch's would, unordered. */
export class Ranker<D> {
  private readonly scratch = new Scratch();
  private readonly arena = new Arena();

  constructor(private readonly index: () => RankedIndex<D>) {}

  /**
   * Every document the query finds, unordered. A document's score is multiplied by its factor in `weights`, by short
   * id: `factors` for every document (0 leaves it out), `boosts` for some. MiniSearch's `boostDocument` and `filter`
   * in one, without reading each document found (at 100,000 articles, reading them cost more than finding them).
   * What it gives is valid until the next search: its arrays are this ranker's room, taken back then.
   */
  search(query: Query, weights: Weights = {}): Ranked<D> {
    const index = this.index();
    this.arena.reset(ARENA_DOCUMENTS * index.live.length);
    const queryTerms: string[] = [];
    const plan = this.planOf(index, query, {}, queryTerms);
    const words = Math.max(1, Math.ceil(queryTerms.length / 32));
    this.scratch.fit(index.live.length);
    const found = this.run(index, plan, words);
    const { docs, scores, bits } = this.arena.found(found.count, words);
    const { factors, boosts } = weights;
    let count = 0;
    for (let at = 0; at < found.count; at++) {
      const doc = found.docs[at] as number;
      let factor = factors ? (factors[doc] as number) : 1;
      if (!factor) continue;
      if (boosts) factor *= boosts.get(doc) ?? 1;
      let quality = 0;
      for (let word = 0; word < words; word++) {
        const cell = found.bits[at * words + word] as number;
        quality += bitCount(cell);
        bits[count * words + word] = cell;
      }
      docs[count] = doc;
      scores[count] = (found.scores[at] as number) * factor * (quality || 1);
      count++;
    }
    return new Ranked(count, docs, index, scores, bits, words, queryTerms, plan);
  }

  /** The query as a tree of looked-up words, each part with the options MiniSearch would give it. */
  private planOf(index: RankedIndex<D>, query: Query, inherited: Inherited, queryTerms: string[]): Plan {
    if (typeof query !== 'string') {
      const { queries, ...own } = query as unknown as Inherited & { queries: Query[] };
      const options: Inherited = { ...inherited, ...own };
      return {
        kind: combination(options.combineWith),
        parts: queries.map((part) => this.planOf(index, part, options, queryTerms)),
      };
    }
    const options: Inherited & SearchDefaults = { ...index.searchOptions, ...inherited };
    const terms = index
      .tokenize(query)
      .flatMap((term) => index.processTerm(term))
      .filter((term): term is string => !!term);
    return {
      kind: combination(options.combineWith ?? 'or'),
      parts: terms.map((term, i) => this.termPlan(index, term, i, terms, options, queryTerms)),
    };
  }

  private termPlan(
    index: RankedIndex<D>,
    term: string,
    i: number,
    terms: string[],
    options: Inherited,
    queryTerms: string[],
  ): TermPlan {
    const fuzzyOption =
      typeof options.fuzzy === 'function' ? options.fuzzy(term, i, terms) : options.fuzzy || false;
    const prefix =
      typeof options.prefix === 'function' ? options.prefix(term, i, terms) : options.prefix === true;
    const termBoost = typeof options.boostTerm === 'function' ? options.boostTerm(term, i, terms) : 1;
    const fields = (options.fields ?? index.fields).map((field) => ({
      id: index.fieldIds[field] as number,
      boost:
        (Object.hasOwn(options.boost ?? {}, field) ? (options.boost as Record<string, number>)[field] : 0) ||
        1,
    }));
    const weights = { fuzzy: 0.45, prefix: 0.375, ...options.weights };
    const found: TermPlan['found'] = [];
    const exact = index.terms.get(term);
    if (exact) found.push({ term, weight: termBoost, data: exact });
    let fuzzyMatches: Map<string, [FieldPostings, number]> | undefined;
    if (fuzzyOption) {
      const fuzzy = fuzzyOption === true ? 0.2 : fuzzyOption;
      const maxDistance =
        fuzzy < 1 ? Math.min(options.maxFuzzy ?? 6, Math.round(term.length * fuzzy)) : fuzzy;
      if (maxDistance) fuzzyMatches = index.terms.fuzzyGet(term, maxDistance);
    }
    if (prefix) {
      for (const [completion, data] of index.terms.atPrefix(term)) {
        const distance = completion.length - term.length;
        if (!distance) continue;
        fuzzyMatches?.delete(completion);
        const weight = (weights.prefix * completion.length) / (completion.length + 0.3 * distance);
        found.push({ term: completion, weight: weight * termBoost, data });
      }
    }
    if (fuzzyMatches) {
      for (const [typo, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        const weight = (weights.fuzzy * typo.length) / (typo.length + distance);
        found.push({ term: typo, weight: weight * termBoost, data });
      }
    }
    let bit = queryTerms.indexOf(term);
    if (bit < 0) bit = queryTerms.push(term) - 1;
    return { kind: 'term', bit, found, fields, bm25: options.bm25 ?? { k: 1.2, b: 0.7, d: 0.5 } };
  }

  private run(index: RankedIndex<D>, plan: Plan, words: number): Found {
    if (plan.kind === 'term') return this.lookUp(index, plan, words);
    const parts = plan.parts.map((part) => this.run(index, part, words));
    if (parts.length === 0) return EMPTY;
    const arena = this.arena;
    if (plan.kind === 'and') return parts.reduce((a, b) => both(a, b, words, arena));
    const found = parts.filter((part) => part.count > 0);
    if (found.length < 3) return found.reduce((a, b) => either(a, b, words, arena), EMPTY);
    return this.anyOf(found, words);
  }

  /**
   * Documents in any of three or more parts, gathered by short id rather than merged two at a time (which copies the
   * first part once for each part after it). Scores are added in the parts' order, as `either` folded over them adds
   * them, so they are the same to the bit.
   */
  private anyOf(parts: Found[], words: number): Found {
    const { scores, marks } = this.scratch;
    const cells = this.scratch.cellsFor(words);
    let count = 0;
    let lowest = Infinity;
    let highest = -1;
    for (const part of parts) {
      for (let at = 0; at < part.count; at++) {
        const doc = part.docs[at] as number;
        const word = doc >>> 5;
        const bit = 1 << (doc & 31);
        const marked = marks[word] as number;
        if (marked & bit) {
          scores[doc] = (scores[doc] as number) + (part.scores[at] as number);
          for (let w = 0; w < words; w++)
            cells[doc * words + w] =
              (cells[doc * words + w] as number) | (part.bits[at * words + w] as number);
        } else {
          marks[word] = marked | bit;
          scores[doc] = part.scores[at] as number;
          for (let w = 0; w < words; w++) cells[doc * words + w] = part.bits[at * words + w] as number;
          count++;
          if (doc < lowest) lowest = doc;
          if (doc > highest) highest = doc;
        }
      }
    }
    const out = this.arena.found(count, words);
    out.count = this.scratch.readOut(lowest, highest, out.docs);
    for (let n = 0; n < out.count; n++) {
      const doc = out.docs[n] as number;
      out.scores[n] = scores[doc] as number;
      for (let w = 0; w < words; w++) out.bits[n * words + w] = cells[doc * words + w] as number;
    }
    return out;
  }

  /** One word's documents: MiniSearch's `termResults` for each of its terms in turn, added up per document. */
  private lookUp(index: RankedIndex<D>, plan: TermPlan, words: number): Found {
    const { scores, marks, touched } = this.scratch;
    const { fieldLengths, documentCount } = index;
    const room = index.live.length;
    const { k, b, d } = plan.bm25;
    let count = 0;
    let sorted = true;
    let lowest = Infinity;
    let highest = -1;
    for (const { weight, data } of plan.found) {
      for (const field of plan.fields) {
        const postings = data.get(field.id) as Postings | undefined;
        if (postings === undefined) continue;
        const matching = postings.size;
        const average = index.avgFieldLength[field.id] as number;
        // MiniSearch works these out per document; the same operations in the same order give the same bits.
        const inverse = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
        const scale = weight * field.boost;
        const lengths = field.id * room;
        const { cells, wide, pairs } = postings.view();
        for (let pair = 0; pair < pairs; pair++) {
          let doc: number;
          let frequency: number;
          if (wide) {
            doc = cells[2 * pair] as number;
            frequency = cells[2 * pair + 1] as number;
            if (frequency === REMOVED) continue;
          } else {
            const cell = cells[pair] as number;
            doc = cell >>> 8;
            frequency = cell & 0xff;
            if (frequency === 0) continue;
          }
          // A removed document's lengths are 0, where one with the term in this field has at least 1.
          const length = fieldLengths[lengths + doc] as number;
          if (length === 0) continue;
          const weighted =
            scale *
            (inverse * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / average))));
          const word = doc >>> 5;
          const bit = 1 << (doc & 31);
          const marked = marks[word] as number;
          if (marked & bit) scores[doc] = (scores[doc] as number) + weighted;
          else {
            marks[word] = marked | bit;
            scores[doc] = weighted;
            if (doc < lowest) lowest = doc;
            if (doc > highest) highest = doc;
            else sorted = false;
            touched[count++] = doc;
          }
        }
      }
    }
    const found = this.arena.found(count, words);
    found.count = count;
    if (count === 0) return found;
    if (words > 1) found.bits.fill(0);
    if (sorted) {
      found.docs.set(touched.subarray(0, count));
      for (let at = 0; at < count; at++) marks[(touched[at] as number) >>> 5] = 0;
    } else this.scratch.readOut(lowest, highest, found.docs);
    const cell = plan.bit >>> 5;
    const mask = 1 << (plan.bit & 31);
    for (let at = 0; at < count; at++) {
      found.scores[at] = scores[found.docs[at] as number] as number;
      found.bits[at * words + cell] = mask;
    }
    return found;
  }
}

const combination = (combineWith: string | undefined): 'and' | 'or' => {
  const operator = (combineWith ?? 'or').toLowerCase();
  if (operator !== 'and' && operator !== 'or')
    throw new Error(`Invalid combination operator: ${combineWith}`);
  return operator;
};

/** Appends the `at`-th document of `from` to `out`, as it is. */
function copy(out: Found, from: Found, at: number, words: number): void {
  const n = out.count++;
  out.docs[n] = from.docs[at] as number;
  out.scores[n] = from.scores[at] as number;
  for (let w = 0; w < words; w++) out.bits[n * words + w] = from.bits[at * words + w] as number;
}

/** Appends the document at `a`'s `i`-th and `b`'s `j`-th place to `out`: scores added (a's first), terms joined. */
function join(out: Found, a: Found, i: number, b: Found, j: number, words: number): void {
  const n = out.count++;
  out.docs[n] = a.docs[i] as number;
  out.scores[n] = (a.scores[i] as number) + (b.scores[j] as number);
  for (let w = 0; w < words; w++)
    out.bits[n * words + w] = (a.bits[i * words + w] as number) | (b.bits[j * words + w] as number);
}

/** Documents in `a` or `b`, scores added (a's first, as MiniSearch adds them). */
function either(a: Found, b: Found, words: number, arena: Arena): Found {
  if (b.count === 0) return a;
  if (a.count === 0) return b;
  const out = arena.found(a.count + b.count, words);
  let i = 0;
  let j = 0;
  while (i < a.count || j < b.count) {
    const da = i < a.count ? (a.docs[i] as number) : Infinity;
    const db = j < b.count ? (b.docs[j] as number) : Infinity;
    if (da < db) copy(out, a, i++, words);
    else if (db < da) copy(out, b, j++, words);
    else join(out, a, i++, b, j++, words);
  }
  return out;
}

/** Documents in both `a` and `b`, scores added. */
function both(a: Found, b: Found, words: number, arena: Arena): Found {
  const out = arena.found(Math.min(a.count, b.count), words);
  let i = 0;
  let j = 0;
  while (i < a.count && j < b.count) {
    const da = a.docs[i] as number;
    const db = b.docs[j] as number;
    if (da < db) i++;
    else if (db < da) j++;
    else join(out, a, i++, b, j++, words);
  }
  return out;
}

/**
 * What reading a document's term costs against looking a term up in its postings, about: its word is cut out of the
 * text, analysed (a lookup, or a stemmer on a word not met since the server started) and looked for among a part's.
 */
const DOCUMENT_TERM_COST = 8;

/** One document's terms in each field, read from the document when first needed (see `matchedTerms`). */
class DocumentTerms<D> {
  private readonly read: (readonly string[] | undefined)[] = [];

  constructor(
    private readonly index: RankedIndex<D>,
    /** Its short id. */
    readonly doc: number,
  ) {}

  /** How many terms it has in the field. */
  count(field: number): number {
    return this.index.fieldLengths[field * this.index.live.length + this.doc] ?? 0;
  }

  in(field: number): readonly string[] {
    return (this.read[field] ??= this.index.termsIn(this.index.documents[this.doc] as D, field));
  }
}

/**
 * The index's terms a document was found by under this part of the query, with their postings, or null when the part
 * does not find it. Per field, whichever is shorter is read: the part's terms, each looked for in the document's
 * postings, or the document's own terms, each looked for among the part's (a word's beginning may stand for hundreds
 * of terms, a title for a few: asking each of 500 terms whether ten titles hold it was a quarter of such a query).
 */
function matchedTerms<D>(plan: Plan, own: DocumentTerms<D>): Map<string, FieldPostings> | null {
  const doc = own.doc;
  if (plan.kind === 'term') {
    let terms: Map<string, FieldPostings> | null = null;
    for (const field of plan.fields) {
      if (own.count(field.id) * DOCUMENT_TERM_COST < plan.found.length) {
        const byTerm = (plan.byTerm ??= new Map(plan.found.map(({ term, data }) => [term, data])));
        for (const term of own.in(field.id)) {
          const data = byTerm.get(term);
          if (data?.get(field.id)?.has(doc)) (terms ??= new Map()).set(term, data);
        }
        continue;
      }
      for (const { term, data } of plan.found) {
        if (terms?.has(term) || !data.get(field.id)?.has(doc)) continue;
        (terms ??= new Map()).set(term, data);
      }
    }
    return terms;
  }
  let terms: Map<string, FieldPostings> | null = null;
  for (const part of plan.parts) {
    const found = matchedTerms(part, own);
    if (!found) {
      if (plan.kind === 'and') return null;
      continue;
    }
    terms ??= new Map();
    for (const [term, data] of found) if (!terms.has(term)) terms.set(term, data);
  }
  return terms;
}

function bitCount(cell: number): number {
  let n = cell - ((cell >>> 1) & 0x5555_5555);
  n = (n & 0x3333_3333) + ((n >>> 2) & 0x3333_3333);
  return (((n + (n >>> 4)) & 0x0f0f_0f0f) * 0x0101_0101) >>> 24;
}
