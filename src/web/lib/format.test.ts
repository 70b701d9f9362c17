import { describe, expect, it } from 'vitest';
import { sizeInKb } from './format.ts';

describe('file sizes', () => {
  it.each([
    [0, 0],
    [511, 0],
    [512, 1],
    [1024, 1],
    [1535, 1],
    [1536, 2],
    [25 * 1024 * 1024, 25600],
  ])('%i bytes show as %i KB', (bytes, kb) => {
    expect(sizeInKb(bytes)).toBe(kb);
  });
});
