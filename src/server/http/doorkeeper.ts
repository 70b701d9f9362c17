/**
 * Which keys were met before, as bits of their hashes in a fixed bitmap: a cache that asks it keeps an answer from the
 * second time its key comes, so what is asked once (most different search queries) is never kept. A kept answer
 * lives long enough to reach the old generation of the heap, and a stream of them set off its collections, whose
 * marking of the whole heap (the search index included) lengthened the slowest answers of everything else.
 *
 * Nothing is allocated per key. Two keys may share a bit: a key then counts as met one asking early, which only keeps
 * its answer sooner. When a quarter of the bits are set, all are cleared, so that stays rare however many keys come.
 */
export class Doorkeeper {
  private readonly bits: Uint32Array;
  private marked = 0;

  constructor(
    /** Bits in the map, a power of two. */
    private readonly size = 1 << 20,
  ) {
    if (size < 32 || (size & (size - 1)) !== 0) throw new RangeError(`a power of two from 32, not ${size}`);
    this.bits = new Uint32Array(size >>> 5);
  }

  /** Whether the key was met before; from now on it has been. */
  metBefore(key: string): boolean {
    const at = hashOf(key) & (this.size - 1);
    const word = at >>> 5;
    const bit = 1 << (at & 31);
    if ((this.bits[word] as number) & bit) return true;
    if (this.marked >= this.size >>> 2) {
      this.bits.fill(0);
      this.marked = 0;
    }
    this.bits[word] = (this.bits[word] as number) | bit;
    this.marked++;
    return false;
  }
}

/** FNV-1a over the UTF-16 code units, 32 bits. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
