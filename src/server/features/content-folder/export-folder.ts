import fs from 'node:fs';
import path from 'node:path';
import { readSynonyms } from '../../search/synonyms.ts';
import { formatSynonymsFile, SYNONYMS_FILE } from './synonyms-file.ts';
import type { AppContext } from '../../context.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import { readAll } from '../../storage/file-storage.ts';
import { readAllContent } from './content-folder.repository.ts';
import { formatDocument } from './front-matter.ts';
import type { Visibility } from '../../../shared/constants.ts';
import { CATEGORY_FILE, SECTION_FILE } from './read-folder.ts';

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

/** Gives each child of one folder a name no sibling has taken. */
function nameTaker(reserved: string[] = []) {
  const taken = new Set(reserved.map((n) => n.toLowerCase()));
  return (wanted: string, extension = '') => {
    let name = `${wanted}${extension}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wanted}-${n}${extension}`;
    taken.add(name.toLowerCase());
    return name;
  };
}

const baseName = (sourcePath: string | null) => (sourcePath ? path.posix.basename(sourcePath) : undefined);

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

  const attachments = new Map<number, FileRow[]>();
  for (const link of links) {
    const file = fileById.get(link.file_id);
    if (file) attachments.set(link.article_id, [...(attachments.get(link.article_id) ?? []), file]);
  }

  write(SYNONYMS_FILE, formatSynonymsFile((await readSynonyms(ctx.db)).sets));
  const takeSectionName = nameTaker();
  for (const section of sections) {
    const folder = takeSectionName(
      baseName(section.source_path) ?? slugify(section.name, `section-${section.id}`),
    );
    write(
      path.posix.join(folder, SECTION_FILE),
      formatDocument({ name: section.name, position: section.position, ...visibilityOf(section) }, ''),
    );
    await writeContainer(section, null, folder);
  }

  async function writeContainer(section: SectionRow, parent: CategoryRow | null, folder: string) {
    const take = nameTaker([SECTION_FILE, CATEGORY_FILE]);
    const here = articles.filter(
      (a) => a.section_id === section.id && a.category_id === (parent?.id ?? null),
    );
    for (const article of here) {
      const fileName = take(
        (baseName(article.source_path) ?? slugify(article.title, `article-${article.id}`)).replace(
          /\.md$/i,
          '',
        ),
        '.md',
      );
      await writeArticle(article, path.posix.join(folder, fileName), folder);
    }
    const children = categories.filter(
      (c) => c.section_id === section.id && c.parent_id === (parent?.id ?? null),
    );
    for (const category of children) {
      const sub = path.posix.join(
        folder,
        take(baseName(category.source_path) ?? slugify(category.name, `category-${category.id}`)),
      );
      const icon = category.icon_file_id !== null ? fileById.get(category.icon_file_id) : undefined;
      const isHtml = category.description_source === null && category.description !== '';
      const body = category.description_source ?? (await localiseHtml(category.description, sub));
      write(
        path.posix.join(sub, CATEGORY_FILE),
        (isHtml ? formatHtmlDocument : formatDocument)(
          {
            name: category.name,
            position: category.position,
            icon: icon ? relativeTo(sub, await placeFile(icon, sub)) : undefined,
            font_icon: category.icon_type === 'font' ? (category.font_icon ?? undefined) : undefined,
            ...visibilityOf(category),
            // A description written in the admin is HTML: it must not go through Markdown on the way back.
            format: isHtml ? 'html' : undefined,
          },
          body,
        ),
      );
      await writeContainer(section, category, sub);
    }
  }

  async function writeArticle(article: ArticleRow, file: string, folder: string) {
    const attached: string[] = [];
    for (const attachment of attachments.get(article.id) ?? []) {
      attached.push(relativeTo(folder, await placeFile(attachment, folder)));
    }
    if (article.body_source !== null) {
      // The Markdown refers to its images by relative path; make sure they are there.
      for (const image of files.filter(
        (f) => f.source_path && article.body_html.includes(`/files/${f.id}/`),
      )) {
        await placeFile(image, folder);
      }
    }
    const body = article.body_source ?? (await localiseHtml(article.body_html, folder));
    write(
      file,
      (article.body_source === null ? formatHtmlDocument : formatDocument)(
        {
          title: article.title,
          position: article.position,
          can_create_issue: article.can_create_issue === 1,
          published: article.published === 1,
          lang: article.lang ?? undefined,
          ...visibilityOf(article),
          noindex: article.noindex === 1 ? true : undefined,
          files: attached.length ? attached : undefined,
          // A body written in the admin is HTML: imported back as it is (sanitised), never read as Markdown.
          format: article.body_source === null ? 'html' : undefined,
        },
        body,
      ),
    );
  }

  for (const category of categories) {
    if (category.description_source !== null) {
      for (const image of files.filter(
        (f) => f.source_path && category.description.includes(`/files/${f.id}/`),
      )) {
        await placeFile(image, '');
      }
    }
  }

  return {
    sections: sections.length,
    categories: categories.length,
    articles: articles.length,
    files: written.size,
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
