import type { PagedList } from '../../../shared/api/common.ts';
import {
  ARTICLE_PAGE_SIZE,
  CATEGORY_PAGE_SIZE,
  type Category,
  type CategoryListQuery,
  type Instruction,
  type InstructionListQuery,
  type InstructionNearby,
  type InstructionSummary,
  type Section,
} from '../../../shared/api/knowledge.ts';
import type { Executor } from '../../db/database.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { contentLinkSigner } from '../../files/content-file-links.ts';
import { loadCatalog, type Catalog } from './catalog.ts';
import type { RevisionWatch } from '../../revisions/revision-watch.ts';
import { perRevision } from '../../revisions/per-revision.ts';
import {
  filesById,
  filesOfArticles,
  findLiveArticle,
  listPublishedArticleSummaries,
  pagePublishedArticles,
} from './knowledge.repository.ts';
import type { ArticleRow, ArticleTranslationRow, FileRow } from '../../db/tables.ts';
import { LANGUAGES } from '../../../shared/constants.ts';
import {
  articleNeighbourhood,
  relatedAround,
  type FindRelated,
} from '../../content/article-neighbourhood.ts';
import { shownVersion, type ShownVersion } from '../../content/translations.ts';
import type { Reading } from '../../languages/index.ts';
import type { Reader } from '../../content/reader.ts';
import {
  filesOfArticleTranslations,
  listPublishedArticleTitles,
  listPublishedArticleTranslations,
} from '../../content/translations.repository.ts';
import {
  presentCategory,
  presentInstruction,
  presentInstructionSummary,
  presentSection,
} from './knowledge.presenters.ts';

/** Where the knowledge calls read from: the database, and what nearly every call needs, kept per content revision. */
export interface KnowledgeSource {
  db: Executor;
  /** The tree as this reader sees it. */
  catalog(reader: Reader): Promise<Catalog>;
  /** Every article this reader may read, without bodies, in their language. */
  bundle(reader: Reader): Promise<PagedList<InstructionSummary>>;
}

/**
 * The catalog and the bundle are made once per content revision, reader's audience and language, instead of on
 * every call: at 10,000 articles the bundle takes tens of milliseconds to read and shape, and each page rendered
 * asks for the catalog four times.
 */
export function knowledgeSource(db: Executor, revisions: RevisionWatch): KnowledgeSource {
  const remember = perRevision(revisions);
  const keyOf = (reader: Reader) => `${reader.audience}|${reader.lang}|${reader.site}`;
  const source: KnowledgeSource = {
    db,
    catalog: (reader) => remember(`catalog|${keyOf(reader)}`, () => loadCatalog(db, reader.audience, reader)),
    bundle: (reader) =>
      remember(`bundle|${keyOf(reader)}`, async () =>
        readInstructionBundle(db, await source.catalog(reader), reader),
      ),
  };
  return source;
}

/**
 * The version of each article a reader gets. Translations are read in the reader's and the site's language first;
 * only articles left with none (a draft row whose translations are in other languages) are read in all of them.
 */
async function shownVersions<T extends { article_id: number; lang: string }>(
  rows: { id: number; lang: string | null; published: number }[],
  reading: Reading,
  read: (langs: string[], ids: number[]) => Promise<T[]>,
): Promise<Map<number, ShownVersion<T>>> {
  const shown = new Map<number, ShownVersion<T>>();
  const langs = [...new Set([reading.lang, reading.site])];
  // The bundle asks for every article: then all of the two languages' translations, not a list of ids.
  const byArticle = groupBy(
    await read(
      langs,
      rows.map((row) => row.id),
    ),
  );
  const missing: typeof rows = [];
  for (const row of rows) {
    const version = shownVersion(row, byArticle.get(row.id) ?? [], reading);
    if (version) shown.set(row.id, version);
    else missing.push(row);
  }
  if (missing.length > 0) {
    const others = LANGUAGES.filter((lang) => !langs.includes(lang));
    const more = groupBy(
      await read(
        others,
        missing.map((row) => row.id),
      ),
    );
    for (const row of missing) {
      const version = shownVersion(row, more.get(row.id) ?? [], reading);
      if (version) shown.set(row.id, version);
    }
  }
  return shown;
}

function groupBy<T extends { article_id: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(row.article_id, [...(groups.get(row.article_id) ?? []), row]);
  return groups;
}

/** An article's text as the reader gets it, and the files of that version. */
function shownText(
  row: ArticleRow,
  version: ShownVersion<ArticleTranslationRow> | undefined,
  files: Map<number, FileRow[]>,
  translationFiles: Map<string, FileRow[]>,
) {
  const t = version?.translation;
  return {
    text: t
      ? { title: t.title, body_html: t.body_html, lang: version.lang, updated_at: t.updated_at }
      : {
          title: row.title,
          body_html: row.body_html,
          lang: version?.lang ?? 'en',
          updated_at: row.updated_at,
        },
    files: t ? (translationFiles.get(`${row.id}:${t.lang}`) ?? []) : (files.get(row.id) ?? []),
  };
}

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

export async function getSections(source: KnowledgeSource, reader: Reader): Promise<Section[]> {
  const catalog = await source.catalog(reader);
  return catalog.sections
    .filter((s) => catalog.isSectionVisible(s.id))
    .map((s) => presentSection(s, catalog));
}

/** Any parameter but the language asks for one page of a list; none asks for the whole bundle. */
const wantsPage = (query: object) =>
  Object.entries(query).some(([key, value]) => key !== 'lang' && value !== undefined);

/** A category asked for by id that this reader cannot see: for signed-in visitors (401), or not there (404). */
function missingCategory(catalog: Catalog, id: number): ApiError {
  const what = `Category ${id}`;
  // Restricted itself or above, or holding only what is: a signed-in visitor would see it.
  const signedIn = catalog.audience === 'everyone' && catalog.isCategoryVisibleSignedIn(id);
  return signedIn ? signInRequired(what) : notFound(what);
}

export async function listCategories(
  source: KnowledgeSource,
  query: CategoryListQuery,
  reader: Reader,
): Promise<PagedList<Category>> {
  const { db } = source;
  const catalog = await source.catalog(reader);
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

async function readInstructionBundle(
  db: Executor,
  catalog: Catalog,
  reading: Reading,
): Promise<PagedList<InstructionSummary>> {
  const rows = await listPublishedArticleSummaries(db, catalog);
  const shown = await shownVersions(rows, reading, (langs, ids) =>
    // The whole bundle: every translation in these languages rather than a list of thousands of ids.
    listPublishedArticleTitles(db, langs, ids.length === rows.length ? undefined : ids),
  );
  const items = rows.flatMap((row) => {
    const version = shown.get(row.id);
    if (!version) return [];
    const title = version.translation?.title ?? row.title;
    return [presentInstructionSummary(row, { title, lang: version.lang })];
  });
  return { items, _meta: pageMeta(items.length, 1, Math.max(items.length, 1)) };
}

export async function listInstructions(
  source: KnowledgeSource,
  query: InstructionListQuery,
  reader: Reader,
): Promise<PagedList<Instruction> | PagedList<InstructionSummary>> {
  if (!wantsPage(query)) return source.bundle(reader);
  const { db } = source;
  const catalog = await source.catalog(reader);
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
  const ids = rows.map((r) => r.id);
  const shown = await shownVersions(rows, reader, (langs, some) =>
    listPublishedArticleTranslations(db, some, langs),
  );
  const [files, translationFiles] = await Promise.all([
    filesOfArticles(db, ids),
    filesOfArticleTranslations(db, ids, [...new Set([...shown.values()].map((v) => v.lang))]),
  ]);
  const signer = reader.audience === 'everyone' ? null : await contentLinkSigner(db);
  return {
    items: rows.map((row) => {
      const { text, files: versionFiles } = shownText(row, shown.get(row.id), files, translationFiles);
      const instruction = presentInstruction(row, text, versionFiles);
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

export async function getInstruction(
  source: KnowledgeSource,
  id: number,
  reader: Reader,
): Promise<Instruction> {
  const { db } = source;
  const article = await findLiveArticle(db, id);
  if (!article) throw notFound(`Article ${id}`);
  const restricted = (await source.catalog(reader)).restrictions.article(article);
  if (restricted && reader.audience === 'everyone') throw signInRequired(`Article ${id}`);
  const shown = await shownVersions([article], reader, (langs, ids) =>
    listPublishedArticleTranslations(db, ids, langs),
  );
  const version = shown.get(id);
  const [files, translationFiles] = await Promise.all([
    filesOfArticles(db, [id]),
    filesOfArticleTranslations(db, [id], version ? [version.lang] : []),
  ]);
  const { text, files: versionFiles } = shownText(article, version, files, translationFiles);
  const instruction = presentInstruction(article, text, versionFiles);
  return restricted ? withSignedLinks(instruction, await contentLinkSigner(db)) : instruction;
}

/**
 * What the article page shows around an article (InstructionNearby), from the bundle this reader gets: the page
 * renders a few dozen links however many articles the help centre has. Not `fresh` when the related articles came
 * from a search index still catching up with the content.
 */
export async function getInstructionNearby(
  source: KnowledgeSource,
  id: number,
  reader: Reader,
  findRelated: FindRelated,
): Promise<{ nearby: InstructionNearby; fresh: boolean }> {
  const { items } = await source.bundle(reader);
  const article = items.find((item) => item.id === id);
  if (!article) {
    // Not there for this reader: the article's own call says why (401 or 404).
    await getInstruction(source, id, reader);
    throw notFound(`Article ${id}`);
  }
  const around = articleNeighbourhood(items, article);
  const { related, fresh } = await relatedAround(article, around, findRelated);
  return { nearby: { ...around, related }, fresh };
}
