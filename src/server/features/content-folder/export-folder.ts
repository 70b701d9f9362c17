import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readSynonyms } from '../../search/synonyms.ts';
import { formatSynonymsFile, SYNONYMS_FILE } from './synonyms-file.ts';
import type { AppContext } from '../../context.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import { readAll } from '../../storage/file-storage.ts';
import { readAllContent, readAllTranslations } from './content-folder.repository.ts';
import { formatDocument } from './front-matter.ts';
import type { Language, Visibility } from '../../../shared/constants.ts';
import { CATEGORY_FILE, SECTION_FILE, translationFile } from './read-folder.ts';
import { groupTranslations } from '../../content/translations.ts';
import { isLanguage, siteLanguage } from '../../languages/index.ts';
import { readOrCreateSecret } from '../../settings/settings.repository.ts';
import { formatItemId, formatOriginFile, ORIGIN_FILE, ORIGIN_SETTING } from './folder-ids.ts';

/** Written only when it is not the default, so a folder of public content reads as it always did. */
const visibilityOf = (row: { visibility: Visibility }) =>
  row.visibility === 'everyone' ? {} : { visibility: row.visibility };

export interface ExportOptions {
  /** Replace what the folder holds (dot-files such as .git are kept). */
  force?: boolean;
}

export interface ExportSummary {
  sections: number;
  categories: number;
  articles: number;
  files: number;
  /** Versions in other languages written beside their items' files, of every kind together. */
  translations: number;
}

/** One version of an item as a file holds it: the row's own, or a translation. */
interface Version<T> {
  lang: Language | null;
  text: T;
  published: boolean;
}

/**
 * Which version goes in the item's own file and which in `slug.<lang>.md`: the row's, unless the help centre's
 * language changed since the item was translated and a translation is in the new one, which then takes the item's
 * file (the import makes it the row again, with the old row as its translation). `lang` is what the item's own
 * file says: nothing when it is in the help centre's language and translated (the import pins it), else the row's.
 */
function arrangeVersions<T>(
  row: Version<T>,
  translations: Version<T>[],
  site: Language,
): { main: Version<T>; lang: Language | undefined; others: Version<T>[] } {
  const inSite = row.lang !== null && row.lang !== site && translations.find((t) => t.lang === site);
  if (inSite)
    return { main: inSite, lang: undefined, others: [row, ...translations.filter((t) => t !== inSite)] };
  const lang = row.lang !== null && (row.lang !== site || translations.length === 0) ? row.lang : undefined;
  return { main: row, lang, others: translations };
}

export class ExportError extends Error {}

export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** Gives each child of one folder a name no sibling has taken, nor `blocked` refuses. */
function nameTaker(reserved: string[] = []) {
  const taken = new Set(reserved.map((n) => n.toLowerCase()));
  return (wanted: string, extension = '', blocked: (name: string) => boolean = () => false) => {
    let name = `${wanted}${extension}`;
    for (let n = 2; taken.has(name.toLowerCase()) || blocked(name); n++) name = `${wanted}-${n}${extension}`;
    taken.add(name.toLowerCase());
    return name;
  };
}

const baseName = (sourcePath: string | null) => (sourcePath ? path.posix.basename(sourcePath) : undefined);

/**
 * Names the children of one folder so that an import finds each where it came from: first those still in the folder
 * they came from keep their own names; then the rest (written in the admin, moved, or whose name a sibling holds)
 * take names that are no item's source path, so a path in the folder never names one item while its id names another.
 * Names are one when they differ only in case (the folder may land on a file system that ignores it): of two source
 * paths so alike, the second to come takes another name, and that too is no item's source path.
 */
function nameChildren<T extends { id: number; source_path: string | null }>(
  folder: string,
  children: T[],
  wanted: (child: T) => string,
  take: ReturnType<typeof nameTaker>,
  sourcePaths: Set<string>,
  extension = '',
): Map<number, string> {
  const names = new Map<number, string>();
  const at = (name: string) => (folder ? path.posix.join(folder, name) : name);
  for (const child of children) {
    const own = baseName(child.source_path);
    if (own && child.source_path === at(own)) {
      const stem = extension ? own.replace(/\.md$/i, '') : own;
      names.set(
        child.id,
        take(stem, own.slice(stem.length), (name) => name !== own && sourcePaths.has(at(name).toLowerCase())),
      );
    }
  }
  for (const child of children) {
    if (!names.has(child.id))
      names.set(
        child.id,
        take(wanted(child), extension, (name) => sourcePaths.has(at(name).toLowerCase())),
      );
  }
  return names;
}

/** One export under way: the content read once, the files written so far, and the versions counted. */
interface Exporter {
  ctx: AppContext;
  root: string;
  site: Language;
  sections: SectionRow[];
  categories: CategoryRow[];
  articles: ArticleRow[];
  files: FileRow[];
  fileById: Map<number, FileRow>;
  translations: {
    sections: ReturnType<typeof groupSectionTranslations>;
    categories: ReturnType<typeof groupCategoryTranslations>;
    articles: ReturnType<typeof groupArticleTranslations>;
  };
  /** Files an article or a version attaches, by `articleId` or `articleId:lang`. */
  attachments: Map<string, FileRow[]>;
  /** Every item's source path, lower-cased, by kind: names no other item may take. */
  sourcePaths: { sections: Set<string>; categories: Set<string>; articles: Set<string> };
  /** Paths of the files written so far, by id: each is written once. */
  written: Map<number, string>;
  translationCount: number;
}

type AllTranslations = Awaited<ReturnType<typeof readAllTranslations>>;
const groupSectionTranslations = (t: AllTranslations) =>
  groupTranslations(t.sections, (row) => row.section_id);
const groupCategoryTranslations = (t: AllTranslations) =>
  groupTranslations(t.categories, (row) => row.category_id);
const groupArticleTranslations = (t: AllTranslations) =>
  groupTranslations(t.articles, (row) => row.article_id);

const ownLang = (row: { lang: string | null }) => (isLanguage(row.lang) ? row.lang : null);
const relativeTo = (fromFolder: string, target: string) => path.posix.relative(fromFolder, target);
const sourcePathsOf = (rows: { source_path: string | null }[]) =>
  new Set(rows.flatMap((row) => (row.source_path ? [row.source_path.toLowerCase()] : [])));

/** Reads everything the folder will hold, once. */
async function openExport(ctx: AppContext, root: string): Promise<Exporter> {
  const { sections, categories, articles, files, links } = await readAllContent(ctx.db);
  const translations = await readAllTranslations(ctx.db);
  const site = await siteLanguage(ctx.db);
  const fileById = new Map(files.map((f) => [f.id, f]));
  const attachments = new Map<string, FileRow[]>();
  const attach = (key: string, fileId: number) => {
    const file = fileById.get(fileId);
    if (file) attachments.set(key, [...(attachments.get(key) ?? []), file]);
  };
  for (const link of links) attach(`${link.article_id}`, link.file_id);
  for (const link of translations.files) attach(`${link.article_id}:${link.lang}`, link.file_id);
  return {
    ctx,
    root,
    site,
    sections,
    categories,
    articles,
    files,
    fileById,
    translations: {
      sections: groupSectionTranslations(translations),
      categories: groupCategoryTranslations(translations),
      articles: groupArticleTranslations(translations),
    },
    attachments,
    sourcePaths: {
      sections: sourcePathsOf(sections),
      categories: sourcePathsOf(categories),
      articles: sourcePathsOf(articles),
    },
    written: new Map(),
    translationCount: 0,
  };
}

const write = (x: Exporter, relative: string, data: string | Buffer) => writeInside(x.root, relative, data);

/** Puts a file's bytes in the folder once and answers its path relative to the root. */
async function placeFile(x: Exporter, file: FileRow, besideFolder: string): Promise<string> {
  const known = x.written.get(file.id);
  if (known) return known;
  // A folder per file keeps its name exactly (the import names files after their path) and never collides.
  const relative =
    file.source_path ?? path.posix.join(besideFolder, '_files', String(file.id), file.original_name);
  write(x, relative, await readAll(x.ctx.storage, file.storage_key));
  x.written.set(file.id, relative);
  return relative;
}

/** A body kept only as HTML links files by URL; point those links at the files written beside it. */
async function localiseHtml(x: Exporter, html: string, folder: string) {
  let result = html;
  for (const match of html.matchAll(/\/files\/(\d+)\/[^"'\s)<>]*/g)) {
    const file = x.fileById.get(Number(match[1]));
    if (file) {
      const relative = relativeTo(folder, await placeFile(x, file, folder));
      result = result.replaceAll(match[0], relative.split('/').map(encodeURIComponent).join('/'));
    }
  }
  return result;
}

/** Content files a Markdown body shows are written at their own paths, where its relative links find them. */
async function placeImages(x: Exporter, html: string, folder: string) {
  for (const image of x.files.filter((f) => f.source_path && html.includes(`/files/${f.id}/`))) {
    await placeFile(x, image, folder);
  }
}

/**
 * Writes the whole help centre (drafts included) as a content folder that `importFolder` reads back to the same
 * content. Items keep the names their source paths gave them; items made elsewhere get names from their titles.
 */
export async function exportFolder(
  ctx: AppContext,
  dir: string,
  options: ExportOptions = {},
): Promise<ExportSummary> {
  const root = path.resolve(dir);
  prepareTarget(root, options.force === true);
  const x = await openExport(ctx, root);
  write(x, SYNONYMS_FILE, formatSynonymsFile((await readSynonyms(ctx.db)).sets));
  write(x, ORIGIN_FILE, formatOriginFile(await readOrCreateSecret(ctx.db, ORIGIN_SETTING, randomUUID)));
  const sectionNames = nameChildren(
    '',
    x.sections,
    (section) => baseName(section.source_path) ?? slugify(section.name, `section-${section.id}`),
    nameTaker(),
    x.sourcePaths.sections,
  );
  for (const section of x.sections) await writeSection(x, section, sectionNames.get(section.id) as string);
  return {
    sections: x.sections.length,
    categories: x.categories.length,
    articles: x.articles.length,
    files: x.written.size,
    translations: x.translationCount,
  };
}

/** A section's `_section.md`, its translations beside it, then what it holds. */
async function writeSection(x: Exporter, section: SectionRow, folder: string) {
  const { main, lang, others } = arrangeVersions(
    { lang: ownLang(section), text: section.name, published: true },
    (x.translations.sections.get(section.id) ?? []).map((t) => ({
      lang: t.lang as Language,
      text: t.name,
      published: t.published === 1,
    })),
    x.site,
  );
  write(
    x,
    path.posix.join(folder, SECTION_FILE),
    formatDocument(
      {
        name: main.text,
        position: section.position,
        ...visibilityOf(section),
        lang,
        id: formatItemId('section', section.id, section.created_at),
      },
      '',
    ),
  );
  for (const version of others) {
    write(
      x,
      translationFile(path.posix.join(folder, SECTION_FILE), version.lang as Language),
      formatDocument({ name: version.text, published: version.published ? undefined : false }, ''),
    );
    x.translationCount++;
  }
  await writeContainer(x, section, null, folder);
}

/** The articles and categories directly in a section or category, named, then written (categories recursively). */
async function writeContainer(x: Exporter, section: SectionRow, parent: CategoryRow | null, folder: string) {
  const take = nameTaker([SECTION_FILE, CATEGORY_FILE]);
  const here = x.articles.filter(
    (a) => a.section_id === section.id && a.category_id === (parent?.id ?? null),
  );
  const children = x.categories.filter(
    (c) => c.section_id === section.id && c.parent_id === (parent?.id ?? null),
  );
  const articleNames = nameChildren(
    folder,
    here,
    (article) =>
      (baseName(article.source_path) ?? slugify(article.title, `article-${article.id}`)).replace(
        /\.md$/i,
        '',
      ),
    take,
    x.sourcePaths.articles,
    '.md',
  );
  const categoryNames = nameChildren(
    folder,
    children,
    (category) => baseName(category.source_path) ?? slugify(category.name, `category-${category.id}`),
    take,
    x.sourcePaths.categories,
  );
  for (const article of here) {
    await writeArticle(x, article, path.posix.join(folder, articleNames.get(article.id) as string), folder);
  }
  for (const category of children) {
    const sub = path.posix.join(folder, categoryNames.get(category.id) as string);
    await writeCategory(x, category, sub);
    await writeContainer(x, section, category, sub);
  }
}

/** A category's description as its file holds it: its Markdown source, or the admin's HTML with local links. */
async function describeCategory(
  x: Exporter,
  text: { description: string; source: string | null },
  sub: string,
) {
  const isHtml = text.source === null && text.description !== '';
  // A description written in the admin is HTML: it must not go through Markdown on the way back.
  const body = text.source ?? (await localiseHtml(x, text.description, sub));
  if (text.source !== null) await placeImages(x, text.description, '');
  return { isHtml, body, format: isHtml ? 'html' : undefined };
}

/** A category's `_category.md` and its translations beside it. */
async function writeCategory(x: Exporter, category: CategoryRow, sub: string) {
  const icon = category.icon_file_id !== null ? x.fileById.get(category.icon_file_id) : undefined;
  const { main, lang, others } = arrangeVersions(
    {
      lang: ownLang(category),
      text: { name: category.name, description: category.description, source: category.description_source },
      published: true,
    },
    (x.translations.categories.get(category.id) ?? []).map((t) => ({
      lang: t.lang as Language,
      text: { name: t.name, description: t.description, source: t.description_source },
      published: t.published === 1,
    })),
    x.site,
  );
  const description = await describeCategory(x, main.text, sub);
  write(
    x,
    path.posix.join(sub, CATEGORY_FILE),
    (description.isHtml ? formatHtmlDocument : formatDocument)(
      {
        name: main.text.name,
        position: category.position,
        icon: icon ? relativeTo(sub, await placeFile(x, icon, sub)) : undefined,
        font_icon: category.icon_type === 'font' ? (category.font_icon ?? undefined) : undefined,
        ...visibilityOf(category),
        lang,
        format: description.format,
        id: formatItemId('category', category.id, category.created_at),
      },
      description.body,
    ),
  );
  for (const version of others) {
    const translated = await describeCategory(x, version.text, sub);
    write(
      x,
      translationFile(path.posix.join(sub, CATEGORY_FILE), version.lang as Language),
      (translated.isHtml ? formatHtmlDocument : formatDocument)(
        {
          name: version.text.name,
          published: version.published ? undefined : false,
          format: translated.format,
        },
        translated.body,
      ),
    );
    x.translationCount++;
  }
}

type ArticleVersion = Version<{ title: string; html: string; source: string | null; key: string }>;

/** An article's file, with its translations beside it. */
async function writeArticle(x: Exporter, article: ArticleRow, file: string, folder: string) {
  const { main, lang, others } = arrangeVersions(
    {
      lang: ownLang(article),
      text: {
        title: article.title,
        html: article.body_html,
        source: article.body_source,
        key: `${article.id}`,
      },
      published: article.published === 1,
    },
    (x.translations.articles.get(article.id) ?? []).map((t) => ({
      lang: t.lang as Language,
      text: { title: t.title, html: t.body_html, source: t.body_source, key: `${article.id}:${t.lang}` },
      published: t.published === 1,
    })),
    x.site,
  );
  write(x, file, await articleDocument(x, { article, folder, lang }, main, true));
  for (const version of others) {
    write(
      x,
      translationFile(file, version.lang as Language),
      await articleDocument(x, { article, folder, lang }, version, false),
    );
    x.translationCount++;
  }
}

/** The item's own file says what belongs to the item too; a translation's says only what a version has. */
async function articleDocument(
  x: Exporter,
  { article, folder, lang }: { article: ArticleRow; folder: string; lang: Language | undefined },
  version: ArticleVersion,
  own: boolean,
) {
  const attached: string[] = [];
  for (const attachment of x.attachments.get(version.text.key) ?? []) {
    attached.push(relativeTo(folder, await placeFile(x, attachment, folder)));
  }
  // The Markdown refers to its images by relative path; make sure they are there.
  if (version.text.source !== null) await placeImages(x, version.text.html, folder);
  const body = version.text.source ?? (await localiseHtml(x, version.text.html, folder));
  const item = own
    ? {
        position: article.position,
        can_create_issue: article.can_create_issue === 1,
        published: version.published,
        lang,
        ...visibilityOf(article),
        noindex: article.noindex === 1 ? true : undefined,
      }
    : { published: version.published };
  return (version.text.source === null ? formatHtmlDocument : formatDocument)(
    {
      title: version.text.title,
      ...item,
      files: attached.length ? attached : undefined,
      // A body written in the admin is HTML: imported back as it is (sanitised), never read as Markdown.
      format: version.text.source === null ? 'html' : undefined,
      id: own ? formatItemId('article', article.id, article.created_at) : undefined,
    },
    body,
  );
}

/** An HTML body exactly as it is, newlines included; the reader takes back the one newline added at the end. */
function formatHtmlDocument(data: Record<string, unknown>, html: string): string {
  return `${formatDocument(data, '')}\n${html}\n`;
}

/**
 * Writes one file below the root without ever following a link: the paths come from stored rows (a restored backup
 * can carry any), and the folder may hold links (its dot-entries are kept, and anything can appear while the export
 * runs). A path that is not plainly inside is refused, and so is one into a dot-entry at the top (`.git` is the
 * operator's, never ours to write); every folder on the way must be a real folder, and the file itself no link.
 */
function writeInside(root: string, relative: string, data: string | Buffer) {
  const segments = relative.split('/');
  if (path.posix.isAbsolute(relative) || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new ExportError(`${relative}: is not a path inside the folder`);
  }
  const first = segments[0] as string;
  if (first.startsWith('.'))
    throw new ExportError(`${relative}: lies in ${first}, and the export leaves dot-entries as they are`);
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = path.join(dir, segment);
    try {
      fs.mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!fs.lstatSync(dir).isDirectory())
      throw new ExportError(`${path.relative(root, dir)}: is not a folder (a link?)`);
  }
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(path.join(root, relative), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ExportError(`${relative}: is a link`);
    throw error;
  }
  try {
    fs.writeFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** Links among what --force replaces are removed themselves, never followed. */
function prepareTarget(root: string, force: boolean) {
  if (!fs.existsSync(root)) {
    fs.mkdirSync(root, { recursive: true });
    return;
  }
  if (!fs.statSync(root).isDirectory()) throw new ExportError(`${root} exists and is not a folder`);
  const entries = fs.readdirSync(root).filter((name) => !name.startsWith('.'));
  if (entries.length === 0) return;
  if (!force) {
    throw new ExportError(
      `${root} is not empty; choose an empty folder, or pass --force to replace its content`,
    );
  }
  for (const name of entries) fs.rmSync(path.join(root, name), { recursive: true, force: true });
}
