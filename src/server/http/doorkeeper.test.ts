import { describe, expect, it } from 'vitest';
import { Doorkeeper } from './doorkeeper.ts';

describe('doorkeeper', () => {
  it('knows a key from its second coming, and tells most new keys apart', () => {
    const door = new Doorkeeper(1 << 16);
    expect(door.metBefore('/api/search/knowledge/suggestions?text=router')).toBe(false);
    expect(door.metBefore('/api/search/knowledge/suggestions?text=router')).toBe(true);
    expect(door.metBefore('/api/search/knowledge/suggestions?text=route')).toBe(false);
    const keys = Array.from({ length: 5_000 }, (_, i) => `query ${i}`);
    const early = keys.filter((key) => door.metBefore(key)).length;
    // 5,000 keys in 65,536 bits: a few share a bit with an earlier one, most do not.
    expect(early).toBeLessThan(250);
    expect(keys.every((key) => door.metBefore(key))).toBe(true);
  });

  it('forgets everything when a quarter of its bits are set, so a flood of new keys cannot fill it', () => {
    const door = new Doorkeeper(1 << 10);
    door.metBefore('kept');
    expect(door.metBefore('kept')).toBe(true);
    let early = 0;
    for (let i = 0; i < 100_000; i++) if (door.metBefore(`flood ${i}`)) early++;
    // Cleared every 256 marks, a map of 1,024 bits stays at most a quarter full: at most one key in four early.
    expect(early).toBeLessThan(25_000);
    expect(door.metBefore('kept')).toBe(false);
  });

  it('takes a power of two', () => {
    expect(() => new Doorkeeper(1000)).toThrow(RangeError);
  });
});
