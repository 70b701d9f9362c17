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
  const write = (relative: string, data: string | Buffer) => writeInside(root, relative, data);
  const { sections, categories, articles, files, links } = await readAllContent(ctx.db);
  const translations = await readAllTranslations(ctx.db);
  const site = await siteLanguage(ctx.db);
  const sectionTranslations = groupTranslations(translations.sections, (t) => t.section_id);
  const categoryTranslations = groupTranslations(translations.categories, (t) => t.category_id);
  const articleTranslations = groupTranslations(translations.articles, (t) => t.article_id);
  const ownLang = (row: { lang: string | null }) => (isLanguage(row.lang) ? row.lang : null);
  let translationCount = 0;
  const fileById = new Map(files.map((f) => [f.id, f]));
  const written = new Map<number, string>();

  /** Puts a file's bytes in the folder once and answers its path relative to the root. */
  const placeFile = async (file: FileRow, besideFolder: string): Promise<string> => {
    const known = written.get(file.id);
    if (known) return known;
    // A folder per file keeps its name exactly (the import names files after their path) and never collides.
    const relative =
      file.source_path ?? path.posix.join(besideFolder, '_files', String(file.id), file.original_name);
    write(relative, await readAll(ctx.storage, file.storage_key));
    written.set(file.id, relative);
    return relative;
  };
  const relativeTo = (fromFolder: string, target: string) => path.posix.relative(fromFolder, target);

  /** A body kept only as HTML links files by URL; point those links at the files written beside it. */
  const localiseHtml = async (html: string, folder: string) => {
    let result = html;
    for (const match of html.matchAll(/\/files\/(\d+)\/[^"'\s)<>]*/g)) {
      const file = fileById.get(Number(match[1]));
      if (file) {
        const relative = relativeTo(folder, await placeFile(file, folder));
        result = result.replaceAll(match[0], relative.split('/').map(encodeURIComponent).join('/'));
      }
    }
    return result;
  };

  const attachments = new Map<string, FileRow[]>();
  const attach = (key: string, fileId: number) => {
    const file = fileById.get(fileId);
    if (file) attachments.set(key, [...(attachments.get(key) ?? []), file]);
  };
  for (const link of links) attach(`${link.article_id}`, link.file_id);
  for (const link of translations.files) attach(`${link.article_id}:${link.lang}`, link.file_id);

  write(SYNONYMS_FILE, formatSynonymsFile((await readSynonyms(ctx.db)).sets));
  write(ORIGIN_FILE, formatOriginFile(await readOrCreateSecret(ctx.db, ORIGIN_SETTING, randomUUID)));
  const sourcePathsOf = (rows: { source_path: string | null }[]) =>
    new Set(rows.flatMap((row) => (row.source_path ? [row.source_path.toLowerCase()] : [])));
  const sourcePaths = {
    sections: sourcePathsOf(sections),
    categories: sourcePathsOf(categories),
    articles: sourcePathsOf(articles),
  };
  const sectionNames = nameChildren(
    '',
    sections,
    (section) => baseName(section.source_path) ?? slugify(section.name, `section-${section.id}`),
    nameTaker(),
    sourcePaths.sections,
  );
  for (const section of sections) {
    const folder = sectionNames.get(section.id) as string;
    const { main, lang, others } = arrangeVersions(
      { lang: ownLang(section), text: section.name, published: true },
      (sectionTranslations.get(section.id) ?? []).map((t) => ({
        lang: t.lang as Language,
        text: t.name,
        published: t.published === 1,
      })),
      site,
    );
    write(
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
        translationFile(path.posix.join(folder, SECTION_FILE), version.lang as Language),
        formatDocument({ name: version.text, published: version.published ? undefined : false }, ''),
      );
      translationCount++;
    }
    await writeContainer(section, null, folder);
  }

  async function writeContainer(section: SectionRow, parent: CategoryRow | null, folder: string) {
    const take = nameTaker([SECTION_FILE, CATEGORY_FILE]);
    const here = articles.filter(
      (a) => a.section_id === section.id && a.category_id === (parent?.id ?? null),
    );
    const children = categories.filter(
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
      sourcePaths.articles,
      '.md',
    );
    const categoryNames = nameChildren(
      folder,
      children,
      (category) => baseName(category.source_path) ?? slugify(category.name, `category-${category.id}`),
      take,
      sourcePaths.categories,
    );
    for (const article of here) {
      await writeArticle(article, path.posix.join(folder, articleNames.get(article.id) as string), folder);
    }
    for (const category of children) {
      const sub = path.posix.join(folder, categoryNames.get(category.id) as string);
      const icon = category.icon_file_id !== null ? fileById.get(category.icon_file_id) : undefined;
      const { main, lang, others } = arrangeVersions(
        {
          lang: ownLang(category),
          text: {
            name: category.name,
            description: category.description,
            source: category.description_source,
          },
          published: true,
        },
        (categoryTranslations.get(category.id) ?? []).map((t) => ({
          lang: t.lang as Language,
          text: { name: t.name, description: t.description, source: t.description_source },
          published: t.published === 1,
        })),
        site,
      );
      const describe = async (text: { description: string; source: string | null }) => {
        const isHtml = text.source === null && text.description !== '';
        // A description written in the admin is HTML: it must not go through Markdown on the way back.
        const body = text.source ?? (await localiseHtml(text.description, sub));
        if (text.source !== null) await placeImages(text.description, '');
        return { isHtml, body, format: isHtml ? 'html' : undefined };
      };
      const description = await describe(main.text);
      write(
        path.posix.join(sub, CATEGORY_FILE),
        (description.isHtml ? formatHtmlDocument : formatDocument)(
          {
            name: main.text.name,
            position: category.position,
            icon: icon ? relativeTo(sub, await placeFile(icon, sub)) : undefined,
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
        const translated = await describe(version.text);
        write(
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
        translationCount++;
      }
      await writeContainer(section, category, sub);
    }
  }

  /** Content files a Markdown body shows are written at their own paths, where its relative links find them. */
  async function placeImages(html: string, folder: string) {
    for (const image of files.filter((f) => f.source_path && html.includes(`/files/${f.id}/`))) {
      await placeFile(image, folder);
    }
  }

  async function writeArticle(article: ArticleRow, file: string, folder: string) {
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
      (articleTranslations.get(article.id) ?? []).map((t) => ({
        lang: t.lang as Language,
        text: {
          title: t.title,
          html: t.body_html,
          source: t.body_source,
          key: `${article.id}:${t.lang}`,
        },
        published: t.published === 1,
      })),
      site,
    );
    /** The item's own file says what belongs to the item too; a translation's says only what a version has. */
    const document = async (
      version: Version<{ title: string; html: string; source: string | null; key: string }>,
      own: boolean,
    ) => {
      const attached: string[] = [];
      for (const attachment of attachments.get(version.text.key) ?? []) {
        attached.push(relativeTo(folder, await placeFile(attachment, folder)));
      }
      // The Markdown refers to its images by relative path; make sure they are there.
      if (version.text.source !== null) await placeImages(version.text.html, folder);
      const body = version.text.source ?? (await localiseHtml(version.text.html, folder));
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
    };
    write(file, await document(main, true));
    for (const version of others) {
      write(translationFile(file, version.lang as Language), await document(version, false));
      translationCount++;
    }
  }

  return {
    sections: sections.length,
    categories: categories.length,
    articles: articles.length,
    files: written.size,
    translations: translationCount,
  };
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
