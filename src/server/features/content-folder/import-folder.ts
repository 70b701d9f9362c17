import path from 'node:path';
import { href } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { contentTypeFor } from '../../lib/content-type.ts';
import { FolderError } from './front-matter.ts';
import { renderHtml, renderMarkdown } from './markdown.ts';
import { recordRevisions } from '../../content/article-revisions.repository.ts';
import {
  FolderErrors,
  readContentFolder,
  readFolderFile,
  type ContentFolder,
  type FolderArticle,
  type FolderCategory,
  type FolderSection,
} from './read-folder.ts';
import {
  allContentKeys,
  contentRows,
  deleteAttachmentsOf,
  detachCategories,
  importedTranslations,
  continueIdsAfter,
  highestIds,
  insertAttachments,
  readPlacement,
} from './content-folder.repository.ts';
import type { Dialect } from '../../db/schema-helpers.ts';
import {
  deleteTranslation,
  replaceTranslationFiles,
  upsertArticleTranslation,
  upsertCategoryTranslation,
  upsertSectionTranslation,
} from '../../content/translations.repository.ts';
import type { Language } from '../../../shared/constants.ts';
import {
  articleSourceText,
  categorySourceText,
  sectionSourceText,
} from '../../content/translation-source.ts';
import { DEMO_BRANDING } from './demo-branding.ts';
import { getStoredBranding, updateBranding } from '../../settings/branding.ts';
import { siteLanguage } from '../../languages/index.ts';
import { chunks } from '../../lib/chunks.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { readSynonyms, writeSynonyms } from '../../search/synonyms.ts';
import {
  attachedFiles,
  categoryHoldsContent,
  clearCategoryIcons,
  deleteArticles,
  deleteCategories,
  deleteSectionRow,
  insertArticle,
  insertCategory,
  insertSection,
  sectionHoldsContent,
  writeArticle,
  moveToSection,
  writeCategory,
  writeSection,
} from '../../content/content.repository.ts';
import { deleteFiles, insertFile, writeFile } from '../../files/files.repository.ts';
import { readSetting } from '../../settings/settings.repository.ts';
import { ORIGIN_FILE, ORIGIN_SETTING } from './folder-ids.ts';
import { matchFolder, type FolderMatches } from './match-folder.ts';

export interface ImportOptions {
  prune?: boolean;
  /** The folder becomes the whole content: everything else goes, whoever made it (the demo, the admin). */
  replace?: boolean;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface Tally {
  created: number;
  updated: number;
  /** Already as the folder says: left alone, so its version (and search, caches) do not move. */
  unchanged: number;
  deleted: number;
}

export interface ImportSummary {
  sections: Tally;
  categories: Tally;
  articles: Tally;
  files: Tally;
  /** Versions in other languages (`slug.ru.md`, `_category.ru.md`, `_section.ru.md`), of every kind together. */
  translations: Tally;
  warnings: string[];
  /** Whether the folder's `_synonyms.yml` changed the search synonyms. */
  synonyms?: boolean;
  /** Titles of the articles a replace deleted that no folder brought in (written in the admin). */
  deletedWritten: string[];
  /** What a replace did to the branding, or suggests doing. */
  notes: string[];
}

const tally = (): Tally => ({ created: 0, updated: 0, unchanged: 0, deleted: 0 });

/** Whether any of the values differs from what the row holds. */
const differs = (row: object, values: object) =>
  Object.entries(values).some(([key, value]) => (row as Record<string, unknown>)[key] !== value);

/**
 * Loads a content folder into the database. The folder is read and checked completely first; the database changes
 * in one transaction, so an import that fails changes nothing. Paths are the keys, then the ids an exported folder
 * gives (when it comes from this help centre): importing the same folder again updates in place, an item written in
 * the admin or moved is found by its id, and `prune` removes what came from a folder earlier but is no longer in it.
 */
export async function importFolder(
  ctx: AppContext,
  dir: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const siteLang = await siteLanguage(ctx.db);
  const folder = readContentFolder(dir, siteLang);
  const summary: ImportSummary = {
    sections: tally(),
    categories: tally(),
    articles: tally(),
    files: tally(),
    translations: tally(),
    warnings: folder.warnings,
    deletedWritten: [],
    notes: [],
  };
  const total = folder.assets.length + folder.articles.length;
  let done = 0;
  const progress = (label: string) => options.onProgress?.(++done, total, label);

  // File bytes first: storage is content-addressed, so this is idempotent. Bytes no row ends up holding (an import
  // that failed, files pruned) go with the server's sweep of unused bytes.
  const blobs = new Map<string, { key: string; size: number }>();
  for (const asset of folder.assets) {
    blobs.set(asset, await ctx.storage.put(readAsset(folder, asset)));
    progress(asset);
  }
  await ctx.db
    .transaction()
    .execute((trx) =>
      writeFolder(trx, folder, blobs, summary, options, progress, siteLang, ctx.database.dialect),
    );
  return summary;
}

/**
 * The language of an item's row: what its own file says; with translations beside it, pinned to the help centre's
 * language when the file says none, so that changing the help centre's language later re-points the fallback
 * rather than relabelling what was written.
 */
const rowLang = (item: FolderSection | FolderCategory | FolderArticle, siteLang: Language) =>
  item.translations.length ? (item.lang ?? siteLang) : item.lang;

/** An asset's bytes, refused as the whole folder's problems are if it changed into something else since the check. */
function readAsset(folder: ContentFolder, asset: string): Buffer {
  try {
    return readFolderFile(folder.root, asset);
  } catch (error) {
    if (error instanceof FolderError) throw new FolderErrors([error]);
    throw error;
  }
}

/**
 * Matches the folder's items with the rows there are: by path, then by the ids the folder gives when it was
 * exported from this help centre (`_origin.yml`); ids from elsewhere are ignored, with a warning.
 */
async function matchContent(trx: Tx, folder: ContentFolder, summary: ImportSummary, dialect: Dialect) {
  const rows = await contentRows(trx);
  const origin = await readSetting<string>(trx, ORIGIN_SETTING);
  const useIds = folder.origin !== undefined && folder.origin === origin;
  const hasIds = [...folder.sections, ...folder.categories, ...folder.articles].some(
    (item) => item.id !== null,
  );
  if (hasIds && !useIds)
    summary.warnings.push(
      folder.origin === undefined
        ? `the folder has ids but no ${ORIGIN_FILE} to say whose: they are ignored, items are matched by path`
        : `the folder was exported from another help centre (${ORIGIN_FILE}): its ids are ignored, items are matched by path`,
    );
  const {
    matches: existing,
    revived,
    errors,
  } = matchFolder(folder, rows, useIds, await highestIds(trx, dialect));
  if (errors.length) throw new FolderErrors(errors);
  return { rows, existing, revived };
}

/** One import's writing, inside its transaction: the rows matched, the ids given, and what changed. */
interface Importer extends Awaited<ReturnType<typeof matchContent>> {
  trx: Tx;
  folder: ContentFolder;
  summary: ImportSummary;
  siteLang: Language;
  now: number;
  sectionIds: Map<string, number>;
  fileIds: Map<string, { id: number; name: string }>;
  categoryIds: Map<string, number>;
  articleIds: Map<string, number>;
  /**
   * Paths of existing categories and articles that differ from the folder; those new to the database are counted
   * as created and need no mark.
   */
  changed: Set<string>;
  sourceTexts: { categories: Map<number, string>; articles: Map<number, string> };
}

async function writeFolder(
  trx: Tx,
  folder: ContentFolder,
  blobs: Map<string, { key: string; size: number }>,
  summary: ImportSummary,
  options: ImportOptions,
  progress: (label: string) => void,
  siteLang: Language,
  dialect: Dialect,
): Promise<void> {
  const now = Date.now();
  const im: Importer = {
    ...(await matchContent(trx, folder, summary, dialect)),
    trx,
    folder,
    summary,
    siteLang,
    now,
    sectionIds: new Map(),
    fileIds: new Map(),
    categoryIds: new Map(),
    articleIds: new Map(),
    changed: new Set(),
    sourceTexts: { categories: new Map(), articles: new Map() },
  };
  for (const section of folder.sections) await writeSectionRow(im, section);
  for (const asset of folder.assets) await writeFileRow(im, asset, blobs);
  for (const category of folder.categories) await writeCategoryRow(im, category);
  for (const article of folder.articles) await writeArticleRow(im, article);
  // Bodies are rendered once every id is known, so relative links between articles and to files resolve.
  const resolverFor = linkResolver(im);
  await renderDescriptions(im, resolverFor);
  const { links, revised } = await renderBodies(im, resolverFor, progress);
  if (dialect === 'postgres')
    for (const kind of ['sections', 'categories', 'articles'] as const) {
      const ids = [...im.revived[kind].values()].map((row) => row.id);
      if (ids.length) await continueIdsAfter(trx, kind, Math.max(...ids));
    }
  for (const ids of chunks([...im.articleIds.values()])) await deleteAttachmentsOf(trx, ids);
  for (const rows of chunks(links)) await insertAttachments(trx, rows);
  await recordRevisions(trx, revised, { action: 'imported', author: null, now: im.now });
  await writeTranslations(trx, folder, im, im.sourceTexts, { summary, siteLang, now: im.now, resolverFor });
  await keepSubtreesTogether(trx, im.now);
  if (options.replace) await removeOutside(trx, folder, summary);
  else if (options.prune) await prune(trx, im.rows, im.existing, summary);
  await finishImport(trx, folder, summary);
}

/** The revision moved when anything changed; the folder's synonyms, when it has the file, replace the search's. */
async function finishImport(trx: Tx, folder: ContentFolder, summary: ImportSummary) {
  const touched = (['sections', 'categories', 'articles', 'files', 'translations'] as const).some(
    (kind) => summary[kind].created + summary[kind].updated + summary[kind].deleted > 0,
  );
  if (touched) await touchContent(trx);
  // A folder without the file leaves the synonyms as they are; with it, its sets replace them.
  if (folder.synonyms) {
    const before = JSON.stringify((await readSynonyms(trx)).sets);
    const after = JSON.stringify(await writeSynonyms(trx, folder.synonyms));
    if (after !== before) {
      summary.synonyms = true;
      if (!touched) await touchContent(trx, ['search']);
    }
  }
}

async function writeSectionRow(im: Importer, section: FolderSection) {
  const { trx, now, summary } = im;
  const values = {
    name: section.name,
    position: section.position,
    visibility: section.visibility,
    lang: rowLang(section, im.siteLang),
  };
  const found = im.existing.sections.get(section.path);
  if (found) {
    im.sectionIds.set(section.path, found.id);
    // Found by its id: the folder's path becomes its source path, where the next import finds it first.
    if (found.source_path !== section.path) await writeSection(trx, found.id, { source_path: section.path });
    if (differs(found, values)) {
      await writeSection(trx, found.id, { ...values, updated_at: now });
      summary.sections.updated++;
    } else summary.sections.unchanged++;
  } else {
    const id = await insertSection(trx, {
      id: im.revived.sections.get(section.path)?.id,
      ...values,
      source_path: section.path,
      created_at: im.revived.sections.get(section.path)?.createdAt ?? now,
      updated_at: now,
    });
    im.sectionIds.set(section.path, id);
    summary.sections.created++;
  }
}

async function writeFileRow(im: Importer, asset: string, blobs: Map<string, { key: string; size: number }>) {
  const { trx, summary } = im;
  const blob = blobs.get(asset);
  if (!blob) throw new Error(`internal: ${asset} was not stored`);
  const name = path.posix.basename(asset);
  const values = {
    storage_key: blob.key,
    size: blob.size,
    original_name: name,
    mime_type: contentTypeFor(name),
  };
  const found = im.existing.files.get(asset);
  if (found) {
    im.fileIds.set(asset, { id: found.id, name });
    if (found.source_path !== asset) await writeFile(trx, found.id, { source_path: asset });
    if (differs(found, values)) {
      await writeFile(trx, found.id, values);
      summary.files.updated++;
    } else summary.files.unchanged++;
  } else {
    const row = await insertFile(trx, { ...values, kind: 'content', source_path: asset, created_at: im.now });
    im.fileIds.set(asset, { id: row.id, name });
    summary.files.created++;
  }
}

/** A category's row without its description, which is rendered once every id is known. */
async function writeCategoryRow(im: Importer, category: FolderCategory) {
  const { trx, now } = im;
  const sectionId = im.sectionIds.get(category.sectionPath);
  if (sectionId === undefined) throw new Error(`internal: no section for ${category.path}`);
  const values = {
    section_id: sectionId,
    parent_id: category.parentPath === null ? null : (im.categoryIds.get(category.parentPath) ?? null),
    name: category.name,
    position: category.position,
    description_source: category.format === 'html' ? null : category.description,
    icon_file_id: category.icon ? (im.fileIds.get(category.icon)?.id ?? null) : null,
    icon_type: category.icon ? ('file' as const) : category.fontIcon ? ('font' as const) : null,
    font_icon: category.fontIcon,
    visibility: category.visibility,
    lang: rowLang(category, im.siteLang),
  };
  const found = im.existing.categories.get(category.path);
  if (found) {
    im.categoryIds.set(category.path, found.id);
    if (found.source_path !== category.path)
      await writeCategory(trx, found.id, { source_path: category.path });
    if (differs(found, values)) {
      await writeCategory(trx, found.id, { ...values, updated_at: now });
      im.changed.add(category.path);
    }
  } else {
    const id = await insertCategory(trx, {
      id: im.revived.categories.get(category.path)?.id,
      ...values,
      description: '',
      source_path: category.path,
      created_at: im.revived.categories.get(category.path)?.createdAt ?? now,
      updated_at: now,
    });
    im.categoryIds.set(category.path, id);
    im.summary.categories.created++;
  }
}

/** An article's row without its body, which is rendered once every id is known. */
async function writeArticleRow(im: Importer, article: FolderArticle) {
  const { trx, now } = im;
  const sectionId = im.sectionIds.get(article.sectionPath);
  if (sectionId === undefined) throw new Error(`internal: no section for ${article.path}`);
  const values = {
    section_id: sectionId,
    category_id: article.categoryPath === null ? null : (im.categoryIds.get(article.categoryPath) ?? null),
    title: article.title,
    body_source: article.format === 'html' ? null : article.body,
    lang: rowLang(article, im.siteLang),
    can_create_issue: article.canCreateIssue ? (1 as const) : (0 as const),
    published: article.published ? (1 as const) : (0 as const),
    visibility: article.visibility,
    noindex: article.noindex ? (1 as const) : (0 as const),
    position: article.position,
  };
  const found = im.existing.articles.get(article.path);
  if (found) {
    im.articleIds.set(article.path, found.id);
    if (found.source_path !== article.path) await writeArticle(trx, found.id, { source_path: article.path });
    if (differs(found, values)) {
      await writeArticle(trx, found.id, { ...values, updated_at: now });
      im.changed.add(article.path);
    }
  } else {
    const id = await insertArticle(trx, {
      id: im.revived.articles.get(article.path)?.id,
      ...values,
      body_html: '',
      source_path: article.path,
      created_at: im.revived.articles.get(article.path)?.createdAt ?? now,
      updated_at: now,
    });
    im.articleIds.set(article.path, id);
    im.summary.articles.created++;
  }
}

type Resolver = (documentPath: string) => (reference: string) => string | undefined;

/** Where a relative link of a document leads once stored: a file, an article (a translation's: its article), a category. */
function linkResolver(im: Importer): Resolver {
  // A link to a translation's file leads to its article (the reader's language picks the version).
  const translatedFrom = new Map(
    im.folder.articles.flatMap((article) => article.translations.map((t) => [t.file, article.path] as const)),
  );
  return (documentPath: string) => (reference: string) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(documentPath), reference));
    const file = im.fileIds.get(target);
    if (file) return href.file(file.id, file.name);
    const articleId = im.articleIds.get(target) ?? im.articleIds.get(translatedFrom.get(target) ?? '');
    if (articleId !== undefined) return href.instruction(articleId);
    const categoryId = im.categoryIds.get(target.replace(/\/$/, ''));
    if (categoryId !== undefined) return href.category(categoryId);
    return undefined;
  };
}

/** Each category's description rendered and written when it differs; the category counted. */
async function renderDescriptions(im: Importer, resolverFor: Resolver) {
  const { trx, now, summary } = im;
  for (const category of im.folder.categories) {
    const id = im.categoryIds.get(category.path) as number;
    const render = category.format === 'html' ? renderHtml : renderMarkdown;
    const description = render(category.description, resolverFor(`${category.path}/_category.md`));
    im.sourceTexts.categories.set(id, categorySourceText({ name: category.name, description }));
    const found = im.existing.categories.get(category.path);
    if (found && found.description === description) {
      if (im.changed.has(category.path)) summary.categories.updated++;
      else summary.categories.unchanged++;
      continue;
    }
    if (found) {
      await writeCategory(trx, id, { description, updated_at: now });
      summary.categories.updated++;
    } else {
      await writeCategory(trx, id, { description });
    }
  }
}

/**
 * Each article's body rendered and written when it or its files differ; the article counted. Answers the links to
 * its files and the articles this import creates or changes: each keeps a revision of what the folder made of it.
 */
async function renderBodies(im: Importer, resolverFor: Resolver, progress: (label: string) => void) {
  const { trx, now, summary } = im;
  const attached = await attachedFiles(
    trx,
    [...im.existing.articles.values()].map((row) => row.id),
  );
  const links: { article_id: number; file_id: number; position: number }[] = [];
  const revised: number[] = [];
  for (const article of im.folder.articles) {
    const id = im.articleIds.get(article.path) as number;
    const files = article.files.map((file) => (im.fileIds.get(file) as { id: number }).id);
    files.forEach((file_id, position) => links.push({ article_id: id, file_id, position }));
    const body_html = (article.format === 'html' ? renderHtml : renderMarkdown)(
      article.body,
      resolverFor(article.path),
    );
    im.sourceTexts.articles.set(id, articleSourceText({ title: article.title, body_html }));
    const found = im.existing.articles.get(article.path);
    const sameFiles = (attached.get(id) ?? []).join() === files.join();
    if (found && found.body_html === body_html && sameFiles) {
      if (im.changed.has(article.path)) {
        summary.articles.updated++;
        revised.push(id);
      } else summary.articles.unchanged++;
    } else if (found) {
      await writeArticle(trx, id, { body_html, updated_at: now });
      summary.articles.updated++;
      revised.push(id);
    } else {
      await writeArticle(trx, id, { body_html });
      revised.push(id);
    }
    progress(article.path);
  }
  return { links, revised };
}

/** What writing an import's translations needs: the ids the items got and the source texts they were made from. */
interface TranslationWriting {
  trx: Tx;
  ids: {
    sectionIds: Map<string, number>;
    categoryIds: Map<string, number>;
    articleIds: Map<string, number>;
    fileIds: Map<string, { id: number }>;
  };
  sourceTexts: { categories: Map<number, string>; articles: Map<number, string> };
  siteLang: Language;
  now: number;
  resolverFor: (documentPath: string) => (reference: string) => string | undefined;
}

/** A translation keeps the text of its source as imported, and in which language, as what it was made from. */
const sourceFields = (
  w: TranslationWriting,
  item: FolderSection | FolderCategory | FolderArticle,
  text: string,
) => ({ source_lang: rowLang(item, w.siteLang), source_text: text });

const stampsOf = (w: TranslationWriting) => ({ created_at: w.now, updated_at: w.now });

/**
 * Makes every imported item's translations what the folder says: new ones added, changed ones written, those the
 * folder no longer has deleted. A translation added or changed keeps the text of its source as imported (the item's
 * own file) as what it was made from, so it is not outdated; one left as it was keeps what it was made from, so a
 * source edited in the folder shows its unchanged translations as outdated, as an edit in the admin would.
 */
async function writeTranslations(
  trx: Tx,
  folder: ContentFolder,
  ids: TranslationWriting['ids'],
  sourceTexts: TranslationWriting['sourceTexts'],
  context: Omit<TranslationWriting, 'trx' | 'ids' | 'sourceTexts'> & { summary: ImportSummary },
): Promise<void> {
  const { summary, siteLang, now, resolverFor } = context;
  const w: TranslationWriting = { trx, ids, sourceTexts, siteLang, now, resolverFor };
  const existing = await importedTranslations(trx);
  await reconcileTranslations(trx, 'section_translations', summary, {
    existing: existing.sections.map((row) => ({ row, itemId: row.section_id })),
    imported: new Set(ids.sectionIds.values()),
    wanted: folder.sections.flatMap((section) => wantedSectionTranslations(w, section)),
  });
  await reconcileTranslations(trx, 'category_translations', summary, {
    existing: existing.categories.map((row) => ({ row, itemId: row.category_id })),
    imported: new Set(ids.categoryIds.values()),
    wanted: folder.categories.flatMap((category) => wantedCategoryTranslations(w, category)),
  });
  const filesOf = new Map<string, number[]>();
  for (const row of existing.files) {
    const key = translationKey(row.article_id, row.lang);
    filesOf.set(key, [...(filesOf.get(key) ?? []), row.file_id]);
  }
  await reconcileTranslations(trx, 'article_translations', summary, {
    existing: existing.articles.map((row) => ({ row, itemId: row.article_id })),
    imported: new Set(ids.articleIds.values()),
    wanted: folder.articles.flatMap((article) => wantedArticleTranslations(w, article, filesOf)),
  });
}

function wantedSectionTranslations(w: TranslationWriting, section: FolderSection) {
  const section_id = w.ids.sectionIds.get(section.path) as number;
  return section.translations.map((translation) => {
    const values = { name: translation.name, published: translation.published ? 1 : 0 } as const;
    return {
      itemId: section_id,
      lang: translation.lang,
      changed: (found: object) => differs(found, values),
      write: () =>
        upsertSectionTranslation(w.trx, {
          section_id,
          lang: translation.lang,
          ...values,
          ...sourceFields(w, section, sectionSourceText(section)),
          ...stampsOf(w),
        }),
    };
  });
}

function wantedCategoryTranslations(w: TranslationWriting, category: FolderCategory) {
  const category_id = w.ids.categoryIds.get(category.path) as number;
  return category.translations.map((translation) => {
    const render = translation.format === 'html' ? renderHtml : renderMarkdown;
    const values = {
      name: translation.name,
      description: render(translation.description, w.resolverFor(translation.file)),
      description_source: translation.format === 'html' ? null : translation.description,
      published: translation.published ? 1 : 0,
    } as const;
    return {
      itemId: category_id,
      lang: translation.lang,
      changed: (found: object) => differs(found, values),
      write: () =>
        upsertCategoryTranslation(w.trx, {
          category_id,
          lang: translation.lang,
          ...values,
          ...sourceFields(w, category, w.sourceTexts.categories.get(category_id) as string),
          ...stampsOf(w),
        }),
    };
  });
}

/** An article's translations, each with its own files (`filesOf`: those stored, by translationKey). */
function wantedArticleTranslations(
  w: TranslationWriting,
  article: FolderArticle,
  filesOf: Map<string, number[]>,
) {
  const article_id = w.ids.articleIds.get(article.path) as number;
  return article.translations.map((translation) => {
    const render = translation.format === 'html' ? renderHtml : renderMarkdown;
    const values = {
      title: translation.title,
      body_html: render(translation.body, w.resolverFor(translation.file)),
      body_source: translation.format === 'html' ? null : translation.body,
      published: translation.published ? 1 : 0,
    } as const;
    const files = translation.files.map((file) => (w.ids.fileIds.get(file) as { id: number }).id);
    const sameFiles =
      (filesOf.get(translationKey(article_id, translation.lang)) ?? []).join() === files.join();
    return {
      itemId: article_id,
      lang: translation.lang,
      changed: (found: object) => differs(found, values) || !sameFiles,
      write: async () => {
        await upsertArticleTranslation(w.trx, {
          article_id,
          lang: translation.lang,
          ...values,
          ...sourceFields(w, article, w.sourceTexts.articles.get(article_id) as string),
          ...stampsOf(w),
        });
        await replaceTranslationFiles(w.trx, article_id, translation.lang, files);
      },
    };
  });
}

const translationKey = (itemId: number, lang: string) => `${itemId}:${lang}`;

/**
 * One kind of translation made what the folder says, counted in the summary: each one wanted is written when it is
 * new or changed, and those of imported items the folder no longer has are deleted (an article's file links with it).
 */
async function reconcileTranslations(
  trx: Tx,
  table: 'section_translations' | 'category_translations' | 'article_translations',
  summary: ImportSummary,
  translations: {
    existing: { row: { lang: string }; itemId: number }[];
    imported: Set<number>;
    wanted: {
      itemId: number;
      lang: string;
      changed: (found: object) => boolean;
      write: () => Promise<void>;
    }[];
  },
): Promise<void> {
  const count = summary.translations;
  const existing = new Map(
    translations.existing.map((found) => [translationKey(found.itemId, found.row.lang), found]),
  );
  const kept = new Set<string>();
  for (const translation of translations.wanted) {
    const key = translationKey(translation.itemId, translation.lang);
    kept.add(key);
    const found = existing.get(key);
    if (found && !translation.changed(found.row)) {
      count.unchanged++;
      continue;
    }
    await translation.write();
    if (found) count.updated++;
    else count.created++;
  }
  for (const [key, found] of existing)
    if (!kept.has(key) && translations.imported.has(found.itemId)) {
      await deleteTranslation(trx, table, found.itemId, found.row.lang);
      count.deleted++;
    }
}

const keptPaths = (folder: ContentFolder) => ({
  articles: new Set(folder.articles.map((a) => a.path)),
  categories: new Set(folder.categories.map((c) => c.path)),
  sections: new Set(folder.sections.map((s) => s.path)),
  files: new Set(folder.assets),
});

/**
 * The files an import may delete, of those it would: never one the branding shows as its logo or background
 * (`/files/ID/name`), even when a folder brought it in (an upload exported as `_files/ID/name` and imported back has
 * a source path). Both `--replace` and `--prune` ask here.
 */
async function deletableFiles<T extends { id: number }>(trx: Tx, files: T[]): Promise<T[]> {
  const branding = await getStoredBranding(trx);
  const shown = new Set(
    [branding.logo_url, branding.background_url]
      .flatMap((url) => /^\/files\/(\d+)\//.exec(url ?? '')?.[1] ?? [])
      .map(Number),
  );
  return files.filter((file) => !shown.has(file.id));
}

/**
 * Deletes everything the folder does not hold, whoever made it: the demo, an earlier folder, the admin. Runs after
 * the folder is written, in the same transaction, so its items keep their ids (and links) where paths match. The
 * branding's logo and background stay; the demo's site title goes if it is still the title.
 */
async function removeOutside(trx: Tx, folder: ContentFolder, summary: ImportSummary): Promise<void> {
  const keep = keptPaths(folder);
  const all = await allContentKeys(trx);
  const outside = <T extends { source_path: string | null }>(rows: T[], kept: Set<string>) =>
    rows.filter((row) => row.source_path === null || !kept.has(row.source_path));

  const articles = outside(all.articles, keep.articles);
  for (const batch of chunks(articles))
    await deleteArticles(
      trx,
      batch.map((row) => row.id),
    );
  summary.articles.deleted = articles.length;
  summary.deletedWritten = articles.filter((row) => row.source_path === null).map((row) => row.title);

  const categories = outside(all.categories, keep.categories).map((row) => row.id);
  for (const ids of chunks(categories)) await detachCategories(trx, ids);
  for (const ids of chunks(categories)) await deleteCategories(trx, ids);
  summary.categories.deleted = categories.length;

  const sections = outside(all.sections, keep.sections);
  for (const { id } of sections) await deleteSectionRow(trx, id);
  summary.sections.deleted = sections.length;

  const files = (await deletableFiles(trx, outside(all.files, keep.files))).map((row) => row.id);
  for (const ids of chunks(files)) {
    await clearCategoryIcons(trx, ids);
    await deleteFiles(trx, ids);
  }
  summary.files.deleted = files.length;

  const branding = await getStoredBranding(trx);
  if (branding.site_title === DEMO_BRANDING.site_title) {
    await updateBranding(trx, { site_title: '' });
    summary.notes.push(
      `site_title "${DEMO_BRANDING.site_title}" (the demo's) cleared: set yours with signpost branding set site_title=...`,
    );
    if (branding.portal_enabled === DEMO_BRANDING.portal_enabled)
      summary.notes.push(
        'portal_enabled stays true, as the demo set it: signpost branding set portal_enabled=false turns the portal off',
      );
  }
}

/**
 * A category the folder moved to another section (found by its id) takes along what it holds that the folder does
 * not (written in the admin since the export), as a move in the admin does: a subcategory or an article is always in
 * its parent's section.
 */
async function keepSubtreesTogether(trx: Tx, now: number): Promise<void> {
  const { categories, articles } = await readPlacement(trx);
  const byId = new Map(categories.map((row) => [row.id, row]));
  /**
   * The section of the top of a category's chain of parents. The admin and the folder make no loops, but a damaged
   * or hand-edited database can hold one: a chain that comes back to a category it passed has no top, and the
   * category keeps its own section.
   */
  const sectionOf = (id: number): number => {
    const start = byId.get(id) as { id: number; section_id: number; parent_id: number | null };
    const passed = new Set([start.id]);
    let row = start;
    while (row.parent_id !== null && byId.has(row.parent_id)) {
      if (passed.has(row.parent_id)) return start.section_id;
      row = byId.get(row.parent_id) as typeof row;
      passed.add(row.id);
    }
    return row.section_id;
  };
  const moves = new Map<string, { table: 'categories' | 'articles'; section: number; ids: number[] }>();
  const move = (table: 'categories' | 'articles', id: number, section: number) => {
    const key = `${table}:${section}`;
    const found = moves.get(key) ?? { table, section, ids: [] };
    found.ids.push(id);
    moves.set(key, found);
  };
  for (const category of categories) {
    const section = sectionOf(category.id);
    if (section !== category.section_id) move('categories', category.id, section);
  }
  for (const article of articles) {
    if (article.category_id === null || !byId.has(article.category_id)) continue;
    const section = sectionOf(article.category_id);
    if (section !== article.section_id) move('articles', article.id, section);
  }
  for (const { table, section, ids } of moves.values())
    for (const batch of chunks(ids)) await moveToSection(trx, table, batch, section, now);
}

type Rows = Awaited<ReturnType<typeof contentRows>>;

/**
 * Deletes what an earlier import brought in (a source path, as it was before this import) and the folder no longer
 * has: no item of the folder is it, by path or by id.
 */
async function prune(
  trx: Tx,
  rows: Rows,
  existing: FolderMatches<
    Rows['sections'][number],
    Rows['categories'][number],
    Rows['articles'][number],
    Rows['files'][number]
  >,
  summary: ImportSummary,
): Promise<void> {
  const gone = <T extends { id: number; source_path: string | null }>(all: T[], kept: Map<string, T>) => {
    const keptIds = new Set([...kept.values()].map((row) => row.id));
    return all.flatMap((row) =>
      row.source_path !== null && !keptIds.has(row.id) ? [[row.source_path, row] as const] : [],
    );
  };

  const articles = gone(rows.articles, existing.articles).map(([, row]) => row.id);
  for (const ids of chunks(articles)) await deleteArticles(trx, ids);
  summary.articles.deleted = articles.length;

  // Deepest categories first, so a parent is empty by the time it goes.
  const categories = gone(rows.categories, existing.categories).sort(
    ([a], [b]) => b.split('/').length - a.split('/').length,
  );
  for (const [categoryPath, { id }] of categories) {
    if (await categoryHoldsContent(trx, id)) {
      throw new FolderErrors([
        new FolderError(
          categoryPath,
          'is gone from the folder but still holds content added outside it; move that content first',
        ),
      ]);
    }
    await deleteCategories(trx, [id]);
  }
  summary.categories.deleted = categories.length;

  const sections = gone(rows.sections, existing.sections);
  for (const [sectionPath, { id }] of sections) {
    if (await sectionHoldsContent(trx, id)) {
      throw new FolderErrors([
        new FolderError(
          sectionPath,
          'is gone from the folder but still holds content added outside it; move that content first',
        ),
      ]);
    }
    await deleteSectionRow(trx, id);
  }
  summary.sections.deleted = sections.length;

  const files = await deletableFiles(
    trx,
    gone(rows.files, existing.files).map(([, row]) => row),
  );
  for (const batch of chunks(files)) {
    const ids = batch.map((f) => f.id);
    await clearCategoryIcons(trx, ids);
    await deleteFiles(trx, ids);
  }
  summary.files.deleted = files.length;
}
