import fs from 'node:fs';
import path from 'node:path';
import {
  FONT_ICON_MAX,
  LANGUAGES,
  type Language,
  isFontIcon,
  tidyFontIcon,
  VISIBILITIES,
  type Visibility,
} from '../../../shared/constants.ts';
import { collectHtmlReferences, collectReferences } from './markdown.ts';
import { parseSynonymsFile, SYNONYMS_FILE } from './synonyms-file.ts';
import type { SynonymSets } from '../../../shared/api/synonyms.ts';
import {
  FolderError,
  checkKeys,
  decodeText,
  parseDocument,
  readBoolean,
  readInteger,
  readString,
  readStringList,
} from './front-matter.ts';
import { formatItemId, type ItemKind, ORIGIN_FILE, parseOriginFile, readItemId } from './folder-ids.ts';

export type BodyFormat = 'markdown' | 'html';

/** Paths in a content folder are POSIX paths relative to its root; they are the stable keys of what they hold. */
export interface FolderSection {
  path: string;
  /** The id its file says it was exported with (`id: section:3@m3x9k2a1`), or null. */
  id: number | null;
  /** The stamp of that id (the row's creation time), or null: none, or an id written before stamps were. */
  stamp: number | null;
  name: string;
  position: number;
  visibility: Visibility;
  /** Its own language when `_section.md` names one; null is the help centre's. */
  lang: Language | null;
  translations: FolderSectionTranslation[];
}

/**
 * A version of an item in another language, from `slug.ru.md`, `_category.ru.md` or `_section.ru.md` beside the
 * item's own file: its own text, files and published state; everything else belongs to the item.
 */
interface FolderTranslation {
  /** The translation's own file. */
  file: string;
  lang: Language;
  published: boolean;
}

export interface FolderSectionTranslation extends FolderTranslation {
  name: string;
}

export interface FolderCategoryTranslation extends FolderTranslation {
  name: string;
  description: string;
  format: BodyFormat;
  images: string[];
}

export interface FolderArticleTranslation extends FolderTranslation {
  title: string;
  files: string[];
  body: string;
  format: BodyFormat;
  images: string[];
}

export interface FolderCategory {
  path: string;
  id: number | null;
  stamp: number | null;
  sectionPath: string;
  parentPath: string | null;
  name: string;
  position: number;
  description: string;
  icon: string | null;
  fontIcon: string | null;
  visibility: Visibility;
  /** How the description is written: Markdown, or HTML as the admin's editor makes it. */
  format: BodyFormat;
  images: string[];
  lang: Language | null;
  translations: FolderCategoryTranslation[];
}

export interface FolderArticle {
  path: string;
  id: number | null;
  stamp: number | null;
  sectionPath: string;
  categoryPath: string | null;
  title: string;
  position: number;
  canCreateIssue: boolean;
  published: boolean;
  lang: Language | null;
  visibility: Visibility;
  noindex: boolean;
  files: string[];
  body: string;
  format: BodyFormat;
  images: string[];
  translations: FolderArticleTranslation[];
}

export interface ContentFolder {
  root: string;
  sections: FolderSection[];
  /** Parents before children. */
  categories: FolderCategory[];
  articles: FolderArticle[];
  /** Every file an article or category refers to, by path. */
  assets: string[];
  /** The search synonyms of `_synonyms.yml`, when the folder has one. */
  synonyms?: SynonymSets;
  /** The help centre its ids belong to (`_origin.yml`), when the folder says. */
  origin?: string;
  warnings: string[];
}

export class FolderErrors extends Error {
  constructor(readonly errors: FolderError[]) {
    super(
      `the folder has ${errors.length} problem${errors.length === 1 ? '' : 's'}:\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
    );
  }
}

export const SECTION_FILE = '_section.md';
export const CATEGORY_FILE = '_category.md';
const SECTION_KEYS = ['name', 'position', 'visibility', 'lang', 'id'] as const;
const CATEGORY_KEYS = [
  'name',
  'position',
  'icon',
  'font_icon',
  'format',
  'visibility',
  'lang',
  'id',
] as const;
const ARTICLE_KEYS = [
  'title',
  'position',
  'can_create_issue',
  'published',
  'files',
  'lang',
  'format',
  'visibility',
  'noindex',
  'id',
] as const;

/** What a translation's own file may say; the rest belongs to the item and is written in the item's file. */
const SECTION_TRANSLATION_KEYS = ['name', 'published', 'lang'] as const;
const CATEGORY_TRANSLATION_KEYS = ['name', 'published', 'format', 'lang'] as const;
const ARTICLE_TRANSLATION_KEYS = ['title', 'published', 'files', 'format', 'lang'] as const;

/** `_section.ru.md` for `_section.md`, `refunds.pt-BR.md` for `refunds.md`. */
export const translationFile = (file: string, lang: Language) => file.replace(/\.md$/i, `.${lang}.md`);

/** The language a file's name gives it (`refunds.ru.md`) and the name of its source's file, or undefined. */
export function translationOf(name: string): { source: string; lang: Language } | undefined {
  const stem = name.replace(/\.md$/i, '');
  for (const lang of LANGUAGES) {
    if (stem.length > lang.length + 1 && stem.endsWith(`.${lang}`))
      return { source: `${stem.slice(0, -lang.length - 1)}${name.slice(stem.length)}`, lang };
  }
  return undefined;
}

/** The newline that ends the file is not part of an HTML body (the export adds one). */
const withoutFinalNewline = (body: string) => body.replace(/\n$/, '');

function readLang(file: string, value: unknown): Language | null {
  const lang = readString(file, 'lang', value) ?? null;
  if (lang !== null && !(LANGUAGES as readonly string[]).includes(lang))
    throw new FolderError(file, `lang must be one of ${LANGUAGES.join(', ')}`);
  return lang as Language | null;
}

/** A translation's file says only what a version has; what belongs to the item is named as such, not as unknown. */
function checkTranslationKeys(
  file: string,
  data: Record<string, unknown>,
  allowed: readonly string[],
  itemKeys: readonly string[],
  sourceFile: string,
): void {
  const misplaced = Object.keys(data).filter((key) => !allowed.includes(key) && itemKeys.includes(key));
  if (misplaced.length) {
    throw new FolderError(
      file,
      `${misplaced.join(', ')} belong${misplaced.length === 1 ? 's' : ''} to the item, not to one language: set ${misplaced.length === 1 ? 'it' : 'them'} in ${path.posix.basename(sourceFile)}`,
    );
  }
  checkKeys(file, data, allowed);
}

/** A translation's front-matter `lang`, when given, must be the one its file name says. */
function checkTranslationLang(file: string, lang: Language, value: unknown): void {
  const said = readString(file, 'lang', value);
  if (said !== undefined && said !== lang)
    throw new FolderError(file, `lang says ${said}, but the file name says ${lang}`);
}

function readFormat(file: string, value: unknown): BodyFormat {
  const format = readString(file, 'format', value) ?? 'markdown';
  if (format !== 'markdown' && format !== 'html')
    throw new FolderError(file, 'format must be markdown or html');
  return format;
}

/** Who may read it: `everyone` (the default) or `signed_in`. */
function readVisibility(file: string, value: unknown): Visibility {
  const visibility = readString(file, 'visibility', value) ?? 'everyone';
  if (!(VISIBILITIES as readonly string[]).includes(visibility))
    throw new FolderError(file, `visibility must be one of ${VISIBILITIES.join(', ')}`);
  return visibility as Visibility;
}

/** Font Awesome classes only (`fa fa-wifi`), by the admin API's rule: nothing else reaches a tile's class. */
function readFontIcon(file: string, value: unknown): string | null {
  const raw = readString(file, 'font_icon', value);
  if (raw === undefined) return null;
  const fontIcon = tidyFontIcon(raw);
  if (!isFontIcon(fontIcon))
    throw new FolderError(
      file,
      `font_icon must be icon classes such as "fa-solid fa-wifi": lowercase letters, digits and hyphens, separated by spaces, at most ${FONT_ICON_MAX} characters`,
    );
  return fontIcon;
}

const isAssetFolder = (name: string) => name.startsWith('_') || name.startsWith('.');

const isInside = (root: string, real: string) => {
  const relative = path.relative(root, real);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
};

/** Where a path really leads, every symbolic link followed; problems become the caller's FolderError. */
function realLocation(absolute: string, fail: (problem: string) => FolderError): string {
  try {
    return fs.realpathSync.native(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw fail('does not exist');
    if (code === 'ELOOP') throw fail('is a loop of symbolic links');
    if (code === 'EACCES') throw fail('cannot be read (permission denied)');
    throw error;
  }
}

/**
 * Opens a file of the folder by what it really is: its real location, every symbolic link followed, must be inside
 * the folder's own real location, and it must be a regular file. A FIFO, device or socket is refused before it is
 * opened (and opened without blocking all the same), so nothing can make an import wait forever or read without
 * end. The check is made again on the open descriptor: a folder swapped for a link between the check and the open
 * is refused, never read. Answers the descriptor; the caller closes it.
 */
function openInside(realRoot: string, relative: string, fail: (problem: string) => FolderError): number {
  const absolute = path.join(realRoot, relative);
  const resolve = () => {
    const real = realLocation(absolute, fail);
    if (!isInside(realRoot, real)) {
      throw fail(`points outside the content folder (through a symbolic link, to ${real})`);
    }
    return real;
  };
  const real = resolve();
  if (!fs.statSync(real, { throwIfNoEntry: false })?.isFile()) throw fail('is not a regular file');
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) throw fail('is not a regular file');
    const now = fs.statSync(resolve(), { throwIfNoEntry: false });
    if (!now || now.dev !== opened.dev || now.ino !== opened.ino)
      throw fail('changed while it was being read');
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function readInside(realRoot: string, relative: string, fail: (problem: string) => FolderError): Buffer {
  const fd = openInside(realRoot, relative, fail);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes of a file `readContentFolder` listed, checked again as they are read: the folder may have changed since.
 * `root` is the folder's `root`, its real location.
 */
export function readFolderFile(root: string, relative: string): Buffer {
  return readInside(root, relative, (problem) => new FolderError(relative, problem));
}
export const humanize = (name: string) => {
  const words = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An id an item's file gives, checked against the others once the whole folder is read. */
interface DeclaredId {
  file: string;
  kind: ItemKind;
  said: string;
  saidKind: ItemKind;
}

/**
 * One read of a folder: what it has read so far and every problem found, so the walk goes on past each one and
 * the author can fix them all in one go.
 */
interface FolderReader {
  /** The folder's real location: what is inside is judged against it. */
  realRoot: string;
  siteLang: Language;
  errors: FolderError[];
  folder: ContentFolder;
  assets: Set<string>;
  /** Relative links to `.md` files, checked against the articles once the whole folder is read. */
  articleLinks: { from: string; link: string }[];
  /** Every id an item's file gives, checked against each other once the whole folder is read. */
  declaredIds: DeclaredId[];
}

/** Runs one check; its problem is recorded and `fallback` stands in, so the rest of the file is checked too. */
function check<T>(r: FolderReader, fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof FolderError) {
      r.errors.push(error);
      return fallback;
    }
    throw error;
  }
}

const attempt = (r: FolderReader, fn: () => void) => check(r, fn, undefined);

/** Each item checked on its own: one missing image does not hide the next. */
const checkEach = <T, R>(r: FolderReader, items: T[], fn: (item: T) => R): R[] =>
  items.flatMap((item) => check(r, () => [fn(item)], []));

/** The item's id and stamp when its file gives one of its own kind; another kind's is reported after the walk. */
function readId(r: FolderReader, file: string, kind: ItemKind, value: unknown) {
  const none = { id: null, stamp: null };
  const itemId = check(r, () => readItemId(file, value), null);
  if (!itemId) return none;
  // One number, one item: two files with one number are one too many, whatever their stamps say.
  r.declaredIds.push({ file, kind, said: formatItemId(itemId.kind, itemId.id), saidKind: itemId.kind });
  return itemId.kind === kind ? { id: itemId.id, stamp: itemId.stamp } : none;
}

function readDocument(r: FolderReader, relative: string) {
  const bytes = readInside(r.realRoot, relative, (problem) => new FolderError(relative, problem));
  return parseDocument(relative, decodeText(relative, bytes));
}

/** A file named by its folder's convention (`_section.md`, `_category.md`); a dangling link counts, to be refused. */
const isPresent = (r: FolderReader, relative: string) =>
  fs.lstatSync(path.join(r.realRoot, relative), { throwIfNoEntry: false }) !== undefined;

function resolveAsset(r: FolderReader, from: string, reference: string, what: string): string {
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), reference));
  const fail = (problem: string) => new FolderError(from, `${what} "${reference}" ${problem}`);
  if (resolved.startsWith('../') || resolved === '..' || path.posix.isAbsolute(reference)) {
    throw fail('points outside the content folder');
  }
  // Checked here so every problem is reported before anything is stored; read (and checked again) by the import.
  fs.closeSync(openInside(r.realRoot, resolved, fail));
  r.assets.add(resolved);
  return resolved;
}

/** Positions left out of front matter follow the order of the names. */
const defaultPositions = (names: string[]) =>
  new Map([...names].sort().map((name, index) => [name, index + 1]));

/**
 * The walk follows no link: a linked folder would bring the same content in twice, or loop. What starts with _ or .
 * is never walked into, only read by name, so a link there is judged where it is used.
 */
function listDir(r: FolderReader, relative: string) {
  return fs.readdirSync(path.join(r.realRoot, relative), { withFileTypes: true }).filter((entry) => {
    if (isAssetFolder(entry.name) && !entry.isFile()) return false;
    if (entry.isSymbolicLink()) {
      r.folder.warnings.push(`${path.posix.join(relative, entry.name)}: symbolic link skipped`);
      return false;
    }
    if (!entry.isFile() && !entry.isDirectory()) {
      r.folder.warnings.push(
        `${path.posix.join(relative, entry.name)}: not a regular file or folder, skipped`,
      );
      return false;
    }
    return true;
  });
}

/** Images a body shows; an HTML body's links to files in the folder (not to articles) come along too. */
function bodyAssets(r: FolderReader, from: string, body: string, format: BodyFormat): string[] {
  const { images, links } = format === 'markdown' ? collectReferences(body) : collectHtmlReferences(body);
  for (const link of links) if (link.toLowerCase().endsWith('.md')) r.articleLinks.push({ from, link });
  if (format === 'markdown') return checkEach(r, images, (image) => resolveAsset(r, from, image, 'image'));
  // Links to what is not a file of the folder stay plain links; one that leads outside is refused below.
  const linked = links.filter((link) => {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), link));
    if (resolved.startsWith('../') || link.toLowerCase().endsWith('.md')) return false;
    try {
      return fs.statSync(path.join(r.realRoot, resolved), { throwIfNoEntry: false })?.isFile() === true;
    } catch {
      return true; // a loop of links, say: reported as the file's problem
    }
  });
  return [
    ...checkEach(r, images, (image) => resolveAsset(r, from, image, 'image')),
    ...checkEach(r, linked, (link) => resolveAsset(r, from, link, 'linked file')),
  ];
}

/** An article's or a translation's attachments (`files:`), each checked, each once. */
function readFiles(r: FolderReader, relative: string, value: unknown): string[] {
  const files = checkEach(
    r,
    check(r, () => readStringList(relative, 'files', value), []),
    (file) => resolveAsset(r, relative, file, 'attachment'),
  );
  return [...new Set(files)];
}

/** `published:` of an item or a version, true unless it says otherwise. */
const readPublished = (r: FolderReader, relative: string, value: unknown) =>
  check(r, () => readBoolean(relative, 'published', value), undefined) ?? true;

function readArticle(
  r: FolderReader,
  relative: string,
  sectionPath: string,
  categoryPath: string | null,
  fallbackPosition: number,
  translationLangs: Language[],
) {
  const { data, body } = readDocument(r, relative);
  check(r, () => checkKeys(relative, data, ARTICLE_KEYS), undefined);
  const files = readFiles(r, relative, data.files);
  const format = check(r, () => readFormat(relative, data.format), 'markdown');
  const lang = check(r, () => readLang(relative, data.lang), null);
  const translations = checkEach(r, translationLangs, (translationLang) =>
    readArticleTranslation(r, translationFile(relative, translationLang), translationLang, relative),
  );
  checkVersions(r, relative, lang, translations);
  r.folder.articles.push({
    path: relative,
    ...readId(r, relative, 'article', data.id),
    sectionPath,
    categoryPath,
    title:
      check(r, () => readString(relative, 'title', data.title), undefined) ??
      humanize(path.posix.basename(relative)),
    position: check(r, () => readInteger(relative, 'position', data.position), undefined) ?? fallbackPosition,
    canCreateIssue:
      check(r, () => readBoolean(relative, 'can_create_issue', data.can_create_issue), undefined) ?? false,
    published: readPublished(r, relative, data.published),
    lang,
    visibility: check(r, () => readVisibility(relative, data.visibility), 'everyone'),
    noindex: check(r, () => readBoolean(relative, 'noindex', data.noindex), undefined) ?? false,
    files,
    body: format === 'html' ? withoutFinalNewline(body) : body,
    format,
    images: bodyAssets(r, relative, body, format),
    translations,
  });
}

/** A translation's file, its keys and its lang checked: what the three kinds' versions read first. */
function readTranslationDocument(
  r: FolderReader,
  relative: string,
  lang: Language,
  sourceFile: string,
  keys: { allowed: readonly string[]; item: readonly string[] },
) {
  const document = readDocument(r, relative);
  const { data } = document;
  check(r, () => checkTranslationKeys(relative, data, keys.allowed, keys.item, sourceFile), undefined);
  check(r, () => checkTranslationLang(relative, lang, data.lang), undefined);
  return document;
}

function readArticleTranslation(
  r: FolderReader,
  relative: string,
  lang: Language,
  sourceFile: string,
): FolderArticleTranslation {
  const { data, body } = readTranslationDocument(r, relative, lang, sourceFile, {
    allowed: ARTICLE_TRANSLATION_KEYS,
    item: ARTICLE_KEYS,
  });
  const files = readFiles(r, relative, data.files);
  const format = check(r, () => readFormat(relative, data.format), 'markdown');
  return {
    file: relative,
    lang,
    title:
      check(r, () => readString(relative, 'title', data.title), undefined) ??
      humanize(path.posix.basename(sourceFile)),
    published: readPublished(r, relative, data.published),
    files,
    body: format === 'html' ? withoutFinalNewline(body) : body,
    format,
    images: bodyAssets(r, relative, body, format),
  };
}

/** `_category.ru.md` beside `_category.md`: the languages whose file is there, in the order of LANGUAGES. */
const metaTranslations = (r: FolderReader, meta: string) =>
  LANGUAGES.filter((lang) => isPresent(r, translationFile(meta, lang)));

function readCategoryTranslation(
  r: FolderReader,
  meta: string,
  lang: Language,
  fallbackName: string,
): FolderCategoryTranslation {
  const relative = translationFile(meta, lang);
  const { data, body } = readTranslationDocument(r, relative, lang, meta, {
    allowed: CATEGORY_TRANSLATION_KEYS,
    item: CATEGORY_KEYS,
  });
  const format = check(r, () => readFormat(relative, data.format), 'markdown');
  return {
    file: relative,
    lang,
    name: check(r, () => readString(relative, 'name', data.name), undefined) ?? fallbackName,
    published: readPublished(r, relative, data.published),
    description: format === 'html' ? withoutFinalNewline(body) : body,
    format,
    images: bodyAssets(r, relative, body, format),
  };
}

function readSectionTranslation(
  r: FolderReader,
  meta: string,
  lang: Language,
  fallbackName: string,
): FolderSectionTranslation {
  const relative = translationFile(meta, lang);
  const { data, body } = readTranslationDocument(r, relative, lang, meta, {
    allowed: SECTION_TRANSLATION_KEYS,
    item: SECTION_KEYS,
  });
  if (body.trim())
    r.errors.push(new FolderError(relative, 'a section has no description: leave the body empty'));
  return {
    file: relative,
    lang,
    name: check(r, () => readString(relative, 'name', data.name), undefined) ?? fallbackName,
    published: readPublished(r, relative, data.published),
  };
}

/**
 * The item's own file is its version in the help centre's language, or (its `lang`) in another one when the
 * folder has no version in the help centre's; no two versions share a language.
 */
function checkVersions(
  r: FolderReader,
  sourceFile: string,
  own: Language | null,
  translations: FolderTranslation[],
) {
  const source = path.posix.basename(sourceFile);
  for (const translation of translations) {
    if (translation.lang === r.siteLang)
      r.errors.push(
        new FolderError(
          translation.file,
          `is in the help centre's language (${r.siteLang}), which is ${source}'s: write that version in ${source}`,
        ),
      );
    else if (translation.lang === own)
      r.errors.push(
        new FolderError(
          translation.file,
          `${source} is in ${own} already (its lang): one version a language`,
        ),
      );
  }
}

/**
 * The articles of a folder and the languages each is translated into (`refunds.ru.md` beside `refunds.md`); a
 * translation without its source beside it is refused.
 */
function articlesOf(r: FolderReader, relative: string, entries: fs.Dirent[]) {
  const documents = entries.filter(
    (e) => e.isFile() && e.name.toLowerCase().endsWith('.md') && !e.name.startsWith('_'),
  );
  const articles = documents.filter((e) => !translationOf(e.name));
  const sourceNames = new Set(articles.map((e) => e.name));
  const translated = new Map<string, Language[]>();
  for (const entry of documents) {
    const translation = translationOf(entry.name);
    if (!translation) continue;
    if (!sourceNames.has(translation.source)) {
      r.errors.push(
        new FolderError(
          path.posix.join(relative, entry.name),
          `is a translation (${translation.lang}) of ${translation.source}, which is not beside it: a translation needs its source`,
        ),
      );
    } else
      translated.set(translation.source, [...(translated.get(translation.source) ?? []), translation.lang]);
  }
  return { articles, translated };
}

/** A section's or category's folder: its articles, then each subfolder as a category, recursively. */
function readContainer(r: FolderReader, relative: string, sectionPath: string, parentPath: string | null) {
  const entries = listDir(r, relative);
  const { articles, translated } = articlesOf(r, relative, entries);
  const articlePositions = defaultPositions(articles.map((e) => e.name));
  for (const entry of articles) {
    const file = path.posix.join(relative, entry.name);
    const langs = translated.get(entry.name) ?? [];
    attempt(r, () =>
      readArticle(
        r,
        file,
        sectionPath,
        parentPath,
        articlePositions.get(entry.name) ?? 0,
        LANGUAGES.filter((lang) => langs.includes(lang)),
      ),
    );
  }
  const subfolders = entries.filter((e) => e.isDirectory() && !isAssetFolder(e.name));
  const categoryPositions = defaultPositions(subfolders.map((e) => e.name));
  for (const entry of subfolders) {
    const categoryPath = path.posix.join(relative, entry.name);
    attempt(r, () =>
      readCategory(r, categoryPath, { sectionPath, parentPath }, categoryPositions.get(entry.name) ?? 0),
    );
    // Read on even when the category's own file is broken: its articles' problems belong in the same report.
    readContainer(r, categoryPath, sectionPath, categoryPath);
  }
}

/** A category from its folder's `_category.md` (all of it optional) and the translations beside it. */
function readCategory(
  r: FolderReader,
  categoryPath: string,
  place: { sectionPath: string; parentPath: string | null },
  fallbackPosition: number,
) {
  const meta = path.posix.join(categoryPath, CATEGORY_FILE);
  const { data, body } = isPresent(r, meta) ? readDocument(r, meta) : { data: {}, body: '' };
  check(r, () => checkKeys(meta, data, CATEGORY_KEYS), undefined);
  const icon = check(r, () => readString(meta, 'icon', data.icon), undefined);
  const fontIcon = check(r, () => readFontIcon(meta, data.font_icon), null);
  if (icon && fontIcon) r.errors.push(new FolderError(meta, 'give either icon or font_icon, not both'));
  const format = check(r, () => readFormat(meta, data.format), 'markdown');
  const name =
    check(r, () => readString(meta, 'name', data.name), undefined) ??
    humanize(path.posix.basename(categoryPath));
  const lang = check(r, () => readLang(meta, data.lang), null);
  const translations = checkEach(r, metaTranslations(r, meta), (translationLang) =>
    readCategoryTranslation(r, meta, translationLang, name),
  );
  checkVersions(r, meta, lang, translations);
  r.folder.categories.push({
    path: categoryPath,
    ...readId(r, meta, 'category', data.id),
    ...place,
    name,
    position: check(r, () => readInteger(meta, 'position', data.position), undefined) ?? fallbackPosition,
    description: format === 'html' ? withoutFinalNewline(body) : body,
    icon: icon ? check(r, () => resolveAsset(r, meta, icon, 'icon'), null) : null,
    fontIcon,
    visibility: check(r, () => readVisibility(meta, data.visibility), 'everyone'),
    format,
    images: bodyAssets(r, meta, body, format),
    lang,
    translations,
  });
}

/** A section from its folder's `_section.md` (all of it optional) and the translations beside it. */
function readSection(r: FolderReader, sectionPath: string, fallbackPosition: number) {
  const meta = path.posix.join(sectionPath, SECTION_FILE);
  const { data, body } = isPresent(r, meta) ? readDocument(r, meta) : { data: {}, body: '' };
  check(r, () => checkKeys(meta, data, SECTION_KEYS), undefined);
  if (body.trim()) r.errors.push(new FolderError(meta, 'a section has no description: leave the body empty'));
  const name = check(r, () => readString(meta, 'name', data.name), undefined) ?? humanize(sectionPath);
  const lang = check(r, () => readLang(meta, data.lang), null);
  const translations = checkEach(r, metaTranslations(r, meta), (translationLang) =>
    readSectionTranslation(r, meta, translationLang, name),
  );
  checkVersions(r, meta, lang, translations);
  r.folder.sections.push({
    path: sectionPath,
    ...readId(r, meta, 'section', data.id),
    name,
    position: check(r, () => readInteger(meta, 'position', data.position), undefined) ?? fallbackPosition,
    visibility: check(r, () => readVisibility(meta, data.visibility), 'everyone'),
    lang,
    translations,
  });
}

/** The folder's own files at its top: the search synonyms and the help centre its ids belong to. */
function readFolderSettings(r: FolderReader) {
  if (isPresent(r, SYNONYMS_FILE)) {
    attempt(r, () => {
      const bytes = readInside(
        r.realRoot,
        SYNONYMS_FILE,
        (problem) => new FolderError(SYNONYMS_FILE, problem),
      );
      r.folder.synonyms = parseSynonymsFile(decodeText(SYNONYMS_FILE, bytes));
    });
  }
  if (isPresent(r, ORIGIN_FILE)) {
    attempt(r, () => {
      const bytes = readInside(r.realRoot, ORIGIN_FILE, (problem) => new FolderError(ORIGIN_FILE, problem));
      r.folder.origin = parseOriginFile(decodeText(ORIGIN_FILE, bytes));
    });
  }
}

/** Links to `.md` files that lead to no article (or translation) of the folder are kept, with a warning. */
function warnOfArticleLinks(r: FolderReader) {
  const articlePaths = new Set(
    r.folder.articles.flatMap((article) => [article.path, ...article.translations.map((t) => t.file)]),
  );
  for (const { from, link } of r.articleLinks) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), link));
    if (!articlePaths.has(target))
      r.folder.warnings.push(
        `${from}: link "${link}" leads to no article in the folder; it is kept as written`,
      );
  }
}

/**
 * Reads a content folder completely and checks it before anything is stored, collecting every problem so the
 * author can fix them in one go. Nothing here touches the database.
 */
export function readContentFolder(root: string, siteLang: Language = 'en'): ContentFolder {
  const absoluteRoot = path.resolve(root);
  if (!fs.existsSync(absoluteRoot) || !fs.statSync(absoluteRoot).isDirectory()) {
    throw new FolderErrors([new FolderError(root, 'is not a folder')]);
  }
  // The folder itself may be reached through links (a checkout under a linked home): what is inside is judged
  // against where it really is.
  const realRoot = fs.realpathSync.native(absoluteRoot);
  const r: FolderReader = {
    realRoot,
    siteLang,
    errors: [],
    folder: { root: realRoot, sections: [], categories: [], articles: [], assets: [], warnings: [] },
    assets: new Set<string>(),
    articleLinks: [],
    declaredIds: [],
  };
  const top = listDir(r, '');
  readFolderSettings(r);
  for (const entry of top) {
    if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
      r.folder.warnings.push(`${entry.name}: not inside a section folder, skipped`);
    }
  }
  const sectionFolders = top.filter((e) => e.isDirectory() && !isAssetFolder(e.name));
  const sectionPositions = defaultPositions(sectionFolders.map((e) => e.name));
  for (const entry of sectionFolders) {
    attempt(r, () => readSection(r, entry.name, sectionPositions.get(entry.name) ?? 0));
    readContainer(r, entry.name, entry.name, null);
  }

  checkIds(r.declaredIds, r.errors);
  // By file, each file's problems in the order they were found: the walk's order depends on the file system.
  if (r.errors.length)
    throw new FolderErrors(r.errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)));
  warnOfArticleLinks(r);
  r.folder.assets = [...r.assets].sort();
  return r.folder;
}

/** One item, one id: an id given twice, or one of another kind than the file's, is an error naming both files. */
function checkIds(declared: DeclaredId[], errors: FolderError[]): void {
  const owner = new Map<string, string>();
  for (const item of [...declared].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    if (item.saidKind !== item.kind) {
      const other = declared.find((o) => o.said === item.said && o.kind === o.saidKind);
      errors.push(
        new FolderError(
          item.file,
          `id ${item.said} is a ${item.saidKind}'s${other ? ` (${other.file})` : ''}, but this file holds ${item.kind === 'article' ? 'an' : 'a'} ${item.kind}: give it its own id, or remove the id line`,
        ),
      );
      continue;
    }
    const first = owner.get(item.said);
    if (first === undefined) owner.set(item.said, item.file);
    else
      errors.push(
        new FolderError(
          item.file,
          `id ${item.said} is ${first}'s too: one item, one file (a copy made to start a new ${item.kind} must lose its id line)`,
        ),
      );
  }
}
