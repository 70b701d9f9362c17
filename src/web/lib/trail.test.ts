import { describe, expect, it } from 'vitest';
import { categoryChain, computeTrail, visitCategory } from './trail.ts';
import { category, chain, section } from '../testing/knowledge-fixtures.ts';

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
    expect(steps).toEqual([{ kind: 'section', id: 1, name: 'S', lang: 'en' }]);
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
