/**
 * MiniSearch keeps, for every term, a `Map` from field to a `Map` from document to the term's frequency there: about
 * 50 bytes a posting, most of the index's heap (77 of 93 MB at 10,000 articles). These classes stand in for both
 * maps with the same behaviour where MiniSearch uses them, a posting being 4 bytes of a typed array (8 past 16
 * million documents added, or for a word 256 times in one field).
 */

/**
 * A narrow list keeps a pair in one 32-bit cell, the document id's 24 bits then the frequency's 8, 0 marking a removed
 * pair; a list that meets a larger id or frequency is made wide, a pair in two cells.
 */
const NARROW_DOCUMENTS = 2 ** 24;
const NARROW_FREQUENCIES = 2 ** 8;
/** The frequency of a removed pair in a wide list (MiniSearch's frequencies count occurrences, far below it). */
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
  /** The pairs by document id (see NARROW_DOCUMENTS), then unused room. */
  private cells: Uint32Array;
  private wide: boolean;
  /** Pairs in `cells`, removed ones included. */
  private used = 0;
  private removed = 0;
  /** The pair last looked at: MiniSearch reads a document's frequency right after reaching it in `keys()`. */
  private hint = 0;

  constructor(room = FIRST_ROOM, wide = false) {
    this.wide = wide;
    this.cells = new Uint32Array((wide ? 2 : 1) * Math.max(1, room));
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
    return at < 0 || this.isRemoved(at) ? undefined : this.frequencyAt(at);
  }

  has(document: number): boolean {
    return this.get(document) !== undefined;
  }

  set(document: number, frequency: number): this {
    if (document >>> 0 !== document || frequency >>> 0 !== frequency || frequency === REMOVED)
      throw new RangeError(
        `a posting holds 32-bit document ids and frequencies, not ${document}: ${frequency}`,
      );
    if (!this.wide && !(document < NARROW_DOCUMENTS && frequency > 0 && frequency < NARROW_FREQUENCIES))
      this.widen();
    const at = this.find(document);
    if (at >= 0) {
      if (this.isRemoved(at)) this.removed--;
      this.write(at, document, frequency);
      return this;
    }
    const to = -at - 1;
    if (this.used === this.room) this.grow();
    // MiniSearch only appends (its short ids grow); an earlier id goes in its place to keep the pairs sorted.
    const width = this.wide ? 2 : 1;
    if (to < this.used) this.cells.copyWithin(width * (to + 1), width * to, width * this.used);
    this.write(to, document, frequency);
    this.used++;
    this.hint = to;
    return this;
  }

  delete(document: number): boolean {
    const at = this.find(document);
    if (at < 0 || this.isRemoved(at)) return false;
    if (this.wide) this.cells[2 * at + 1] = REMOVED;
    else this.cells[at] = (this.cells[at] as number) - ((this.cells[at] as number) & 0xff);
    this.removed++;
    while (this.used > 0 && this.isRemoved(this.used - 1)) {
      this.used--;
      this.removed--;
    }
    if (this.removed * 2 > this.used) this.compact();
    return true;
  }

  clear(): void {
    this.cells = new Uint32Array(FIRST_ROOM);
    this.wide = false;
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
   * and its frequency, each a LEB128 varint (about 2 bytes a posting, against 4 or 8 in memory).
   */
  encode(): Uint8Array {
    const bytes = new Uint8Array(5 + 10 * this.size);
    let at = writeVarint(bytes, 0, this.size);
    let previous = 0;
    for (let pair = 0; pair < this.used; pair++) {
      if (this.isRemoved(pair)) continue;
      const document = this.documentAt(pair);
      at = writeVarint(bytes, at, document - previous);
      at = writeVarint(bytes, at, this.frequencyAt(pair));
      previous = document;
    }
    return bytes.subarray(0, at);
  }

  /** Postings from `encode`'s bytes, at their exact size. Throws when the bytes are not such. */
  static decode(bytes: Uint8Array): Postings {
    const count = readVarint({ bytes, at: 0 });
    // Each pair takes two bytes at least: a count past that is not believed (nor allocated).
    if (2 * count > bytes.length) throw new Error('postings cut short');
    let narrow = true;
    decodePairs(bytes, count, (document, frequency) => {
      narrow &&= document < NARROW_DOCUMENTS && frequency > 0 && frequency < NARROW_FREQUENCIES;
    });
    const postings = new Postings(count, !narrow);
    decodePairs(bytes, count, (document, frequency, pair) => postings.write(pair, document, frequency));
    postings.used = count;
    return postings;
  }

  /** Gives back the room past the last pair (a list grows by half its size at a time). */
  trim(): void {
    if (this.removed > 0) this.compact();
    const cells = (this.wide ? 2 : 1) * Math.max(1, this.used);
    if (this.cells.length > cells) this.cells = this.cells.slice(0, cells);
  }

  /** The pair after the one at `at - 1`, which held `last`, skipping removed ones (for iterators). */
  nextPair(at: number, last: number): number {
    // A compaction meanwhile moved the pairs: the next one is the first after `last`.
    if (at > 0 && (at - 1 >= this.used || this.documentAt(at - 1) !== last)) {
      const found = this.find(last + 1);
      at = found < 0 ? -found - 1 : found;
    }
    while (at < this.used && this.isRemoved(at)) at++;
    if (at < this.used) this.hint = at;
    return at;
  }

  get pairCount(): number {
    return this.used;
  }

  documentAt(pair: number): number {
    return this.wide ? (this.cells[2 * pair] as number) : (this.cells[pair] as number) >>> 8;
  }

  frequencyAt(pair: number): number {
    return this.wide ? (this.cells[2 * pair + 1] as number) : (this.cells[pair] as number) & 0xff;
  }

  /**
   * The pairs as kept, for a loop that reads them itself: `cells` (a narrow pair in one, the document id's bits then
   * the frequency's 8, a removed pair's frequency 0; a wide pair in two, a removed one's frequency 0xffffffff) and
   * how many pairs they hold, removed ones included. Valid until the postings next change.
   */
  view(): { cells: Uint32Array; wide: boolean; pairs: number } {
    return { cells: this.cells, wide: this.wide, pairs: this.used };
  }

  private isRemoved(pair: number): boolean {
    return this.wide ? this.cells[2 * pair + 1] === REMOVED : ((this.cells[pair] as number) & 0xff) === 0;
  }

  private write(pair: number, document: number, frequency: number): void {
    if (this.wide) {
      this.cells[2 * pair] = document;
      this.cells[2 * pair + 1] = frequency;
    } else this.cells[pair] = document * NARROW_FREQUENCIES + frequency;
  }

  private get room(): number {
    return this.wide ? this.cells.length / 2 : this.cells.length;
  }

  /** Where `document`'s pair is (removed or not), or -(where it would go) - 1. */
  private find(document: number): number {
    const hint = this.hint;
    if (hint < this.used && this.documentAt(hint) === document) return hint;
    let low = 0;
    let high = this.used - 1;
    // Appending (MiniSearch's adds) is the usual case.
    if (high >= 0 && this.documentAt(high) < document) return -this.used - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.documentAt(middle);
      if (found < document) low = middle + 1;
      else if (found > document) high = middle - 1;
      else return middle;
    }
    return -low - 1;
  }

  private grow(): void {
    const room = this.room;
    const bigger = new Uint32Array((this.wide ? 2 : 1) * (room + Math.max(FIRST_ROOM, room >>> 1)));
    bigger.set(this.cells.subarray(0, (this.wide ? 2 : 1) * this.used));
    this.cells = bigger;
  }

  /** Two cells a pair from now on, for an id or frequency a narrow cell cannot hold. */
  private widen(): void {
    const cells = new Uint32Array(2 * Math.max(1, this.room));
    for (let pair = 0; pair < this.used; pair++) {
      cells[2 * pair] = this.documentAt(pair);
      cells[2 * pair + 1] = this.isRemoved(pair) ? REMOVED : this.frequencyAt(pair);
    }
    this.cells = cells;
    this.wide = true;
  }

  /** Drops the removed pairs, and room past twice what is left. */
  private compact(): void {
    let to = 0;
    for (let pair = 0; pair < this.used; pair++) {
      if (this.isRemoved(pair)) continue;
      this.write(to++, this.documentAt(pair), this.frequencyAt(pair));
    }
    this.used = to;
    this.removed = 0;
    this.hint = 0;
    const width = this.wide ? 2 : 1;
    if (this.cells.length > 4 * width * Math.max(FIRST_ROOM, to))
      this.cells = this.cells.slice(0, 2 * width * Math.max(FIRST_ROOM, to));
  }
}

/** Reads `count` pairs of `encode`'s bytes. Throws when they are not such. */
function decodePairs(
  bytes: Uint8Array,
  count: number,
  each: (document: number, frequency: number, pair: number) => void,
): void {
  const reader = { bytes, at: 0 };
  readVarint(reader);
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
    each(document, frequency, pair);
  }
  if (reader.at !== bytes.length) throw new Error('postings of another length');
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
