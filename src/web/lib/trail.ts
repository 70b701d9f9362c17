import type { Category, InstructionSummary, Section } from '../../shared/api/knowledge.ts';
import type { Language } from '../../shared/constants.ts';

export interface TrailStep {
  kind: 'section' | 'category' | 'instruction';
  id: number;
  name: string;
  /** The language of the name shown, when it is known (fallbacks are marked with it). */
  lang?: Language;
}

/** The ancestors of a category, outermost first, ending with the category itself. */
export function categoryChain(categoryId: number, categories: Category[]): Category[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const chain: Category[] = [];
  const seen = new Set<number>();
  for (
    let current = byId.get(categoryId);
    current && !seen.has(current.id);
    current = byId.get(current.parent_id ?? -1)
  ) {
    seen.add(current.id);
    chain.unshift(current);
  }
  return chain;
}

/**
 * The full trail of a page, computed from the data rather than from the visitor's history, so a shared link to a
 * deep article shows where it lives: section, parent categories, category, article.
 */
export function computeTrail(
  data: { sections: Section[]; categories: Category[] },
  target: {
    categoryId: number | null;
    sectionId: number;
    instruction?: Pick<InstructionSummary, 'id' | 'title'> & { lang?: Language };
  },
): TrailStep[] {
  const steps: TrailStep[] = [];
  const section = data.sections.find((s) => s.id === target.sectionId);
  if (section) steps.push({ kind: 'section', id: section.id, name: section.name, lang: section.lang });
  if (target.categoryId !== null) {
    for (const category of categoryChain(target.categoryId, data.categories)) {
      steps.push({ kind: 'category', id: category.id, name: category.name, lang: category.lang });
    }
  }
  if (target.instruction)
    steps.push({
      kind: 'instruction',
      id: target.instruction.id,
      name: target.instruction.title,
      ...(target.instruction.lang && { lang: target.instruction.lang }),
    });
  return steps;
}

/**
 * The specification's visited-categories rule: visiting a category drops the visited categories below it and
 * appends it unless it is already there.
 */
export function visitCategory(visited: number[], categoryId: number, categories: Category[]): number[] {
  const isBelow = (id: number) =>
    categoryChain(id, categories).some((c) => c.id === categoryId) && id !== categoryId;
  const kept = visited.filter((id) => !isBelow(id));
  return kept.includes(categoryId) ? kept : [...kept, categoryId];
}
