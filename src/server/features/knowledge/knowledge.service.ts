import type { PagedList } from '../../../shared/api/common.ts';
import {
  ARTICLE_PAGE_SIZE,
  CATEGORY_PAGE_SIZE,
  type Category,
  type CategoryListQuery,
  type Instruction,
  type InstructionListQuery,
  type InstructionSummary,
  type Section,
} from '../../../shared/api/knowledge.ts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { loadCatalog } from './catalog.ts';
import {
  filesById,
  filesOfArticles,
  findPublishedArticle,
  listPublishedArticleSummaries,
  pagePublishedArticles,
} from './knowledge.repository.ts';
import {
  presentCategory,
  presentInstruction,
  presentInstructionSummary,
  presentSection,
} from './knowledge.presenters.ts';

function pageMeta(total: number, page: number, perPage: number) {
  return { pageCount: Math.ceil(total / perPage), totalCount: total, currentPage: page, perPage };
}

export async function getSections(db: Executor): Promise<Section[]> {
  const catalog = await loadCatalog(db);
  return catalog.sections
    .filter((s) => catalog.isSectionVisible(s.id))
    .map((s) => presentSection(s, catalog));
}

/** Any parameter asks for one page of a list; none asks for the whole bundle. */
const wantsPage = (query: object) => Object.values(query).some((value) => value !== undefined);

export async function listCategories(db: Executor, query: CategoryListQuery): Promise<PagedList<Category>> {
  const catalog = await loadCatalog(db);
  let rows = catalog.categories.filter((c) => catalog.isCategoryVisible(c.id));
  const paged = wantsPage(query);
  if (query.category_parent_id !== undefined) {
    if (!catalog.isCategoryVisible(query.category_parent_id)) {
      throw notFound(`Category ${query.category_parent_id}`);
    }
    rows = catalog.visibleChildren(query.category_parent_id);
  } else if (query.section_id !== undefined) {
    rows = catalog.visibleChildren(null, query.section_id);
  }
  const perPage = paged ? (query.per_page ?? CATEGORY_PAGE_SIZE) : Math.max(rows.length, 1);
  const page = query.page ?? 1;
  const slice = paged ? rows.slice((page - 1) * perPage, page * perPage) : rows;
  const icons = await filesById(
    db,
    slice.flatMap((c) => (c.icon_file_id !== null ? [c.icon_file_id] : [])),
  );
  return {
    items: slice.map((c) => presentCategory(c, catalog, icons)),
    _meta: pageMeta(rows.length, page, perPage),
  };
}

export async function listInstructionBundle(db: Executor): Promise<PagedList<InstructionSummary>> {
  const rows = await listPublishedArticleSummaries(db);
  return {
    items: rows.map(presentInstructionSummary),
    _meta: pageMeta(rows.length, 1, Math.max(rows.length, 1)),
  };
}

export async function listInstructions(
  db: Executor,
  query: InstructionListQuery,
): Promise<PagedList<Instruction> | PagedList<InstructionSummary>> {
  if (!wantsPage(query)) return listInstructionBundle(db);
  if (query.category_id !== undefined) {
    const catalog = await loadCatalog(db);
    if (!catalog.isCategoryVisible(query.category_id)) throw notFound(`Category ${query.category_id}`);
  }
  const perPage = query.per_page ?? ARTICLE_PAGE_SIZE;
  const page = query.page ?? 1;
  const { rows, total } = await pagePublishedArticles(
    db,
    { categoryId: query.category_id, sectionId: query.section_id },
    perPage,
    (page - 1) * perPage,
  );
  const files = await filesOfArticles(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((row) => presentInstruction(row, files.get(row.id) ?? [])),
    _meta: pageMeta(total, page, perPage),
  };
}

export async function getInstruction(db: Executor, id: number): Promise<Instruction> {
  const article = await findPublishedArticle(db, id);
  if (!article) throw notFound(`Article ${id}`);
  const files = await filesOfArticles(db, [id]);
  return presentInstruction(article, files.get(id) ?? []);
}
