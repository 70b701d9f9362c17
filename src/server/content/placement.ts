import type { Executor, Tx } from '../db/database.ts';
import type { ArticleRow, CategoryRow } from '../db/tables.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import {
  articleIdsIn,
  listSiblings,
  moveToSection,
  setPosition,
  subtreeIds,
  writeArticle,
  writeCategory,
  type ItemKind,
} from './content.repository.ts';
import { recordRevisions, type RevisionAuthor } from './article-revisions.repository.ts';
import { requireCategory, requireSection } from './content-rules.ts';

/**
 * Puts an item at `index` among its siblings (past the end means last) and numbers the siblings 0..n. Only rows
 * whose position changes are written, so an untouched sibling keeps its updated_at.
 */
export async function placeAt(
  trx: Executor,
  kind: ItemKind,
  sectionId: number,
  parentId: number | null,
  id: number,
  index: number | undefined,
  now: number,
): Promise<void> {
  const siblings = (await listSiblings(trx, kind, sectionId, parentId)).filter((s) => s.id !== id);
  const at = Math.min(index ?? siblings.length, siblings.length);
  const ordered = [...siblings.slice(0, at), { id, position: -1 }, ...siblings.slice(at)];
  for (const [position, sibling] of ordered.entries()) {
    if (sibling.position !== position) await setPosition(trx, kind, sibling.id, position, now);
  }
}

/** Numbers what is left in a place 0..n, after something left it. */
export async function closeGap(
  trx: Executor,
  kind: ItemKind,
  sectionId: number,
  parentId: number | null,
  now: number,
): Promise<void> {
  const siblings = await listSiblings(trx, kind, sectionId, parentId);
  for (const [position, sibling] of siblings.entries()) {
    if (sibling.position !== position) await setPosition(trx, kind, sibling.id, position, now);
  }
}

export interface Container {
  sectionId: number;
  /** The category inside which, or null for the section's top level. */
  categoryId: number | null;
}

/**
 * Where an item goes: the section given (or the parent's, or the current one) and the parent given. A parent in
 * another section than the one named is refused, naming parent_id.
 */
export async function resolveContainer(
  trx: Executor,
  current: Container,
  sectionId: number | undefined,
  parentId: number | null | undefined,
  parentField = 'parent_id',
): Promise<Container> {
  if (parentId !== undefined && parentId !== null) {
    const parent = await requireCategory(trx, parentId, parentField);
    if (sectionId !== undefined && parent.section_id !== sectionId) {
      throw badRequest(parentField, `is in section ${parent.section_id}, not in section ${sectionId}`);
    }
    return { sectionId: parent.section_id, categoryId: parent.id };
  }
  const section = sectionId ?? current.sectionId;
  if (sectionId !== undefined) await requireSection(trx, sectionId);
  // Without a parent, an item staying in its section keeps its category; one changing section goes to the top.
  if (parentId === undefined && section === current.sectionId) return current;
  return { sectionId: section, categoryId: null };
}

/** Where a new item goes: the section named (404 when there is none), at its top level or in the parent given. */
export async function newItemContainer(
  trx: Executor,
  sectionId: number,
  parentId: number | null,
  parentField = 'parent_id',
): Promise<Container> {
  await requireSection(trx, sectionId);
  return resolveContainer(trx, { sectionId, categoryId: null }, sectionId, parentId, parentField);
}

/** Moves a category with everything inside it; it cannot go into itself or below itself (409, parent_id). */
export async function moveCategory(
  trx: Tx,
  category: CategoryRow,
  target: Container,
  index: number | undefined,
  author: RevisionAuthor | null,
  now: number,
): Promise<void> {
  const subtree = await subtreeIds(trx, category);
  if (target.categoryId !== null && subtree.includes(target.categoryId)) {
    throw new ApiError(
      409,
      'invalid_move',
      target.categoryId === category.id
        ? 'A category cannot be moved into itself'
        : 'A category cannot be moved into one of its own subcategories',
      [{ field: 'parent_id', message: 'is the category itself or below it' }],
    );
  }
  if (target.sectionId !== category.section_id) {
    await moveToSection(trx, 'categories', subtree, target.sectionId, now);
    const articles = await articleIdsIn(trx, { categoryIds: subtree });
    if (articles.length) {
      await moveToSection(trx, 'articles', articles, target.sectionId, now);
      await recordRevisions(trx, articles, { action: 'moved', author, now });
    }
  }
  await writeCategory(trx, category.id, {
    parent_id: target.categoryId,
    section_id: target.sectionId,
    updated_at: now,
  });
  await placeAt(trx, 'category', target.sectionId, target.categoryId, category.id, index, now);
  if (target.sectionId !== category.section_id || target.categoryId !== category.parent_id) {
    await closeGap(trx, 'category', category.section_id, category.parent_id, now);
  }
}

export async function moveArticle(
  trx: Tx,
  article: ArticleRow,
  target: Container,
  index: number | undefined,
  author: RevisionAuthor | null,
  now: number,
): Promise<void> {
  const changesPlace = target.sectionId !== article.section_id || target.categoryId !== article.category_id;
  await writeArticle(trx, article.id, {
    section_id: target.sectionId,
    category_id: target.categoryId,
    updated_at: now,
  });
  await placeAt(trx, 'article', target.sectionId, target.categoryId, article.id, index, now);
  if (changesPlace) {
    await closeGap(trx, 'article', article.section_id, article.category_id, now);
    // Reordering among the same siblings is not a save of the article; changing its place is.
    await recordRevisions(trx, [article.id], { action: 'moved', author, now });
  }
}

/** Moves what a section or category being deleted holds to the end of the target: its categories, then its articles. */
export async function moveContentTo(
  trx: Tx,
  categories: CategoryRow[],
  articles: ArticleRow[],
  target: Container,
  author: RevisionAuthor,
  now: number,
): Promise<void> {
  for (const category of categories) await moveCategory(trx, category, target, undefined, author, now);
  for (const article of articles) await moveArticle(trx, article, target, undefined, author, now);
}
