import type { Category, Section } from '../../shared/api/knowledge.ts';
import { categoryChain } from './trail.ts';

/**
 * The specification's auto-redirect: in a section with a single category, a chain of categories that each hold one
 * category and nothing else leads on to its end. Answers that end (which is the category itself when it holds a
 * single article and nothing else, the case that leads straight to the article), or null when there is no chain.
 */
export function autoRedirectEnd(
  category: Category,
  section: Section | undefined,
  categories: Category[],
): Category | null {
  if (!section || section.count_category !== 1) return null;
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
  const singleArticle = end.count_category === 0 && end.count_instruction === 1;
  return end.id !== category.id || singleArticle ? end : null;
}
