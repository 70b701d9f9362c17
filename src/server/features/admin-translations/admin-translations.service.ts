import type { Updateable } from 'kysely';
import type { AdminFile } from '../../../shared/api/admin.ts';
import type {
  ArticleTranslationBody,
  ArticleTranslationView,
  CategoryTranslationBody,
  CategoryTranslationView,
  SectionTranslationBody,
  SectionTranslationView,
  SourceFieldDiff,
  SourceText,
} from '../../../shared/api/admin-translations.ts';
import type { Language } from '../../../shared/constants.ts';
import type { Db, Executor, Tx } from '../../db/database.ts';
import type {
  ArticleRow,
  ArticleTable,
  ArticleTranslationRow,
  CategoryRow,
  CategoryTable,
  CategoryTranslationRow,
  SectionRow,
  SectionTable,
  SectionTranslationRow,
} from '../../db/tables.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { articleBodyScopes, touchContent, type ChangeScope } from '../../revisions/revision.repository.ts';
import {
  attachedFileRows,
  findArticle,
  findCategory,
  findSection,
  writeArticle,
  writeCategory,
  writeSection,
} from '../../content/content.repository.ts';
import { presentAdminFile } from '../../content/admin.presenters.ts';
import { cleanName, requireContentFiles } from '../../content/content-rules.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { diffHtml, diffText } from '../../content/text-diff.ts';
import { ownLanguage, siteLanguage } from '../../languages/index.ts';
import {
  articleText,
  categoryText,
  isOutdated,
  parseSnapshot,
  sectionText,
  snapshot,
  sourceOf,
  type TextOf,
} from '../../content/translation-sources.ts';
import {
  deleteTranslation,
  listArticleTranslations,
  listCategoryTranslations,
  listSectionTranslations,
  replaceTranslationFiles,
  setTranslationPublished,
  translationFileRows,
  upsertArticleTranslation,
  upsertCategoryTranslation,
  upsertSectionTranslation,
} from '../../content/translations.repository.ts';

const flag = (value: boolean) => (value ? (1 as const) : (0 as const));
const isoOf = (millis: number) => new Date(Number(millis)).toISOString();
const HTML_FIELDS = new Set(['body_html', 'description']);

interface TranslationBase {
  lang: string;
  published: number;
  source_lang: string | null;
  source_text: string | null;
  updated_at: number;
}

/** What differs between two texts of a source, field by field. */
function sourceDiff(before: SourceText, now: SourceText): SourceFieldDiff[] {
  return Object.keys(now)
    .filter((field) => (before[field] ?? '') !== now[field])
    .map((field) => ({
      field,
      parts: HTML_FIELDS.has(field)
        ? diffHtml(before[field] ?? '', now[field] ?? '')
        : diffText(before[field] ?? '', now[field] ?? ''),
    }));
}

/** The part of every translation view that does not depend on the kind. */
function common<R extends { lang: string | null }, T extends TranslationBase>(
  row: R,
  translations: T[],
  lang: Language,
  site: Language,
  textOf: TextOf<R | T>,
) {
  const translation = translations.find((t) => t.lang === lang);
  const source = sourceOf(row, translations, lang, site);
  const text = textOf(source.version);
  const outdated = translation ? isOutdated(translation, source, text) : false;
  const before = translation && outdated ? parseSnapshot(translation.source_text) : null;
  return {
    translation,
    view: {
      item_lang: ownLanguage(row, site),
      lang,
      exists: translation !== undefined,
      published: translation?.published === 1,
      outdated,
      updated_at: translation ? isoOf(translation.updated_at) : null,
      source: { lang: source.lang, text },
      source_diff: before ? sourceDiff(before, text) : [],
      saved_source_lang: (translation?.source_lang ?? null) as Language | null,
    },
  };
}

/** A translation into the item's own language would be the item itself. */
function refuseOwnLanguage(row: { lang: string | null }, lang: Language, site: Language, what: string): void {
  if (ownLanguage(row, site) === lang) throw badRequest('lang', `is the ${what}'s own language`);
}

const missingTranslation = (what: string, id: number, lang: string) =>
  new ApiError(404, 'not_found', `The ${lang} translation of ${what} ${id} was not found`, [
    { field: 'lang', message: `has no translation of this ${what}` },
  ]);

/**
 * The first translation of an item pins its own language to the site's current one (null meant "whatever the
 * site's is"), so a later change of the site's language re-points the fallback instead of relabelling its text.
 */
async function pinned<R extends { lang: string | null }>(
  row: R,
  site: Language,
  write: (changes: { lang: string }) => Promise<void>,
): Promise<R> {
  if (row.lang !== null) return row;
  await write({ lang: site });
  return { ...row, lang: site };
}

// ---- sections ----

async function requireSectionRow(db: Executor, id: number): Promise<SectionRow> {
  const row = await findSection(db, id);
  if (!row) throw notFound(`Section ${id}`);
  return row;
}

async function sectionView(db: Executor, row: SectionRow, lang: Language): Promise<SectionTranslationView> {
  const site = await siteLanguage(db);
  const { translation, view } = common(
    row,
    await listSectionTranslations(db, [row.id]),
    lang,
    site,
    sectionText,
  );
  return {
    section_id: row.id,
    ...view,
    name: (translation as SectionTranslationRow | undefined)?.name ?? '',
  };
}

export async function getSectionTranslation(db: Executor, id: number, lang: Language) {
  return sectionView(db, await requireSectionRow(db, id), lang);
}

export async function saveSectionTranslation(
  db: Db,
  id: number,
  lang: Language,
  body: SectionTranslationBody,
): Promise<SectionTranslationView> {
  const name = cleanName(body.name);
  return db.transaction().execute(async (trx) => {
    const site = await siteLanguage(trx);
    let row = await requireSectionRow(trx, id);
    refuseOwnLanguage(row, lang, site, 'section');
    row = await pinned(row, site, (changes: Updateable<SectionTable>) => writeSection(trx, id, changes));
    const translations = await listSectionTranslations(trx, [id]);
    const existing = translations.find((t) => t.lang === lang);
    const source = sourceOf(row, translations, lang, site);
    const now = Date.now();
    await upsertSectionTranslation(trx, {
      section_id: id,
      lang,
      name,
      published: flag(body.published ?? (existing ? existing.published === 1 : true)),
      source_lang: source.lang,
      source_text: snapshot(sectionText(source.version)),
      created_at: now,
      updated_at: now,
    });
    await touchContent(trx);
    return sectionView(trx, row, lang);
  });
}

// ---- categories ----

async function requireCategoryRow(db: Executor, id: number): Promise<CategoryRow> {
  const row = await findCategory(db, id);
  if (!row) throw notFound(`Category ${id}`);
  return row;
}

async function categoryView(
  db: Executor,
  row: CategoryRow,
  lang: Language,
): Promise<CategoryTranslationView> {
  const site = await siteLanguage(db);
  const translations = await listCategoryTranslations(db, [row.id]);
  const { translation, view } = common(row, translations, lang, site, categoryText);
  const own = translation as CategoryTranslationRow | undefined;
  return { category_id: row.id, ...view, name: own?.name ?? '', description: own?.description ?? '' };
}

export async function getCategoryTranslation(db: Executor, id: number, lang: Language) {
  return categoryView(db, await requireCategoryRow(db, id), lang);
}

export async function saveCategoryTranslation(
  db: Db,
  id: number,
  lang: Language,
  body: CategoryTranslationBody,
): Promise<CategoryTranslationView> {
  const name = cleanName(body.name);
  const description =
    body.description === undefined ? undefined : await cleanHtml(body.description, 'description');
  return db.transaction().execute(async (trx) => {
    const site = await siteLanguage(trx);
    let row = await requireCategoryRow(trx, id);
    refuseOwnLanguage(row, lang, site, 'category');
    row = await pinned(row, site, (changes: Updateable<CategoryTable>) => writeCategory(trx, id, changes));
    const translations = await listCategoryTranslations(trx, [id]);
    const existing = translations.find((t) => t.lang === lang);
    const source = sourceOf(row, translations, lang, site);
    const kept = description ?? existing?.description ?? '';
    const now = Date.now();
    await upsertCategoryTranslation(trx, {
      category_id: id,
      lang,
      name,
      description: kept,
      // The Markdown an import brought stays the source until the HTML itself changes.
      description_source: existing && kept === existing.description ? existing.description_source : null,
      published: flag(body.published ?? (existing ? existing.published === 1 : true)),
      source_lang: source.lang,
      source_text: snapshot(categoryText(source.version)),
      created_at: now,
      updated_at: now,
    });
    await touchContent(trx);
    return categoryView(trx, row, lang);
  });
}

// ---- articles ----

async function requireArticleRow(db: Executor, id: number): Promise<ArticleRow> {
  const row = await findArticle(db, id);
  if (!row) throw notFound(`Article ${id}`);
  return row;
}

async function articleView(db: Executor, row: ArticleRow, lang: Language): Promise<ArticleTranslationView> {
  const site = await siteLanguage(db);
  const translations = await listArticleTranslations(db, [row.id]);
  const { translation, view } = common(row, translations, lang, site, articleText);
  const own = translation as ArticleTranslationRow | undefined;
  const source = sourceOf(row, translations, lang, site);
  const [files, sourceFiles] = await Promise.all([
    own ? translationFileRows(db, row.id, lang) : Promise.resolve([]),
    source.version === row ? attachedFileRows(db, row.id) : translationFileRows(db, row.id, source.lang),
  ]);
  const present = (list: typeof files): AdminFile[] => list.map(presentAdminFile);
  return {
    article_id: row.id,
    ...view,
    title: own?.title ?? '',
    body_html: own?.body_html ?? '',
    files: present(files),
    source_files: present(sourceFiles),
  };
}

export async function getArticleTranslation(db: Executor, id: number, lang: Language) {
  return articleView(db, await requireArticleRow(db, id), lang);
}

/**
 * What visitors can see change: nothing while the translation stays a draft; only the article's own page and call
 * (and search) when only its body or files change; anything else shows on other pages (titles in lists).
 */
function translationScopes(
  articleId: number,
  existing: ArticleTranslationRow | undefined,
  published: 0 | 1,
  title: string,
): ChangeScope[] {
  const wasPublished = existing?.published === 1;
  if (!wasPublished && published === 0) return ['draft'];
  if (wasPublished && published === 1 && existing?.title === title) return articleBodyScopes(articleId);
  return ['*'];
}

export async function saveArticleTranslation(
  db: Db,
  id: number,
  lang: Language,
  body: ArticleTranslationBody,
): Promise<ArticleTranslationView> {
  const title = cleanName(body.title, 'title');
  const bodyHtml = body.body_html === undefined ? undefined : await cleanHtml(body.body_html, 'body_html');
  return db.transaction().execute(async (trx: Tx) => {
    const site = await siteLanguage(trx);
    let row = await requireArticleRow(trx, id);
    refuseOwnLanguage(row, lang, site, 'article');
    if (body.file_ids) await requireContentFiles(trx, body.file_ids, 'file_ids');
    row = await pinned(row, site, (changes: Updateable<ArticleTable>) => writeArticle(trx, id, changes));
    const translations = await listArticleTranslations(trx, [id]);
    const existing = translations.find((t) => t.lang === lang);
    const source = sourceOf(row, translations, lang, site);
    const kept = bodyHtml ?? existing?.body_html ?? '';
    const published = flag(body.published ?? existing?.published === 1);
    const now = Date.now();
    await upsertArticleTranslation(trx, {
      article_id: id,
      lang,
      title,
      body_html: kept,
      // The Markdown an import brought stays the source until the HTML itself changes.
      body_source: existing && kept === existing.body_html ? existing.body_source : null,
      published,
      source_lang: source.lang,
      source_text: snapshot(articleText(source.version)),
      created_at: now,
      updated_at: now,
    });
    if (body.file_ids) await replaceTranslationFiles(trx, id, lang, body.file_ids);
    await touchContent(trx, translationScopes(id, existing, published, title));
    return articleView(trx, row, lang);
  });
}

// ---- publishing and deleting, every kind ----

const TABLES = {
  section: 'section_translations',
  category: 'category_translations',
  article: 'article_translations',
} as const;

type Kind = keyof typeof TABLES;

const requireRow = {
  section: requireSectionRow,
  category: requireCategoryRow,
  article: requireArticleRow,
} as const;

async function existingPublished(trx: Tx, kind: Kind, id: number, lang: Language) {
  const list =
    kind === 'section'
      ? await listSectionTranslations(trx, [id])
      : kind === 'category'
        ? await listCategoryTranslations(trx, [id])
        : await listArticleTranslations(trx, [id]);
  const found = list.find((t) => t.lang === lang);
  if (!found) throw missingTranslation(kind, id, lang);
  return found.published === 1;
}

/** Publishes or unpublishes a translation; 404 naming `lang` when there is none. */
export async function publishTranslation(
  db: Db,
  kind: Kind,
  id: number,
  lang: Language,
  published: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireRow[kind](trx, id);
    const was = await existingPublished(trx, kind, id, lang);
    if (was === published) return;
    await setTranslationPublished(trx, TABLES[kind], id, lang, flag(published));
    await touchContent(trx);
  });
}

export async function deleteItemTranslation(db: Db, kind: Kind, id: number, lang: Language): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireRow[kind](trx, id);
    const was = await existingPublished(trx, kind, id, lang);
    await deleteTranslation(trx, TABLES[kind], id, lang);
    await touchContent(trx, kind === 'article' && !was ? ['draft'] : ['*']);
  });
}
