/**
 * MiniSearch keeps, for every term, a `Map` from field to a `Map` from document to the term's frequency there: about
 * 50 bytes a posting, most of the index's heap (77 of 93 MB at 10,000 articles). These classes stand in for both
 * maps with the same behaviour where MiniSearch uses them, a posting being two 32-bit integers in one typed array.
 */

/** The frequency of a removed pair (MiniSearch's frequencies count occurrences, far below it). */
const REMOVED = 0xffff_ffff;
/** Pairs a new list has room for: most terms are in a few documents. */
const FIRST_ROOM = 2;

/**
 * A term's documents in one field and its frequency in each, as a `Map<number, number>` where MiniSearch uses one:
 * get, set, has, delete, size, iteration (also while pairs are removed, as MiniSearch's lazy removals and vacuuming
 * do). Pairs are kept sorted by document id: MiniSearch's short ids only grow, so its maps' insertion order is the
 * same order, and terms' documents are walked as before (ties rank and scores add up exactly as with its maps).
 * A removed pair is marked and dropped once they are half of the list, so removing from a long list stays cheap.
 */
export class Postings {
  /** [document, frequency] pairs by document id, then unused room. */
  private pairs: Uint32Array;
  /** Pairs in `pairs`, removed ones included. */
  private used = 0;
  private removed = 0;
  /** The pair last looked at: MiniSearch reads a document's frequency right after reaching it in `keys()`. */
  private hint = 0;

  constructor(room = FIRST_ROOM) {
    this.pairs = new Uint32Array(2 * Math.max(1, room));
  }

  /** A copy of a map of document to frequency (MiniSearch makes one for a term new to a field). */
  static from(entries: Iterable<readonly [number, number]>): Postings {
    const postings = new Postings();
    for (const [document, frequency] of entries) postings.set(document, frequency);
    return postings;
  }

  get size(): number {
    return this.used - this.removed;
  }

  get(document: number): number | undefined {
    const at = this.find(document);
    if (at < 0) return undefined;
    const frequency = this.pairs[2 * at + 1] as number;
    return frequency === REMOVED ? undefined : frequency;
  }

  has(document: number): boolean {
    return this.get(document) !== undefined;
  }

  set(document: number, frequency: number): this {
    if (document >>> 0 !== document || frequency >>> 0 !== frequency || frequency === REMOVED)
      throw new RangeError(
        `a posting holds 32-bit document ids and frequencies, not ${document}: ${frequency}`,
      );
    const at = this.find(document);
    if (at >= 0) {
      if (this.pairs[2 * at + 1] === REMOVED) this.removed--;
      this.pairs[2 * at + 1] = frequency;
      return this;
    }
    const to = -at - 1;
    if (2 * (this.used + 1) > this.pairs.length) this.grow();
    // MiniSearch only appends (its short ids grow); an earlier id goes in its place to keep the pairs sorted.
    if (to < this.used) this.pairs.copyWithin(2 * to + 2, 2 * to, 2 * this.used);
    this.pairs[2 * to] = document;
    this.pairs[2 * to + 1] = frequency;
    this.used++;
    this.hint = to;
    return this;
  }

  delete(document: number): boolean {
    const at = this.find(document);
    if (at < 0 || this.pairs[2 * at + 1] === REMOVED) return false;
    this.pairs[2 * at + 1] = REMOVED;
    this.removed++;
    while (this.used > 0 && this.pairs[2 * this.used - 1] === REMOVED) {
      this.used--;
      this.removed--;
    }
    if (this.removed * 2 > this.used) this.compact();
    return true;
  }

  clear(): void {
    this.pairs = new Uint32Array(2 * FIRST_ROOM);
    this.used = 0;
    this.removed = 0;
    this.hint = 0;
  }

  keys(): IterableIterator<number> {
    return new PostingsIterator(this, KEYS);
  }

  values(): IterableIterator<number> {
    return new PostingsIterator(this, VALUES);
  }

  entries(): IterableIterator<[number, number]> {
    return new PostingsIterator(this, ENTRIES);
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  forEach(callback: (frequency: number, document: number, postings: this) => void, thisArg?: unknown): void {
    for (const [document, frequency] of this) callback.call(thisArg, frequency, document, this);
  }

  /**
   * The live pairs as bytes, for a snapshot: their count, then each document as the difference from the one before
   * and its frequency, each a LEB128 varint (about 2 bytes a posting, against 8 in memory).
   */
  encode(): Uint8Array {
    const bytes = new Uint8Array(5 + 10 * this.size);
    let at = writeVarint(bytes, 0, this.size);
    let previous = 0;
    for (let pair = 0; pair < this.used; pair++) {
      const frequency = this.pairs[2 * pair + 1] as number;
      if (frequency === REMOVED) continue;
      const document = this.pairs[2 * pair] as number;
      at = writeVarint(bytes, at, document - previous);
      at = writeVarint(bytes, at, frequency);
      previous = document;
    }
    return bytes.subarray(0, at);
  }

  /** Postings from `encode`'s bytes, at their exact size. Throws when the bytes are not such. */
  static decode(bytes: Uint8Array): Postings {
    const reader = { bytes, at: 0 };
    const count = readVarint(reader);
    // Each pair takes two bytes at least: a count past that is not believed (nor allocated).
    if (2 * count > bytes.length) throw new Error('postings cut short');
    const postings = new Postings(count);
    let document = 0;
    for (let pair = 0; pair < count; pair++) {
      const step = readVarint(reader);
      document += step;
      const frequency = readVarint(reader);
      if (
        (pair > 0 && step === 0) ||
        document >>> 0 !== document ||
        frequency >>> 0 !== frequency ||
        frequency === REMOVED
      )
        throw new Error('postings out of order or out of range');
      postings.pairs[2 * pair] = document;
      postings.pairs[2 * pair + 1] = frequency;
    }
    if (reader.at !== bytes.length) throw new Error('postings of another length');
    postings.used = count;
    return postings;
  }

  /** Gives back the room past the last pair (a list grows by half its size at a time). */
  trim(): void {
    if (this.removed > 0) this.compact();
    const room = 2 * Math.max(1, this.used);
    if (this.pairs.length > room) this.pairs = this.pairs.slice(0, room);
  }

  /** The pair after the one at `at - 1`, which held `last`, skipping removed ones (for iterators). */
  nextPair(at: number, last: number): number {
    // A compaction meanwhile moved the pairs: the next one is the first after `last`.
    if (at > 0 && (at - 1 >= this.used || this.pairs[2 * (at - 1)] !== last)) {
      const found = this.find(last + 1);
      at = found < 0 ? -found - 1 : found;
    }
    while (at < this.used && this.pairs[2 * at + 1] === REMOVED) at++;
    if (at < this.used) this.hint = at;
    return at;
  }

  get pairCount(): number {
    return this.used;
  }

  documentAt(pair: number): number {
    return this.pairs[2 * pair] as number;
  }

  frequencyAt(pair: number): number {
    return this.pairs[2 * pair + 1] as number;
  }

  /** Where `document`'s pair is (removed or not), or -(where it would go) - 1. */
  private find(document: number): number {
    const pairs = this.pairs;
    const hint = this.hint;
    if (hint < this.used && pairs[2 * hint] === document) return hint;
    let low = 0;
    let high = this.used - 1;
    // Appending (MiniSearch's adds) and reading the last pair are the usual cases.
    if (high >= 0 && (pairs[2 * high] as number) < document) return -this.used - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = pairs[2 * middle] as number;
      if (found < document) low = middle + 1;
      else if (found > document) high = middle - 1;
      else return middle;
    }
    return -low - 1;
  }

  private grow(): void {
    const room = this.pairs.length / 2;
    const bigger = new Uint32Array(2 * (room + Math.max(FIRST_ROOM, room >>> 1)));
    bigger.set(this.pairs.subarray(0, 2 * this.used));
    this.pairs = bigger;
  }

  /** Drops the removed pairs, and room past twice what is left. */
  private compact(): void {
    let to = 0;
    for (let pair = 0; pair < this.used; pair++) {
      if (this.pairs[2 * pair + 1] === REMOVED) continue;
      this.pairs[2 * to] = this.pairs[2 * pair] as number;
      this.pairs[2 * to + 1] = this.pairs[2 * pair + 1] as number;
      to++;
    }
    this.used = to;
    this.removed = 0;
    this.hint = 0;
    if (this.pairs.length > 4 * Math.max(FIRST_ROOM, to))
      this.pairs = this.pairs.slice(0, 2 * Math.max(FIRST_ROOM, to));
  }
}

const KEYS = 0;
const VALUES = 1;
const ENTRIES = 2;
type Kind = typeof KEYS | typeof VALUES | typeof ENTRIES;

/** Walks the live pairs in document order, going on after removals as a `Map`'s iterator does. */
class PostingsIterator<T> implements IterableIterator<T> {
  private at = 0;
  private last = -1;

  constructor(
    private readonly postings: Postings,
    private readonly kind: Kind,
  ) {}

  next(): IteratorResult<T> {
    const postings = this.postings;
    const at = postings.nextPair(this.at, this.last);
    if (at >= postings.pairCount) {
      this.at = at;
      return { done: true, value: undefined };
    }
    const document = postings.documentAt(at);
    this.last = document;
    this.at = at + 1;
    const value =
      this.kind === KEYS
        ? document
        : this.kind === VALUES
          ? postings.frequencyAt(at)
          : [document, postings.frequencyAt(at)];
    return { done: false, value: value as T };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

function readVarint(reader: { bytes: Uint8Array; at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (reader.at >= reader.bytes.length || scale > 2 ** 35) throw new Error('postings cut short');
    const byte = reader.bytes[reader.at++] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
}

/**
 * A term's postings by field, as the `Map<number, Map<number, number>>` MiniSearch keeps per term: an array indexed by
 * field id (an index has a few fields). It iterates by field id rather than by when a field first had the term; no
 * answer depends on that order (MiniSearch scores a term field by field in the order of the query's fields).
 */
export class FieldPostings {
  private readonly byField: (Postings | undefined)[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(field: number): Postings | undefined {
    return typeof field === 'number' ? this.byField[field] : undefined;
  }

  has(field: number): boolean {
    return this.get(field) !== undefined;
  }

  /** A `Map` given (MiniSearch makes one for a term new to a field, then leaves it) is kept as a copy. */
  set(field: number, postings: Postings | Map<number, number>): this {
    if (!Number.isInteger(field) || field < 0 || field > 255)
      throw new RangeError(`a field id is a small integer, not ${field}`);
    if (this.byField[field] === undefined) this.count++;
    this.byField[field] = postings instanceof Postings ? postings : Postings.from(postings);
    return this;
  }

  delete(field: number): boolean {
    if (this.get(field) === undefined) return false;
    this.byField[field] = undefined;
    this.count--;
    return true;
  }

  clear(): void {
    this.byField.length = 0;
    this.count = 0;
  }

  *entries(): IterableIterator<[number, Postings]> {
    for (let field = 0; field < this.byField.length; field++) {
      const postings = this.byField[field];
      if (postings !== undefined) yield [field, postings];
    }
  }

  *keys(): IterableIterator<number> {
    for (const [field] of this.entries()) yield field;
  }

  *values(): IterableIterator<Postings> {
    for (const [, postings] of this.entries()) yield postings;
  }

  [Symbol.iterator](): IterableIterator<[number, Postings]> {
    return this.entries();
  }

  forEach(callback: (postings: Postings, field: number, map: this) => void, thisArg?: unknown): void {
    for (const [field, postings] of this.entries()) callback.call(thisArg, postings, field, this);
  }

  /** For a snapshot: each field with its postings' bytes. */
  encode(): [field: number, postings: Uint8Array][] {
    return [...this.entries()].map(([field, postings]) => [field, postings.encode()]);
  }

  /** From `encode`'s form. Throws when it is not such. */
  static decode(encoded: unknown): FieldPostings {
    if (!Array.isArray(encoded)) throw new Error('term data is not a list of fields');
    const fields = new FieldPostings();
    for (const entry of encoded as unknown[]) {
      if (!Array.isArray(entry) || !(entry[1] instanceof Uint8Array))
        throw new Error('a field of term data is malformed');
      fields.set(entry[0] as number, Postings.decode(entry[1]));
    }
    return fields;
  }
}
