import type { Category, Section } from '../../shared/api/knowledge.ts';
import { categoryChain } from './trail.ts';

/**
 * The specification's auto-redirect: in a section with a single category, from a category holding one category,
 * when every category visited on the way holds one category and nothing else, lead on down the chain to its end.
 * Answers that end (a category holding a single article and nothing else leads straight to the article), or null
 * when the page is shown as it is: a category holding no category (a lone one with one article included, whose
 * article's trail would otherwise lead back to itself) or holding articles of its own.
 */
export function autoRedirectEnd(
  category: Category,
  section: Section | undefined,
  categories: Category[],
): Category | null {
  if (!section || section.count_category !== 1 || category.count_category !== 1) return null;
  const chain = categoryChain(category.id, categories);
  const isLink = (c: Category) => c.count_category === 1 && c.count_instruction === 0;
  if (!chain.slice(0, -1).every(isLink)) return null;
  let end = category;
  const seen = new Set<number>([category.id]);
  while (isLink(end)) {
    const child = categories.find((c) => c.parent_id === end.id);
    if (!child || seen.has(child.id)) break;
    seen.add(child.id);
    end = child;
  }
  return end.id !== category.id ? end : null;
}
