import { href } from '../../shared/paths.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { nextMidnight, signedLinks } from '../lib/signed-links.ts';

/** Long enough for a team to work through a backlog; the receiver keeps the file if it needs it for longer. */
export const FILE_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const links = signedLinks('ticket_file_link_key', 'ticket-file');

/** The path and query of a link that downloads one private upload, without signing in, until it expires. */
export async function signFilePath(db: Db, fileId: number, now = Date.now()): Promise<string> {
  const sign = await links.signer(db);
  return `${href.ticketFile(fileId)}?${sign(fileId, now + FILE_LINK_LIFETIME_MS)}`;
}

/** A link that lets whoever holds it download one private upload, without signing in, until it expires. */
export async function signFileLink(ctx: AppContext, fileId: number, now = Date.now()): Promise<string> {
  return `${ctx.config.publicUrl}${await signFilePath(ctx.db, fileId, now)}`;
}

/**
 * Download paths for many files at once, by id: for the answers that list a request's files. They run from the next
 * midnight (UTC), so an answer read twice in a day carries the same links (30 to 31 days of life).
 */
export async function signFilePaths(
  db: Db,
  fileIds: number[],
  now = Date.now(),
): Promise<Map<number, string>> {
  const from = nextMidnight(now);
  const paths = await Promise.all(fileIds.map(async (id) => [id, await signFilePath(db, id, from)] as const));
  return new Map(paths);
}

/** Whether a ticket file's link is one this server signed for that file, and has not expired. */
export const isValidFileLink = links.isValid;
