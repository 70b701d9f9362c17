import type { Visibility } from '../../shared/constants.ts';
import type { UserRow } from '../db/tables.ts';

/**
 * Who is reading: `everyone` (no account, or one whose email is not confirmed) reads what is visible to everyone;
 * `signed_in` (a signed-in visitor with a confirmed email, or a member of the team) reads everything published.
 */
export type Audience = Visibility;

export const audienceOf = (user: Pick<UserRow, 'email_verified_at'> | null | undefined): Audience =>
  user && user.email_verified_at !== null ? 'signed_in' : 'everyone';

export const mayRead = (audience: Audience, visibility: Visibility): boolean =>
  visibility === 'everyone' || audience === 'signed_in';

interface Placed {
  id: number;
  visibility: Visibility;
}

/**
 * Which sections and categories are for signed-in visitors, as a visitor meets them: a category is when it says so,
 * or its parent or its section is; an article when it says so or where it sits is. Built from the whole tree, which
 * every caller has at hand (the catalog, the search index, a file's check).
 */
export interface Restrictions {
  section(id: number): boolean;
  category(id: number | null): boolean;
  article(article: { visibility: Visibility; section_id: number; category_id: number | null }): boolean;
  /** The ids of restricted sections and categories, for queries that leave them out. */
  sectionIds: number[];
  categoryIds: number[];
}

export function restrictionsOf(
  sections: readonly Placed[],
  categories: readonly (Placed & { section_id: number; parent_id: number | null })[],
): Restrictions {
  const restrictedSections = new Set(sections.filter((s) => s.visibility !== 'everyone').map((s) => s.id));
  const byId = new Map(categories.map((c) => [c.id, c]));
  const known = new Map<number, boolean>();
  const category = (id: number | null, depth = 0): boolean => {
    if (id === null) return false;
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    const row = byId.get(id);
    if (!row) return false; // no such category
    // A cycle in parent links is corrupt data: what it holds is treated as restricted rather than recursed forever.
    const result =
      depth > 1000 ||
      row.visibility !== 'everyone' ||
      restrictedSections.has(row.section_id) ||
      category(row.parent_id, depth + 1);
    known.set(id, result);
    return result;
  };
  const categoryIds = categories.filter((c) => category(c.id)).map((c) => c.id);
  return {
    section: (id) => restrictedSections.has(id),
    category: (id) => category(id),
    article: (article) =>
      article.visibility !== 'everyone' ||
      restrictedSections.has(article.section_id) ||
      category(article.category_id),
    sectionIds: [...restrictedSections],
    categoryIds,
  };
}
