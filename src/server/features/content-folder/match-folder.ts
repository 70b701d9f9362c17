import path from 'node:path';
import { FolderError } from './front-matter.ts';
import { formatItemId, stampOf, type ItemKind } from './folder-ids.ts';
import { CATEGORY_FILE, SECTION_FILE, type ContentFolder } from './read-folder.ts';

interface Row {
  id: number;
  source_path: string | null;
}

interface ItemRow extends Row {
  created_at: number;
}

interface FileRow extends Row {
  original_name: string;
}

interface Item {
  path: string;
  id: number | null;
  stamp: number | null;
}

/** What an operator knows an item by: its title, or its name. */
const labelOf = (row: object) => {
  const { title, name } = row as { title?: unknown; name?: unknown };
  return JSON.stringify(title ?? name ?? '');
};

/** The stored row each item of the folder is, by the item's path; an item without one is new. */
export interface FolderMatches<S extends ItemRow, C extends ItemRow, A extends ItemRow, F extends FileRow> {
  sections: Map<string, S>;
  categories: Map<string, C>;
  articles: Map<string, A>;
  files: Map<string, F>;
}

/**
 * New items whose file gives an id this help centre gave but no row has any more (deleted since the export): they
 * come back under that id, made when the stamp says (so the folder's stamp is theirs again), so that the folder and
 * every later export agree on which item they are.
 */
export interface RevivedId {
  id: number;
  createdAt: number | null;
}

export interface RevivedIds {
  sections: Map<string, RevivedId>;
  categories: Map<string, RevivedId>;
  articles: Map<string, RevivedId>;
}

/** The highest id each table has given (its sequence; deleted rows count): ids above it were never this database's. */
export interface HighestIds {
  sections: number;
  categories: number;
  articles: number;
}

/** The file that says an item's id, as the operator sees it. */
const fileOf = (kind: ItemKind, itemPath: string) =>
  kind === 'section'
    ? path.posix.join(itemPath, SECTION_FILE)
    : kind === 'category'
      ? path.posix.join(itemPath, CATEGORY_FILE)
      : itemPath;

const sourceOf = (row: Row | undefined) =>
  row === undefined
    ? 'no longer exists'
    : row.source_path === null
      ? 'was written in the admin'
      : `came from ${row.source_path}`;

/**
 * Finds the stored row of every item of the folder: by its path first (what an earlier import stored as the row's
 * source path), then, when `useIds`, by the id its file gives. An id names a row when the number is the row's and its
 * stamp (if it has one: ids written before stamps match by number) is the row's creation time; a number whose stamp is
 * another's was given to another item, in another copy of the database. A path and an id that name two different rows,
 * an id given to another item, an id never given, or one row claimed by two paths, is a problem naming both; the
 * caller stores nothing then.
 */
function matchItems<R extends ItemRow>(
  kind: ItemKind,
  items: Item[],
  rows: R[],
  useIds: boolean,
  highest: number,
  errors: FolderError[],
  revived: Map<string, RevivedId>,
): Map<string, R> {
  const byPath = new Map(rows.flatMap((row) => (row.source_path === null ? [] : [[row.source_path, row]])));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const matched = new Map<string, R>();
  const claimedBy = new Map<number, string>();
  const idOf = (row: R) => formatItemId(kind, row.id, row.created_at);
  const names = (item: Item, row: R) =>
    item.id === row.id && (item.stamp === null || item.stamp === stampOf(row.created_at));
  for (const item of items) {
    const file = fileOf(kind, item.path);
    const atPath = byPath.get(item.path);
    const said = useIds ? item.id : null;
    const saidText = said === null ? '' : formatItemId(kind, said, item.stamp);
    const byNumber = said === null ? undefined : byId.get(said);
    if (byNumber && !names(item, byNumber)) {
      errors.push(
        new FolderError(
          file,
          `says id ${saidText}, but ${formatItemId(kind, byNumber.id)} here is another ${kind}, ${labelOf(byNumber)} (${idOf(byNumber)}, which ${sourceOf(byNumber)}): they were made apart, in two copies of one database; remove the id line to import the file as ${atPath ? `${formatItemId(kind, atPath.id)}, whose path it has` : `a new ${kind}`}`,
        ),
      );
      continue;
    }
    if (atPath && said !== null && atPath.id !== said) {
      errors.push(
        new FolderError(
          file,
          `says id ${saidText}, but ${item.path} is where ${formatItemId(kind, atPath.id)} came from (${formatItemId(kind, said)} ${sourceOf(byNumber)}): correct the id, or remove its line to import the file as ${formatItemId(kind, atPath.id)}`,
        ),
      );
      continue;
    }
    const row = atPath ?? byNumber;
    if (!row) {
      if (said === null) continue;
      if (said > highest)
        errors.push(
          new FolderError(
            file,
            `id ${saidText} was never given by this help centre: correct it, or remove the id line to import the file as a new ${kind}`,
          ),
        );
      else revived.set(item.path, { id: said, createdAt: item.stamp });
      continue;
    }
    const other = claimedBy.get(row.id);
    if (other !== undefined) {
      errors.push(
        new FolderError(
          file,
          `is ${formatItemId(kind, row.id)} (${atPath ? 'its path' : 'its id'}), and so is ${fileOf(kind, other)}: one ${kind} cannot be at two places; remove the id line of the one that is a copy`,
        ),
      );
      continue;
    }
    claimedBy.set(row.id, item.path);
    matched.set(item.path, row);
  }
  return matched;
}

/**
 * Content files: by path, then (when `useIds`) a file the export wrote as `_files/ID/name`, which it does for a file
 * uploaded in the admin, is that upload when it still has that id and name and no source path.
 */
function matchFiles<F extends FileRow>(assets: string[], rows: F[], useIds: boolean): Map<string, F> {
  const byPath = new Map(rows.flatMap((row) => (row.source_path === null ? [] : [[row.source_path, row]])));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const matched = new Map<string, F>();
  const claimed = new Set<number>();
  for (const asset of assets) {
    let row = byPath.get(asset);
    const exported = /(?:^|\/)_files\/([1-9][0-9]{0,14})\/([^/]+)$/.exec(asset);
    if (!row && useIds && exported) {
      const upload = byId.get(Number(exported[1]));
      if (upload?.source_path === null && upload.original_name === exported[2] && !claimed.has(upload.id))
        row = upload;
    }
    if (row && !claimed.has(row.id)) {
      claimed.add(row.id);
      matched.set(asset, row);
    }
  }
  return matched;
}

export function matchFolder<S extends ItemRow, C extends ItemRow, A extends ItemRow, F extends FileRow>(
  folder: ContentFolder,
  rows: { sections: S[]; categories: C[]; articles: A[]; files: F[] },
  useIds: boolean,
  highest: HighestIds,
): { matches: FolderMatches<S, C, A, F>; revived: RevivedIds; errors: FolderError[] } {
  const errors: FolderError[] = [];
  const revived: RevivedIds = { sections: new Map(), categories: new Map(), articles: new Map() };
  const matches = {
    sections: matchItems(
      'section',
      folder.sections,
      rows.sections,
      useIds,
      highest.sections,
      errors,
      revived.sections,
    ),
    categories: matchItems(
      'category',
      folder.categories,
      rows.categories,
      useIds,
      highest.categories,
      errors,
      revived.categories,
    ),
    articles: matchItems(
      'article',
      folder.articles,
      rows.articles,
      useIds,
      highest.articles,
      errors,
      revived.articles,
    ),
    files: matchFiles(folder.assets, rows.files, useIds),
  };
  return { matches, revived, errors };
}
