import { describe, expect, it } from 'vitest';
import type { Category, Section } from '../../shared/api/knowledge.ts';
import { autoRedirectEnd, categoryChain, computeTrail, visitCategory } from './trail.ts';

const category = (id: number, parent_id: number | null, counts: Partial<Category> = {}): Category => ({
  id,
  name: `C${id}`,
  section_id: 1,
  parent_id,
  description: '',
  icon: null,
  icon_type: null,
  font_icon: null,
  count_category: 0,
  count_instruction: 0,
  ...counts,
});
const section = (count_category: number): Section => ({
  id: 1,
  name: 'S',
  count_category,
  count_instruction: 0,
});

// 1 > 2 > 3 > 4 (a chain of single categories), and 5 beside 2 under 1 in another tree
const chain = [
  category(1, null, { count_category: 1 }),
  category(2, 1, { count_category: 1 }),
  category(3, 2, { count_category: 1 }),
  category(4, 3, { count_instruction: 3 }),
];

describe('the trail', () => {
  it('walks from a category up to the top', () => {
    expect(categoryChain(4, chain).map((c) => c.id)).toEqual([1, 2, 3, 4]);
    expect(categoryChain(99, chain)).toEqual([]);
  });

  it('survives a cycle in parent links', () => {
    expect(categoryChain(1, [category(1, 2), category(2, 1)]).map((c) => c.id)).toEqual([2, 1]);
  });

  it('names section, parent categories, category and article for a deep link', () => {
    const steps = computeTrail(
      { sections: [section(1)], categories: chain },
      { categoryId: 4, sectionId: 1, instruction: { id: 7, title: 'How to' } },
    );
    expect(steps.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'section:S',
      'category:C1',
      'category:C2',
      'category:C3',
      'category:C4',
      'instruction:How to',
    ]);
  });

  it('keeps an article outside any category under its section', () => {
    const steps = computeTrail(
      { sections: [section(0)], categories: [] },
      { categoryId: null, sectionId: 1 },
    );
    expect(steps).toEqual([{ kind: 'section', id: 1, name: 'S' }]);
  });
});

describe('visited categories (the specification rule)', () => {
  it('appends a category once', () => {
    expect(visitCategory([], 1, chain)).toEqual([1]);
    expect(visitCategory([1], 1, chain)).toEqual([1]);
    expect(visitCategory([1], 2, chain)).toEqual([1, 2]);
  });

  it('drops the visited categories below the one visited, keeping the others', () => {
    const other = category(5, null);
    expect(visitCategory([1, 2, 3, 5], 2, [...chain, other])).toEqual([1, 2, 5]);
  });
});

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
    expect(autoRedirectEnd(single[1] as Category, section(1), single)?.id).toBe(2);
  });
});
