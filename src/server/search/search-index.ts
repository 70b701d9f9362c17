import type { Language } from '../../shared/constants.ts';
import { escapeHtml } from '../../shared/html.ts';
import { mayRead, type Audience } from '../content/visibility.ts';
import {
  analyse,
  ANALYSED_LANGUAGES,
  analyseText,
  fold,
  initialAt,
  initialOf,
  isStopword,
  wordPattern,
} from './analysis.ts';
import { buildQuery, type BuiltQuery, type IndexWords } from './build-query.ts';
import type { Ranked, Weights } from './ranking.ts';
import type { SynonymTable } from './synonyms.ts';
import { TypoTolerantMiniSearch, type MiniSearchFigures, type MiniSearchParts } from './term-tree.ts';

/** Longest stretch of indexing between two turns of the event loop. */
const SLICE_MS = 8;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SearchDocument {
  /** The article's id, or for a translation a key of its own (see `article_id`). */
  id: number;
  /** A translation's article; absent when the document is the article's own version, whose id is the article's. */
  article_id?: number;
  title: string;
  text: string;
  category: string;
  section: string;
  lang: Language;
  category_id: number | null;
  section_id: number;
  /** For signed-in visitors only, itself or where it sits (see visibility.ts). */
  restricted: boolean;
}

export interface SearchHit {
  id: number;
  title: string;
  category_id: number | null;
  section_id: number;
  /** The language of the text found. */
  lang: Language;
  score: number;
  /** Escaped text around the first match, the matched words in <mark>. */
  snippet: string;
}

const FIELDS = ['title', 'category', 'section', 'text'] as const;
/** A part of a split word is at most this long (the vocabulary keeps words up to 24 letters). */
const MAX_SPLIT_PART = 24;

/**
 * A piece of an index as a snapshot keeps it: MiniSearch's figures first, then batches of entries of each part. An
 * index is restored from the same pieces in the same order.
 */
export type IndexPiece =
  | { part: 'figures'; figures: MiniSearchFigures }
  | { part: 'documents'; entries: SearchDocument[] }
  | { part: 'vocabulary'; entries: string[] }
  | { [K in keyof MiniSearchParts]: { part: K; entries: MiniSearchParts[K] } }[keyof MiniSearchParts];

/** Entries in one piece: a few milliseconds of restoring each, with the event loop free in between. */
const PIECE_ENTRIES = 2_000;
/** Postings of the term tree in one piece: a few milliseconds to write or restore. */
const POSTINGS_PER_PIECE = 20_000;

function* batches<T>(entries: Iterable<T>): Generator<T[]> {
  let batch: T[] = [];
  for (const entry of entries) {
    batch.push(entry);
    if (batch.length < PIECE_ENTRIES) continue;
    yield batch;
    batch = [];
  }
  if (batch.length) yield batch;
}

/** What a search may take into account besides the words: the team's synonyms, what visitors chose. */
export interface QueryExtras {
  synonyms?: SynonymTable;
  /** Factors for some articles' scores (what visitors chose), by article id. */
  boost?: ReadonlyMap<number, number>;
  /** The documents that may be found (the reader's language, the site's, and the versions shown); all when absent. */
  only?: ReadonlySet<number>;
  /** The document of each article the reader is shown, when it may be another than the one found. */
  shown?: ReadonlyMap<number, number>;
  /** The reader's language: documents in it weigh LANGUAGE_BOOST more than the fallbacks shown beside them. */
  lang?: Language;
  /**
   * The words as they are written, with their forms: no typos, prefixes, joins, splits or synonyms. For text that
   * is the index's own (an article's title, to find those related to it), at a fraction of a visitor's query's cost.
   */
  exact?: boolean;
}

/** How much more a match in the reader's own language counts than one in the version shown in its place. */
const LANGUAGE_BOOST = 1.5;
/** Readers' documents' factors kept per index state: a help centre in five languages, read signed in and not. */
const FACTORS_KEPT = 12;

/** The article a document is a version of. */
export const articleOf = (doc: SearchDocument): number => doc.article_id ?? doc.id;
const SNIPPET_CHARS = 160;

/**
 * The terms a document is indexed under in a field, the whole words of the text added to `vocabulary` when given.
 * Whole words (for typos) in titles and names only: bodies are most of the index, and stems serve them.
 */
function termsOf(doc: SearchDocument, field: string, vocabulary?: Set<string>): string[] {
  const value = doc[field as keyof SearchDocument];
  return typeof value === 'string'
    ? analyseText(value, doc.lang, field !== 'text', vocabulary)
    : String(value ?? '').split(' ');
}

/**
 * The in-process full-text index over published articles. Every field is analysed in its document's language
 * (stemmed, then folded); a query word is looked up in all its language variants, the last one also as a prefix,
 * longer ones with typos tolerated. Titles weigh most.
 */
export class SearchIndex {
  private readonly mini: TypoTolerantMiniSearch<SearchDocument>;
  private readonly docs = new Map<number, SearchDocument>();
  /** The documents of each article: its own version and its translations. */
  private readonly versions = new Map<number, Set<number>>();
  /** Each document's factor for a few readers and languages (see `weights`), for the index as it was then. */
  private factorsKept: {
    key: string;
    only: ReadonlySet<number> | undefined;
    changes: number;
    factors: Float64Array;
  }[] = [];
  /** The documents whose article has other versions too (a result is one per article). */
  private readonly sharing = new Set<number>();
  /**
   * For `shadowed`, made again when the index changes: each document's article by short id, as a place from 1 in
   * `best` (0 for a document alone), and the best version found of each, valid where `seen` holds the search's turn.
   */
  private shared: {
    changes: number;
    places: Float64Array;
    best: Int32Array;
    seen: Int32Array;
    turn: number;
  } | null = null;
  /** Every folded whole word indexed (kept as articles go: a word gone only costs a lookup that finds nothing). */
  private readonly vocabulary = new Set<string>();
  /** Counts every change to what the index holds, so a snapshot written meanwhile is known to be mixed. */
  private changes = 0;
  /**
   * How many documents the index holds in each language it holds. A query word is stemmed in these only: a stem in
   * a language no document is in can meet a term only by chance (a one-language help centre stemmed each new word
   * five times over, and looked each stem up).
   */
  private readonly perLanguage = new Map<Language, number>();

  /** Builds in chunks, giving the event loop back between them, so other requests are answered meanwhile. */
  static async build(documents: SearchDocument[]): Promise<SearchIndex> {
    const index = new SearchIndex();
    await index.upsert(documents);
    // Postings grow by half at a time: made whole, they give back the room left (a fifth of them at 100,000 articles).
    let sliceStarted = performance.now();
    for (const _ of index.mini.trimPostings()) {
      if (performance.now() - sliceStarted <= SLICE_MS) continue;
      await yieldToEventLoop();
      sliceStarted = performance.now();
    }
    return index;
  }

  /**
   * An index from a snapshot's pieces (see `pieces`), in slices with the event loop free in between. Throws when the
   * pieces do not make a whole index.
   */
  static async restore(pieces: AsyncIterable<IndexPiece>): Promise<SearchIndex> {
    const index = new SearchIndex();
    let figures: MiniSearchFigures | null = null;
    for await (const piece of pieces) {
      if (piece.part === 'figures') figures = piece.figures;
      else if (piece.part === 'documents') for (const doc of piece.entries) index.keep(doc);
      else if (piece.part === 'vocabulary') for (const word of piece.entries) index.vocabulary.add(word);
      else if (piece.part === 'ids') index.mini.restorePart(piece.part, piece.entries);
      else if (piece.part === 'lengths') index.mini.restorePart(piece.part, piece.entries);
      else if (piece.part === 'branches') index.mini.restorePart(piece.part, piece.entries);
      else throw new Error('unknown part in a snapshot');
      await yieldToEventLoop();
    }
    if (!figures) throw new Error('no figures in a snapshot');
    index.mini.restoreFigures(figures);
    if (index.mini.documentCount !== index.docs.size) throw new Error('a snapshot’s documents do not add up');
    return index;
  }

  private constructor() {
    this.mini = new TypoTolerantMiniSearch<SearchDocument>(
      {
        fields: [...FIELDS],
        idField: 'id',
        extractField: (doc, field) =>
          field === 'id' ? (doc.id as unknown as string) : termsOf(doc, field, this.vocabulary).join(' '),
        tokenize: (text) => text.split(' '),
        processTerm: (term) => term || null,
        searchOptions: {
          boost: { title: 4, category: 1.5, section: 1, text: 1 },
          weights: { fuzzy: 0.4, prefix: 0.5 },
          tokenize: (text) => text.split(' '),
          processTerm: (term) => term || null,
        },
      },
      (id) => this.docs.get(id as number),
      (doc, field) => termsOf(doc, field).filter(Boolean),
    );
  }

  get size(): number {
    return this.docs.size;
  }

  /**
   * Adds new articles and replaces changed ones, leaving the rest of the index as it is. The work is cut into slices
   * of a few milliseconds with the event loop free in between, so other requests are answered while it goes on.
   */
  async upsert(documents: SearchDocument[]): Promise<void> {
    let sliceStarted = performance.now();
    for (const doc of documents) {
      if (this.docs.has(doc.id)) this.mini.discard(doc.id);
      this.mini.add(doc);
      this.keep(doc);
      this.changes++;
      if (performance.now() - sliceStarted > SLICE_MS) {
        await yieldToEventLoop();
        sliceStarted = performance.now();
      }
    }
  }

  private keep(doc: SearchDocument): void {
    const replaced = this.docs.get(doc.id);
    if (replaced) this.countLanguage(replaced.lang, -1);
    this.countLanguage(doc.lang, 1);
    this.docs.set(doc.id, doc);
    const article = articleOf(doc);
    const versions = this.versions.get(article) ?? new Set();
    versions.add(doc.id);
    this.versions.set(article, versions);
    if (versions.size > 1) for (const id of versions) this.sharing.add(id);
  }

  private countLanguage(lang: Language, by: 1 | -1): void {
    const count = (this.perLanguage.get(lang) ?? 0) + by;
    if (count > 0) this.perLanguage.set(lang, count);
    else this.perLanguage.delete(lang);
  }

  /** The languages of the documents the index holds, in the order of ANALYSED_LANGUAGES. */
  private languages(): Language[] {
    return ANALYSED_LANGUAGES.filter((lang) => this.perLanguage.has(lang));
  }

  /** How many changes the index has had: equal counts mean it holds the same. */
  get changeCount(): number {
    return this.changes;
  }

  /**
   * What the index holds, in pieces for a snapshot, read as the generator is walked: a change meanwhile
   * (`changeCount`) makes the pieces a mix of before and after.
   */
  *pieces(): Generator<IndexPiece> {
    yield { part: 'figures', figures: this.mini.figures() };
    const { ids, lengths, branches } = this.mini.parts(POSTINGS_PER_PIECE);
    for (const entries of batches(this.docs.values())) yield { part: 'documents', entries };
    for (const entries of batches(this.vocabulary)) yield { part: 'vocabulary', entries };
    for (const entries of batches(ids)) yield { part: 'ids', entries };
    for (const entries of batches(lengths)) yield { part: 'lengths', entries };
    let entries: MiniSearchParts['branches'] = [];
    let postings = 0;
    for (const branch of branches) {
      entries.push(branch.branch);
      postings += branch.postings;
      if (postings < POSTINGS_PER_PIECE) continue;
      yield { part: 'branches', entries };
      entries = [];
      postings = 0;
    }
    if (entries.length) yield { part: 'branches', entries };
  }

  /** Marks which articles are restricted (for signed-in visitors only), whatever their indexed words; true if any changed. */
  restrict(restricted: ReadonlySet<number>): boolean {
    let changed = false;
    for (const doc of this.docs.values()) {
      if (doc.restricted === restricted.has(articleOf(doc))) continue;
      doc.restricted = !doc.restricted;
      changed = true;
      this.changes++;
    }
    return changed;
  }

  /** Removes documents by their ids. */
  remove(ids: number[]): void {
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (!doc) continue;
      this.countLanguage(doc.lang, -1);
      this.docs.delete(id);
      this.mini.discard(id);
      this.changes++;
      const versions = this.versions.get(articleOf(doc));
      versions?.delete(id);
      this.sharing.delete(id);
      if (versions?.size === 1) for (const last of versions) this.sharing.delete(last);
      if (versions?.size === 0) this.versions.delete(articleOf(doc));
    }
  }

  /** Removes every version of these articles but the documents in `keep`. */
  removeArticles(articleIds: number[], keep: ReadonlySet<number> = new Set()): void {
    for (const article of articleIds) {
      this.remove([...(this.versions.get(article) ?? [])].filter((id) => !keep.has(id)));
    }
  }

  /** Each article's documents: its own version (its id) and its translations. */
  articleVersions(): ReadonlyMap<number, ReadonlySet<number>> {
    return this.versions;
  }

  documents(): IterableIterator<SearchDocument> {
    return this.docs.values();
  }

  document(id: number): SearchDocument | undefined {
    return this.docs.get(id);
  }

  /**
   * The best `limit` articles for the query among those the audience may read (see buildQuery for how its words are
   * looked for). `boost` multiplies an article's score (what visitors chose for this query).
   */
  search(
    query: string,
    limit: number,
    audience: Audience = 'everyone',
    extras: QueryExtras = {},
  ): SearchHit[] {
    const built = buildQuery(query, this.indexWords(), extras);
    if (!built) return [];
    const weights = this.weights(audience, extras);
    const found = this.collector(limit, extras.shown);
    // Articles that match every word first; then, for questions in whole sentences, those that match most of them.
    // An article's score is the same whether the words are combined with AND or OR, so one search finds both when
    // each query term stands for one word (a repeated word, one word's stem among another's forms, or a joined
    // word standing for two, needs two).
    if ([...built.wordsOf.values()].some((indexes) => indexes.size > 1)) {
      found.take(this.mini.rank({ combineWith: 'AND', queries: built.strictGroups }, weights));
      if (found.hits.length < limit)
        found.take(this.mini.rank({ combineWith: 'OR', queries: built.groups }, weights));
      return found.hits;
    }
    // Articles that match every word, best first; then, if fewer than `limit`, the best of those matching some.
    const ranked = this.mini.rank({ combineWith: 'OR', queries: built.groups }, weights);
    const { every, most } = this.byWordsMatched(ranked, built);
    found.take(ranked, every);
    if (found.hits.length < limit) found.take(ranked, most);
    return found.hits;
  }

  /** What the index knows of its words, for buildQuery. */
  private indexWords(): IndexWords {
    return {
      languages: this.languages(),
      known: (word) => this.vocabulary.has(fold(word)),
      splits: (word) => this.splits(word),
    };
  }

  /**
   * The hits of one search, at most `limit`, taken from rankings in turn: an article found in two versions (the
   * reader's language and the site's) is one result, the better one.
   */
  private collector(limit: number, shown?: ReadonlyMap<number, number>) {
    const hits: SearchHit[] = [];
    const seen = new Set<number>();
    const first = (ranked: Ranked<SearchDocument>, at: number) => {
      const doc = ranked.document(at);
      if (!this.sharing.has(doc.id)) return true;
      const article = articleOf(doc);
      if (seen.has(article)) return false;
      seen.add(article);
      return true;
    };
    const take = (ranked: Ranked<SearchDocument>, among?: Int32Array) => {
      for (const at of ranked.order(among)) {
        if (hits.length >= limit) return;
        if (first(ranked, at)) hits.push(this.present(ranked, at, shown));
      }
    };
    return { hits, take };
  }

  /**
   * The documents found that match every counted word and those that match some, each in ranked order; a document
   * behind another version of its article is in neither.
   */
  private byWordsMatched(
    ranked: Ranked<SearchDocument>,
    built: BuiltQuery,
  ): { every: Int32Array; most: Int32Array } {
    const meaning = ranked.perTerm((term) => {
      let bits = 0;
      for (const index of built.wordsOf.get(term) ?? []) bits |= 1 << index;
      return bits;
    });
    const all = (1 << built.wordCount) - 1;
    const behind = this.shadowed(ranked);
    const every = new Int32Array(ranked.count);
    const most = new Int32Array(ranked.count);
    let everyCount = 0;
    let mostCount = 0;
    for (let at = 0; at < ranked.count; at++) {
      if (behind?.[at]) continue;
      if (ranked.union(at, meaning) === all) every[everyCount++] = at;
      else most[mostCount++] = at;
    }
    return { every: every.subarray(0, everyCount), most: most.subarray(0, mostCount) };
  }

  /**
   * What each document's score is multiplied by for this reader: 0 for one they may not read or are not shown
   * (`only`), LANGUAGE_BOOST in their language, and what visitors chose (`boost`). Every document's factor is worked
   * out once per index state, reader and language, and kept (a few such at a time).
   */
  private weights(audience: Audience, extras: QueryExtras): Weights {
    const anyone = mayRead(audience, 'signed_in');
    const { boost, lang, only } = extras;
    const weights: Weights = {};
    if (!anyone || only || lang) {
      const key = `${anyone}\u0000${lang ?? ''}`;
      let kept = this.factorsKept.find(
        (entry) => entry.key === key && entry.only === only && entry.changes === this.changes,
      );
      if (!kept) {
        const factors = this.mini.factors((doc) =>
          (!anyone && doc.restricted) || (only && !only.has(doc.id))
            ? 0
            : lang && doc.lang === lang
              ? LANGUAGE_BOOST
              : 1,
        );
        kept = { key, only, changes: this.changes, factors };
        this.factorsKept = [
          kept,
          ...this.factorsKept.filter((entry) => entry.changes === this.changes),
        ].slice(0, FACTORS_KEPT);
      }
      weights.factors = kept.factors;
    }
    if (boost?.size) {
      const boosts = new Map<number, number>();
      for (const [article, factor] of boost) {
        for (const id of this.versions.get(article) ?? []) {
          const shortId = this.mini.shortIdOf(id);
          if (shortId !== undefined) boosts.set(shortId, factor);
        }
      }
      weights.boosts = boosts;
    }
    return weights;
  }

  /**
   * Which documents found rank behind another version of their article that was also found (only the best version
   * of an article is a result); null when none does. Read by short id from an array made once per index state: with
   * every article translated, every document found is another version's, and reading each one's fields took a third
   * of a query's time.
   */
  private shadowed(ranked: Ranked<SearchDocument>): Uint8Array | null {
    if (this.sharing.size === 0) return null;
    if (this.shared?.changes !== this.changes) {
      const placeOf = new Map<number, number>();
      const places = this.mini.factors((doc) => {
        if (!this.sharing.has(doc.id)) return 0;
        const article = articleOf(doc);
        let place = placeOf.get(article);
        if (place === undefined) placeOf.set(article, (place = placeOf.size + 1));
        return place;
      });
      const room = placeOf.size + 1;
      this.shared = {
        changes: this.changes,
        places,
        best: new Int32Array(room),
        seen: new Int32Array(room),
        turn: 0,
      };
    }
    const { places, best, seen } = this.shared;
    if (this.shared.turn === 0x7fffffff) {
      seen.fill(0);
      this.shared.turn = 0;
    }
    const turn = ++this.shared.turn;
    let behind: Uint8Array | null = null;
    for (let at = 0; at < ranked.count; at++) {
      const place = places[ranked.docs[at] as number] ?? 0;
      if (place === 0) continue;
      if (seen[place] !== turn) {
        seen[place] = turn;
        best[place] = at;
        continue;
      }
      const other = best[place] as number;
      behind ??= new Uint8Array(ranked.count);
      if (ranked.before(at, other)) {
        behind[other] = 1;
        best[place] = at;
      } else behind[at] = 1;
    }
    return behind;
  }

  /**
   * Two words of the index a query word may be written for: 'wifi' for 'wi fi' (the index has 'Wi-Fi' as two
   * words), 'timezone' for 'time zone', '24v' for '24 v'. Each part must be a word the index holds and, unless the
   * cut is between a number and letters, at least two letters; one of them may be a stopword.
   */
  private splits(word: string): string[][] {
    const whole = fold(word);
    const letters = [...whole];
    if (letters.length < 3 || letters.length > 2 * MAX_SPLIT_PART) return [];
    const found: string[][] = [];
    for (let cut = 1; cut < letters.length && found.length < 2; cut++) {
      const left = letters.slice(0, cut).join('');
      const right = letters.slice(cut).join('');
      const atNumber = /\d$/u.test(left) !== /^\d/u.test(right);
      // 'login' is 'log in' and 'setup' 'set up': one part may be a stopword, and only the other is looked for.
      const short = cut < 2 || letters.length - cut < 2;
      if (!atNumber && (short || (isStopword(left) && isStopword(right)))) continue;
      if (this.vocabulary.has(left) && this.vocabulary.has(right)) found.push([left, right]);
    }
    return found;
  }

  /** Whether the audience may read the article (an article not in the index may not be read). */
  readable(id: number, audience: Audience): boolean {
    const doc = this.docs.get(id);
    return doc !== undefined && (!doc.restricted || mayRead(audience, 'signed_in'));
  }

  /** An article found by other means than its words (by meaning): its snippet is the beginning of its body. */
  hitFor(id: number): SearchHit | null {
    const doc = this.docs.get(id);
    if (!doc) return null;
    return {
      id: articleOf(doc),
      title: doc.title,
      category_id: doc.category_id,
      section_id: doc.section_id,
      lang: doc.lang,
      score: 0,
      snippet: snippet(doc, new Set()),
    };
  }

  /**
   * The `at`-th result as the reader sees it: in the version they are shown (`shown`), which may not be the one found.
   * Its snippet marks the terms the found document holds in its body, or, when another version is shown, every term
   * it was found by (that version's body may hold others).
   */
  private present(
    ranked: Ranked<SearchDocument>,
    at: number,
    shown?: ReadonlyMap<number, number>,
  ): SearchHit {
    const found = ranked.document(at);
    const shownId = shown?.get(articleOf(found));
    const doc = (shownId !== undefined ? this.docs.get(shownId) : undefined) ?? found;
    const terms = doc === found ? ranked.termsOf(at, 'text') : ranked.termsOf(at);
    return {
      id: articleOf(doc),
      title: doc.title,
      category_id: doc.category_id,
      section_id: doc.section_id,
      lang: doc.lang,
      score: ranked.scores[at] as number,
      snippet: snippet(doc, new Set(terms)),
    };
  }
}

/**
 * A window of the body around its first matching word, escaped, with every matching word marked. Only words that
 * may match are analysed: stemmers change endings, never beginnings, so a word whose first letter begins no matched
 * term is passed over, and only the window is read twice.
 */
export function snippet(doc: SearchDocument, matched: Set<string>): string {
  const text = doc.text;
  if (matched.size === 0) {
    // Nothing to mark: the body's beginning, without reading it word by word.
    const end = Math.min(text.length, SNIPPET_CHARS);
    return end < text.length ? `${escapeHtml(text.slice(0, end))}…` : escapeHtml(text);
  }
  const initials = new Set([...matched].map((term) => String.fromCodePoint(term.codePointAt(0) ?? 0)));
  const isMatch = (word: string) => initials.has(initialOf(word)) && matched.has(analyse(word, doc.lang));
  // The first match is looked for word by word without cutting out a word unless its first letter may match (a long
  // body read with `exec` made a match object for every word before it).
  let firstStart = -1;
  for (let at = 0; at < text.length;) {
    NOT_WORD.lastIndex = at;
    NOT_WORD.test(text);
    const start = NOT_WORD.lastIndex;
    WORD_RUN.lastIndex = start;
    if (!WORD_RUN.test(text)) break;
    at = WORD_RUN.lastIndex;
    if (initials.has(initialAt(text, start)) && matched.has(analyse(text.slice(start, at), doc.lang))) {
      firstStart = start;
      break;
    }
  }
  const pattern = wordPattern();
  const from = firstStart === -1 ? 0 : Math.max(0, firstStart - 40);
  let start = from === 0 ? 0 : text.indexOf(' ', from) + 1;
  if (start <= 0) start = from;
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  let html = start > 0 ? '…' : '';
  let cursor = start;
  pattern.lastIndex = start;
  for (let m = pattern.exec(text); m && m.index + m[0].length <= end; m = pattern.exec(text)) {
    // A window starting inside a word leaves that word unmarked.
    if (m.index === start && start > 0 && WORD_END.test(text.slice(Math.max(0, start - 2), start))) continue;
    if (!isMatch(m[0])) continue;
    html += escapeHtml(text.slice(cursor, m.index)) + `<mark>${escapeHtml(m[0])}</mark>`;
    cursor = m.index + m[0].length;
  }
  html += escapeHtml(text.slice(cursor, end));
  return end < text.length ? `${html}…` : html;
}

const WORD_END = /[\p{L}\p{N}]$/u;
/** Sticky: what lies between words, and a word, from `lastIndex` (see `snippet`). */
const NOT_WORD = /[^\p{L}\p{N}]*/uy;
const WORD_RUN = /[\p{L}\p{N}]+/uy;
