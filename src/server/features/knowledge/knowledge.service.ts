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
import { ApiError, notFound } from '../../http/errors.ts';
import type { Audience } from '../../content/visibility.ts';
import { contentLinkSigner } from '../../files/content-file-links.ts';
import { loadCatalog, type Catalog } from './catalog.ts';
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

/**
 * What exists but is for signed-in visitors: 401, so a direct link can ask to sign in, and nothing of it (not even
 * its title) in the answer.
 */
const signInRequired = (what: string) =>
  new ApiError(
    401,
    'sign_in_required',
    `${what} is for signed-in visitors with a confirmed email; sign in to read it`,
  );

export async function getSections(db: Executor, audience: Audience): Promise<Section[]> {
  const catalog = await loadCatalog(db, audience);
  return catalog.sections
    .filter((s) => catalog.isSectionVisible(s.id))
    .map((s) => presentSection(s, catalog));
}

/** Any parameter asks for one page of a list; none asks for the whole bundle. */
const wantsPage = (query: object) => Object.values(query).some((value) => value !== undefined);

/** A category asked for by id that this reader cannot see: for signed-in visitors (401), or not there (404). */
function missingCategory(catalog: Catalog, id: number): ApiError {
  const what = `Category ${id}`;
  // Restricted itself or above, or holding only what is: a signed-in visitor would see it.
  const signedIn = catalog.audience === 'everyone' && catalog.isCategoryVisibleSignedIn(id);
  return signedIn ? signInRequired(what) : notFound(what);
}

export async function listCategories(
  db: Executor,
  query: CategoryListQuery,
  audience: Audience,
): Promise<PagedList<Category>> {
  const catalog = await loadCatalog(db, audience);
  let rows = catalog.categories.filter((c) => catalog.isCategoryVisible(c.id));
  const paged = wantsPage(query);
  if (query.category_parent_id !== undefined) {
    if (!catalog.isCategoryVisible(query.category_parent_id)) {
      throw missingCategory(catalog, query.category_parent_id);
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

export async function listInstructionBundle(
  db: Executor,
  audience: Audience,
): Promise<PagedList<InstructionSummary>> {
  const rows = await listPublishedArticleSummaries(db, await loadCatalog(db, audience));
  return {
    items: rows.map(presentInstructionSummary),
    _meta: pageMeta(rows.length, 1, Math.max(rows.length, 1)),
  };
}

export async function listInstructions(
  db: Executor,
  query: InstructionListQuery,
  audience: Audience,
): Promise<PagedList<Instruction> | PagedList<InstructionSummary>> {
  if (!wantsPage(query)) return listInstructionBundle(db, audience);
  const catalog = await loadCatalog(db, audience);
  if (query.category_id !== undefined && !catalog.isCategoryVisible(query.category_id)) {
    throw missingCategory(catalog, query.category_id);
  }
  const perPage = query.per_page ?? ARTICLE_PAGE_SIZE;
  const page = query.page ?? 1;
  const { rows, total } = await pagePublishedArticles(
    db,
    { categoryId: query.category_id, sectionId: query.section_id },
    catalog,
    perPage,
    (page - 1) * perPage,
  );
  const files = await filesOfArticles(
    db,
    rows.map((r) => r.id),
  );
  const signer = audience === 'everyone' ? null : await contentLinkSigner(db);
  return {
    items: rows.map((row) => {
      const instruction = presentInstruction(row, files.get(row.id) ?? []);
      return signer && catalog.restrictions.article(row) ? withSignedLinks(instruction, signer) : instruction;
    }),
    _meta: pageMeta(total, page, perPage),
  };
}

/** A restricted article's file links, signed for a reader the server may know by the auth header alone. */
function withSignedLinks(
  instruction: Instruction,
  signer: Awaited<ReturnType<typeof contentLinkSigner>>,
): Instruction {
  return {
    ...instruction,
    description: signer.html(instruction.description),
    files: instruction.files.map((file) => ({ ...file, link: signer.path(file.id, file.link) })),
  };
}

export async function getInstruction(db: Executor, id: number, audience: Audience): Promise<Instruction> {
  const article = await findPublishedArticle(db, id);
  if (!article) throw notFound(`Article ${id}`);
  const restricted = (await loadCatalog(db, audience)).restrictions.article(article);
  if (restricted && audience === 'everyone') throw signInRequired(`Article ${id}`);
  const files = await filesOfArticles(db, [id]);
  const instruction = presentInstruction(article, files.get(id) ?? []);
  return restricted ? withSignedLinks(instruction, await contentLinkSigner(db)) : instruction;
}
