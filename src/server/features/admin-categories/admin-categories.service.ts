import type {
  AdminCategory,
  CategoryCreateBody,
  CategoryUpdateBody,
  DeleteQuery,
} from '../../../shared/api/admin.ts';
import type { Updateable } from 'kysely';
import type { Dialect } from '../../db/schema-helpers.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { CategoryRow, CategoryTable } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import {
  articleIdsIn,
  articlesInCategory,
  childCategories,
  deleteArticles,
  deleteCategories,
  findCategory,
  findFile,
  insertCategory,
  lockCategoryTree,
  subtreeIds,
  writeCategory,
} from '../../content/content.repository.ts';
import { presentAdminCategory } from '../../content/admin.presenters.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { categorySummaries } from '../../content/translation-summaries.ts';
import {
  checkOneDeleteOption,
  cleanName,
  notEmpty,
  requireCategory,
  requireContentImage,
  requireSection,
} from '../../content/content-rules.ts';
import { closeGap, moveContentTo, newItemContainer, placeAt } from '../../content/placement.ts';
import type { RevisionAuthor } from '../../content/article-revisions.repository.ts';

type IconFields = Pick<CategoryTable, 'icon_type' | 'font_icon' | 'icon_file_id'>;

/** The icon columns after a change: a font icon and an image icon exclude each other; null removes that kind. */
async function iconChange(
  db: Executor,
  current: IconFields,
  body: { font_icon?: string | null; icon_file_id?: number | null },
): Promise<Partial<IconFields>> {
  if (body.font_icon != null && body.icon_file_id != null) {
    throw new ApiError(400, 'invalid_request', 'Give either font_icon or icon_file_id, not both', [
      { field: 'icon_file_id', message: 'cannot be combined with font_icon' },
    ]);
  }
  if (body.icon_file_id != null) {
    await requireContentImage(db, body.icon_file_id, 'icon_file_id');
    return { icon_type: 'file', icon_file_id: body.icon_file_id, font_icon: null };
  }
  if (body.font_icon != null) return { icon_type: 'font', font_icon: body.font_icon, icon_file_id: null };
  const change: Partial<IconFields> = {};
  if (body.icon_file_id === null) {
    change.icon_file_id = null;
    if (current.icon_type === 'file') change.icon_type = null;
  }
  if (body.font_icon === null) {
    change.font_icon = null;
    if (current.icon_type === 'font') change.icon_type = null;
  }
  return change;
}

async function present(db: Executor, id: number): Promise<AdminCategory> {
  const category = (await findCategory(db, id)) as CategoryRow;
  const icon = category.icon_file_id === null ? undefined : await findFile(db, category.icon_file_id);
  return presentAdminCategory(category, icon, (await categorySummaries(db, [category])).get(id));
}

export async function createCategory(db: Db, body: CategoryCreateBody): Promise<AdminCategory> {
  const name = cleanName(body.name);
  const description = body.description === undefined ? '' : await cleanHtml(body.description, 'description');
  return db.transaction().execute(async (trx) => {
    const place = await newItemContainer(trx, body.section_id, body.parent_id ?? null);
    const icon = await iconChange(trx, { icon_type: null, font_icon: null, icon_file_id: null }, body);
    const now = Date.now();
    const id = await insertCategory(trx, {
      section_id: place.sectionId,
      parent_id: place.categoryId,
      name,
      description,
      description_source: null,
      icon_type: null,
      font_icon: null,
      icon_file_id: null,
      ...icon,
      visibility: body.visibility ?? 'everyone',
      position: 1_000_000,
      source_path: null,
      created_at: now,
      updated_at: now,
    });
    await placeAt(trx, 'category', place.sectionId, place.categoryId, id, body.position, now);
    await touchContent(trx);
    return present(trx, id);
  });
}

export async function updateCategory(db: Db, id: number, body: CategoryUpdateBody): Promise<AdminCategory> {
  const description =
    body.description === undefined ? undefined : await cleanHtml(body.description, 'description');
  return db.transaction().execute(async (trx) => {
    const category = await findCategory(trx, id);
    if (!category) throw notFound(`Category ${id}`);
    const changes: Updateable<CategoryTable> = { ...(await iconChange(trx, category, body)) };
    if (body.name !== undefined) changes.name = cleanName(body.name);
    if (body.visibility !== undefined && body.visibility !== category.visibility)
      changes.visibility = body.visibility;
    // The Markdown an import brought stays the source until the HTML itself changes.
    if (description !== undefined && description !== category.description) {
      changes.description = description;
      changes.description_source = null;
    }
    if (Object.keys(changes).length) {
      await writeCategory(trx, id, { ...changes, updated_at: Date.now() });
      await touchContent(trx);
    }
    return present(trx, id);
  });
}

/**
 * Deletes a category. What is directly inside (subcategories with their content, articles) is deleted with it
 * (content=delete) or moved first; without either, a category that is not empty stays (409 not_empty).
 */
export async function deleteCategory(
  db: Db,
  dialect: Dialect,
  id: number,
  query: DeleteQuery,
  author: RevisionAuthor,
): Promise<void> {
  checkOneDeleteOption(query);
  await db.transaction().execute(async (trx) => {
    await lockCategoryTree(trx, dialect);
    const category = await findCategory(trx, id);
    if (!category) throw notFound(`Category ${id}`);
    const now = Date.now();
    const subtree = await subtreeIds(trx, category);
    const [children, articles] = await Promise.all([childCategories(trx, id), articlesInCategory(trx, id)]);
    const hasContent = children.length + articles.length > 0;
    if (hasContent && query.content === 'delete') {
      const inside = await articleIdsIn(trx, { categoryIds: subtree });
      await deleteArticles(trx, inside);
      await deleteCategories(trx, subtree);
    } else if (
      hasContent &&
      (query.move_to_section_id !== undefined || query.move_to_category_id !== undefined)
    ) {
      let target: { sectionId: number; categoryId: number | null };
      if (query.move_to_category_id !== undefined) {
        const into = await requireCategory(trx, query.move_to_category_id, 'move_to_category_id');
        if (subtree.includes(into.id)) {
          throw new ApiError(
            409,
            'invalid_move',
            'Content cannot move into the category being deleted or below it',
            [{ field: 'move_to_category_id', message: 'is the category being deleted or below it' }],
          );
        }
        target = { sectionId: into.section_id, categoryId: into.id };
      } else {
        const sectionId = query.move_to_section_id as number;
        await requireSection(trx, sectionId, 'move_to_section_id');
        target = { sectionId, categoryId: null };
      }
      await moveContentTo(trx, children, articles, target, author, now);
    } else if (hasContent) {
      throw notEmpty(`Category "${category.name}"`, children.length, articles.length);
    }
    if (!hasContent || query.content !== 'delete') {
      await deleteCategories(trx, [id]);
    }
    await closeGap(trx, 'category', category.section_id, category.parent_id, now);
    await touchContent(trx);
  });
}
