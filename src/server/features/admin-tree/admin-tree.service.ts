import type { AdminTree, MoveBody } from '../../../shared/api/admin.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Dialect } from '../../db/schema-helpers.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import {
  filesByIds,
  findArticle,
  findCategory,
  findSection,
  listAllArticleSummaries,
  listAllCategories,
  listAllSections,
  lockCategoryTree,
} from '../../content/content.repository.ts';
import {
  presentAdminArticleSummary,
  presentAdminCategory,
  presentAdminSection,
} from '../../content/admin.presenters.ts';
import { categorySummaries, sectionSummaries } from '../../content/translation-summaries.ts';
import type { RevisionAuthor } from '../../content/article-revisions.repository.ts';
import { moveArticle, moveCategory, placeAt, resolveContainer } from '../../content/placement.ts';

/** Moves a section, category or article to its place (a new parent, an index among siblings); answers the tree. */
export async function moveItem(
  db: Db,
  dialect: Dialect,
  body: MoveBody,
  author: RevisionAuthor,
): Promise<AdminTree> {
  await db.transaction().execute(async (trx) => {
    await lockCategoryTree(trx, dialect);
    const now = Date.now();
    if (body.kind === 'section') {
      if (!(await findSection(trx, body.id))) throw notFound(`Section ${body.id}`);
      if (body.section_id !== undefined || body.parent_id !== undefined) {
        throw badRequest(
          body.section_id !== undefined ? 'section_id' : 'parent_id',
          'does not apply to a section',
        );
      }
      await placeAt(trx, 'section', 0, null, body.id, body.index, now);
    } else if (body.kind === 'category') {
      const category = await findCategory(trx, body.id);
      if (!category) throw notFound(`Category ${body.id}`);
      const target = await resolveContainer(
        trx,
        { sectionId: category.section_id, categoryId: category.parent_id },
        body.section_id,
        body.parent_id,
      );
      await moveCategory(trx, category, target, body.index, author, now);
    } else {
      const article = await findArticle(trx, body.id);
      if (!article) throw notFound(`Article ${body.id}`);
      const target = await resolveContainer(
        trx,
        { sectionId: article.section_id, categoryId: article.category_id },
        body.section_id,
        body.parent_id,
      );
      await moveArticle(trx, article, target, body.index, author, now);
    }
    await touchContent(trx);
  });
  return getTree(db);
}

export async function getTree(db: Executor): Promise<AdminTree> {
  const [sections, categories, articles] = await Promise.all([
    listAllSections(db),
    listAllCategories(db),
    listAllArticleSummaries(db),
  ]);
  const [icons, sectionTranslations, categoryTranslations] = await Promise.all([
    filesByIds(
      db,
      categories.flatMap((c) => (c.icon_file_id === null ? [] : [c.icon_file_id])),
    ),
    sectionSummaries(db, sections),
    categorySummaries(db, categories),
  ]);
  return {
    sections: sections.map((s) => presentAdminSection(s, sectionTranslations.get(s.id))),
    categories: categories.map((c) =>
      presentAdminCategory(
        c,
        c.icon_file_id === null ? undefined : icons.get(c.icon_file_id),
        categoryTranslations.get(c.id),
      ),
    ),
    articles: articles.map(presentAdminArticleSummary),
  };
}
