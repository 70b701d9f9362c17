import { describe, expect, it } from 'vitest';
import type { Category } from '../../shared/api/knowledge.ts';
import { category, chain, section } from '../testing/knowledge-fixtures.ts';
import { autoRedirectEnd } from './auto-redirect.ts';

describe('auto-redirect through single categories', () => {
  it('leads from the top of the chain to its end', () => {
    expect(autoRedirectEnd(chain[0] as Category, section(1), chain)?.id).toBe(4);
    expect(autoRedirectEnd(chain[1] as Category, section(1), chain)?.id).toBe(4);
  });

  it('stays on the end of the chain, and anywhere in a section with several categories', () => {
    expect(autoRedirectEnd(chain[3] as Category, section(1), chain)).toBeNull();
    expect(autoRedirectEnd(chain[0] as Category, section(2), chain)).toBeNull();
  });

  it('does not skip a category that holds articles of its own', () => {
    const withArticles = [
      category(1, null, { count_category: 1, count_instruction: 2 }),
      category(2, 1, { count_instruction: 1 }),
    ];
    expect(autoRedirectEnd(withArticles[0] as Category, section(1), withArticles)).toBeNull();
  });

  it('answers a single-article end, which leads to the article itself', () => {
    const single = [category(1, null, { count_category: 1 }), category(2, 1, { count_instruction: 1 })];
    expect(autoRedirectEnd(single[0] as Category, section(1), single)?.id).toBe(2);
  });

  it('shows a category holding no category, even a lone one with a single article', () => {
    const single = [category(1, null, { count_category: 1 }), category(2, 1, { count_instruction: 1 })];
    expect(autoRedirectEnd(single[1] as Category, section(1), single)).toBeNull();
    const lone = [category(3, null, { count_instruction: 1 })];
    expect(autoRedirectEnd(lone[0] as Category, section(1), lone)).toBeNull();
  });
});
