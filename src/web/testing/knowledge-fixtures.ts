import type { Category, Section } from '../../shared/api/knowledge.ts';

/** Test data for the public site's pure rules (trail, visited categories, auto-redirect). */
export const category = (id: number, parent_id: number | null, counts: Partial<Category> = {}): Category => ({
  id,
  name: `C${id}`,
  lang: 'en',
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
export const section = (count_category: number): Section => ({
  id: 1,
  name: 'S',
  lang: 'en',
  count_category,
  count_instruction: 0,
});

// 1 > 2 > 3 > 4 (a chain of single categories), and 5 beside 2 under 1 in another tree
export const chain = [
  category(1, null, { count_category: 1 }),
  category(2, 1, { count_category: 1 }),
  category(3, 2, { count_category: 1 }),
  category(4, 3, { count_instruction: 3 }),
];
