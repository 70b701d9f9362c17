import YAML from 'yaml';
import { FolderError } from './front-matter.ts';

/**
 * An exported folder says which item each file holds (`id: article:12@m3x9k2a1` in its front matter) and which help
 * centre the ids are of (`_origin.yml`). Paths stay the first key; the id lets an import find an item written in the
 * admin, or moved, whose path is not the one it came from. The kind is part of the id, so a file copied from another
 * kind is caught rather than matched to whatever row of its own table has that number. After the `@`, the stamp: the
 * row's creation time (milliseconds, base 36), which tells apart two items that two copies of one database (restored
 * from one backup) each made under the same number after they parted.
 */
export type ItemKind = 'section' | 'category' | 'article';

export interface ItemId {
  kind: ItemKind;
  id: number;
  /** The creation time of the row the export wrote the file from; null in ids written before stamps were. */
  stamp: number | null;
}

/** Ids are 32-bit integers on PostgreSQL; SQLite keeps to the same so that a backup restores on either. */
export const MAX_ITEM_ID = 2 ** 31 - 1;

/**
 * A row's creation time as the stamp of its id. Both databases store whole milliseconds (a bigint on PostgreSQL, an
 * integer on SQLite); any fraction a driver might give is dropped, so one row has one stamp wherever it is restored.
 */
export const stampOf = (createdAt: number | string) => Math.trunc(Number(createdAt));

export const formatItemId = (kind: ItemKind, id: number, createdAt?: number | string | null) =>
  createdAt === undefined || createdAt === null
    ? `${kind}:${id}`
    : `${kind}:${id}@${stampOf(createdAt).toString(36)}`;

/** `id:` of an item's own file, or null when it has none (a folder written by hand, or exported before ids). */
export function readItemId(file: string, value: unknown): ItemId | null {
  if (value === undefined || value === null) return null;
  const match =
    typeof value === 'string'
      ? /^(section|category|article):([1-9][0-9]{0,14})(?:@([0-9a-z]{1,10}))?$/.exec(value.trim())
      : null;
  if (!match)
    throw new FolderError(
      file,
      `id must be what the export wrote, a kind and a number such as article:12, not ${JSON.stringify(value)}`,
    );
  const kind = match[1] as ItemKind;
  const id = Number(match[2]);
  if (id > MAX_ITEM_ID)
    throw new FolderError(
      file,
      `id ${formatItemId(kind, id)} is past the highest id there can be, ${MAX_ITEM_ID}: correct it, or remove the id line`,
    );
  return { kind, id, stamp: match[3] === undefined ? null : parseInt(match[3], 36) };
}

/** At the folder's root: the help centre the folder's ids belong to. */
export const ORIGIN_FILE = '_origin.yml';
/** The setting that names this help centre in the folders it exports; a copy of the database keeps it. */
export const ORIGIN_SETTING = 'content_folder_origin';

export function formatOriginFile(origin: string): string {
  return [
    '# The help centre this folder was exported from. Importing it there (or into a copy of its database)',
    '# matches the id: of each file to the item it was exported from; anywhere else ids are ignored.',
    `help_centre: ${origin}`,
    '',
  ].join('\n');
}

export function parseOriginFile(text: string): string {
  const problem = (message: string) => new FolderError(ORIGIN_FILE, message);
  let data: unknown;
  try {
    data = YAML.parse(text);
  } catch (error) {
    throw problem(`is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  const origin = (data as { help_centre?: unknown } | null)?.help_centre;
  if (
    typeof data !== 'object' ||
    data === null ||
    Object.keys(data).some((key) => key !== 'help_centre') ||
    typeof origin !== 'string' ||
    !origin.trim()
  )
    throw problem('must hold one line, help_centre: followed by what the export wrote');
  return origin.trim();
}
