import path from 'node:path';
import { FolderError } from './front-matter.ts';
import { formatItemId, type ItemKind } from './folder-ids.ts';
import { CATEGORY_FILE, SECTION_FILE, type ContentFolder } from './read-folder.ts';

interface Row {
  id: number;
  source_path: string | null;
}

interface FileRow extends Row {
  original_name: string;
}

interface Item {
  path: string;
  id: number | null;
}

/** The stored row each item of the folder is, by the item's path; an item without one is new. */
export interface FolderMatches<S extends Row, C extends Row, A extends Row, F extends FileRow> {
  sections: Map<string, S>;
  categories: Map<string, C>;
  articles: Map<string, A>;
  files: Map<string, F>;
}

/**
 * New items whose file gives an id of this help centre that no row has any more (deleted since the export): they
 * come back under that id, so that the folder and every later export agree on which item they are.
 */
export interface RevivedIds {
  sections: Map<string, number>;
  categories: Map<string, number>;
  articles: Map<string, number>;
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
 * source path), then, when `useIds`, by the id its file gives. A path and an id that name two different rows, or one
 * row claimed by two paths, is a problem naming both; the caller stores nothing then.
 */
function matchItems<R extends Row>(
  kind: ItemKind,
  items: Item[],
  rows: R[],
  useIds: boolean,
  errors: FolderError[],
  revived: Map<string, number>,
): Map<string, R> {
  const byPath = new Map(rows.flatMap((row) => (row.source_path === null ? [] : [[row.source_path, row]])));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const matched = new Map<string, R>();
  const claimedBy = new Map<number, string>();
  for (const item of items) {
    const file = fileOf(kind, item.path);
    const atPath = byPath.get(item.path);
    const said = useIds ? item.id : null;
    if (atPath && said !== null && atPath.id !== said) {
      errors.push(
        new FolderError(
          file,
          `says id ${formatItemId(kind, said)}, but ${item.path} is where ${formatItemId(kind, atPath.id)} came from (${formatItemId(kind, said)} ${sourceOf(byId.get(said))}): correct the id, or remove its line to import the file as ${formatItemId(kind, atPath.id)}`,
        ),
      );
      continue;
    }
    const row = atPath ?? (said === null ? undefined : byId.get(said));
    if (!row) {
      if (said !== null) revived.set(item.path, said);
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

export function matchFolder<S extends Row, C extends Row, A extends Row, F extends FileRow>(
  folder: ContentFolder,
  rows: { sections: S[]; categories: C[]; articles: A[]; files: F[] },
  useIds: boolean,
): { matches: FolderMatches<S, C, A, F>; revived: RevivedIds; errors: FolderError[] } {
  const errors: FolderError[] = [];
  const revived: RevivedIds = { sections: new Map(), categories: new Map(), articles: new Map() };
  const matches = {
    sections: matchItems('section', folder.sections, rows.sections, useIds, errors, revived.sections),
    categories: matchItems(
      'category',
      folder.categories,
      rows.categories,
      useIds,
      errors,
      revived.categories,
    ),
    articles: matchItems('article', folder.articles, rows.articles, useIds, errors, revived.articles),
    files: matchFiles(folder.assets, rows.files, useIds),
  };
  return { matches, revived, errors };
}
