import type {
  AdminSection,
  DeleteQuery,
  SectionCreateBody,
  SectionUpdateBody,
} from '../../../shared/api/admin.ts';
import type { Dialect } from '../../db/schema-helpers.ts';
import type { Db, Executor } from '../../db/database.ts';
import { sectionSummaries } from '../../content/translation-summaries.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import {
  articlesInSection,
  categoriesInSection,
  deleteSectionContent,
  deleteSectionRow,
  findSection,
  insertSection,
  lockCategoryTree,
  writeSection,
} from '../../content/content.repository.ts';
import { presentAdminSection } from '../../content/admin.presenters.ts';
import {
  checkOneDeleteOption,
  cleanName,
  notEmpty,
  requireCategory,
  requireSection,
} from '../../content/content-rules.ts';
import { closeGap, moveContentTo, placeAt } from '../../content/placement.ts';
import type { RevisionAuthor } from '../../content/article-revisions.repository.ts';

async function present(db: Executor, id: number): Promise<AdminSection> {
  const section = (await findSection(db, id))!;
  return presentAdminSection(section, (await sectionSummaries(db, [section])).get(id));
}

export async function createSection(db: Db, body: SectionCreateBody): Promise<AdminSection> {
  const name = cleanName(body.name);
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const id = await insertSection(trx, {
      name,
      position: 1_000_000,
      visibility: body.visibility ?? 'everyone',
      source_path: null,
      created_at: now,
      updated_at: now,
    });
    await placeAt(trx, 'section', 0, null, id, body.position, now);
    await touchContent(trx);
    return present(trx, id);
  });
}

export async function updateSection(db: Db, id: number, body: SectionUpdateBody): Promise<AdminSection> {
  return db.transaction().execute(async (trx) => {
    const section = await findSection(trx, id);
    if (!section) throw notFound(`Section ${id}`);
    const name = body.name === undefined ? section.name : cleanName(body.name);
    const visibility = body.visibility ?? section.visibility;
    if (name !== section.name || visibility !== section.visibility) {
      await writeSection(trx, id, { name, visibility, updated_at: Date.now() });
      await touchContent(trx);
    }
    return present(trx, id);
  });
}

/**
 * Deletes a section. What is inside is deleted with it (content=delete), moved to the top level of another section
 * or into a category first; without either, a section that is not empty stays (409 not_empty).
 */
export async function deleteSection(
  db: Db,
  dialect: Dialect,
  id: number,
  query: DeleteQuery,
  author: RevisionAuthor,
): Promise<void> {
  checkOneDeleteOption(query);
  await db.transaction().execute(async (trx) => {
    await lockCategoryTree(trx, dialect);
    const section = await findSection(trx, id);
    if (!section) throw notFound(`Section ${id}`);
    const now = Date.now();
    const [categories, articles] = await Promise.all([
      categoriesInSection(trx, id),
      articlesInSection(trx, id),
    ]);
    const hasContent = categories.length + articles.length > 0;
    // What sits at the section's top level; moving a category takes everything inside it along.
    const topCategories = categories.filter((c) => c.parent_id === null);
    const topArticles = articles.filter((a) => a.category_id === null);
    if (hasContent && query.content === 'delete') {
      await deleteSectionContent(trx, id);
    } else if (hasContent && query.move_to_section_id !== undefined) {
      const targetId = query.move_to_section_id;
      if (targetId === id) throw badRequest('move_to_section_id', 'is the section being deleted');
      await requireSection(trx, targetId, 'move_to_section_id');
      const target = { sectionId: targetId, categoryId: null };
      await moveContentTo(trx, topCategories, topArticles, target, author, now);
    } else if (hasContent && query.move_to_category_id !== undefined) {
      const category = await requireCategory(trx, query.move_to_category_id, 'move_to_category_id');
      if (category.section_id === id) {
        throw new ApiError(409, 'invalid_move', 'The category is inside the section being deleted', [
          { field: 'move_to_category_id', message: 'is inside the section being deleted' },
        ]);
      }
      const target = { sectionId: category.section_id, categoryId: category.id };
      await moveContentTo(trx, topCategories, topArticles, target, author, now);
    } else if (hasContent) {
      throw notEmpty(`Section "${section.name}"`, categories.length, articles.length);
    }
    await deleteSectionRow(trx, id);
    await closeGap(trx, 'section', 0, null, now);
    await touchContent(trx);
  });
}
