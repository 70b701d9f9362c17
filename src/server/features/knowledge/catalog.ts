import type { Executor } from '../../db/database.ts';
import type { CategoryRow, SectionRow } from '../../db/tables.ts';
import { listAllCategories, listAllSections } from '../../content/content.repository.ts';
import { mayRead, restrictionsOf, type Audience, type Restrictions } from '../../content/visibility.ts';
import { countPublishedArticles, type ArticleCount } from './knowledge.repository.ts';
import { treeLanguage, type TreeLanguage } from '../../content/translations.ts';
import type { Reading } from '../../languages/index.ts';
import {
  listPublishedCategoryTranslations,
  listPublishedSectionTranslations,
} from '../../content/translations.repository.ts';

interface Counts {
  count_category: number;
  count_instruction: number;
}

/**
 * The shape of the knowledge base as a visitor sees it. A category is visible when a published article sits
 * somewhere below it; a section when it has a visible category or a published article of its own. Counts are of
 * visible things only, so a tree of drafts never shows up as an empty tile. Built for one audience: what it may not
 * read (see visibility.ts) is not there at all, counts included.
 */
export interface Catalog {
  audience: Audience;
  /** Names and descriptions in the reader's language, or the best there is. */
  language: TreeLanguage;
  /** What is restricted in the whole tree, whoever reads. */
  restrictions: Restrictions;
  sections: SectionRow[];
  categories: CategoryRow[];
  category(id: number): CategoryRow | undefined;
  isCategoryVisible(id: number): boolean;
  /** Visible child categories; `null` parent means the top level of `sectionId`. */
  visibleChildren(parentId: number | null, sectionId?: number): CategoryRow[];
  categoryCounts(id: number): Counts;
  sectionCounts(id: number): Counts;
  isSectionVisible(id: number): boolean;
  /** Whether a signed-in visitor would see the category: for this reader, a prompt to sign in rather than a 404. */
  isCategoryVisibleSignedIn(id: number): boolean;
}

export async function loadCatalog(db: Executor, audience: Audience, reading: Reading): Promise<Catalog> {
  const [sections, categories, counts, sectionTranslations, categoryTranslations] = await Promise.all([
    listAllSections(db),
    listAllCategories(db),
    countPublishedArticles(db),
    listPublishedSectionTranslations(db),
    listPublishedCategoryTranslations(db),
  ]);
  const language = treeLanguage(reading, sectionTranslations, categoryTranslations);
  return buildCatalog(sections, categories, counts, audience, language);
}

export function buildCatalog(
  allSections: SectionRow[],
  allCategories: CategoryRow[],
  allCounts: ArticleCount[],
  audience: Audience,
  language: TreeLanguage,
): Catalog {
  const restrictions = restrictionsOf(allSections, allCategories);
  const readable = (restricted: boolean) => !restricted || mayRead(audience, 'signed_in');
  const sections = allSections.filter((s) => readable(restrictions.section(s.id)));
  const categories = allCategories.filter((c) => readable(restrictions.category(c.id)));
  const counts = allCounts.filter((row) => readable(restrictions.article(row)));
  const byId = new Map(categories.map((c) => [c.id, c]));
  const children = new Map<number | null, CategoryRow[]>();
  for (const category of categories) {
    const list = children.get(category.parent_id) ?? [];
    list.push(category);
    children.set(category.parent_id, list);
  }
  const directInCategory = new Map<number, number>();
  const directInSection = new Map<number, number>();
  for (const row of counts) {
    // One row per visibility: a section's direct articles can come in two.
    if (row.category_id === null)
      directInSection.set(row.section_id, (directInSection.get(row.section_id) ?? 0) + row.count);
    else directInCategory.set(row.category_id, (directInCategory.get(row.category_id) ?? 0) + row.count);
  }

  const visible = new Map<number, boolean>();
  const isVisible = (id: number, depth = 0): boolean => {
    const known = visible.get(id);
    if (known !== undefined) return known;
    // A cycle in parent links is corrupt data; refuse to recurse forever on it.
    if (depth > 1000) return false;
    const result =
      (directInCategory.get(id) ?? 0) > 0 ||
      (children.get(id) ?? []).some((child) => isVisible(child.id, depth + 1));
    visible.set(id, result);
    return result;
  };
  categories.forEach((c) => isVisible(c.id));

  const visibleChildren = (parentId: number | null, sectionId?: number) =>
    (children.get(parentId) ?? []).filter(
      (c) => visible.get(c.id) === true && (sectionId === undefined || c.section_id === sectionId),
    );

  const sectionCounts = (id: number): Counts => ({
    count_category: visibleChildren(null, id).length,
    count_instruction: directInSection.get(id) ?? 0,
  });

  let signedIn: Catalog | undefined;
  return {
    audience,
    language,
    restrictions,
    isCategoryVisibleSignedIn: (id) =>
      audience === 'signed_in'
        ? visible.get(id) === true
        : (signedIn ??= buildCatalog(
            allSections,
            allCategories,
            allCounts,
            'signed_in',
            language,
          )).isCategoryVisible(id),
    sections,
    categories,
    category: (id) => byId.get(id),
    isCategoryVisible: (id) => visible.get(id) === true,
    visibleChildren,
    categoryCounts: (id) => ({
      count_category: visibleChildren(id).length,
      count_instruction: directInCategory.get(id) ?? 0,
    }),
    sectionCounts,
    isSectionVisible: (id) => {
      const counts = sectionCounts(id);
      return counts.count_category > 0 || counts.count_instruction > 0;
    },
  };
}
