import crypto from 'node:crypto';
import { href } from '../../shared/paths.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { signingKey } from '../settings/signing-keys.ts';

/** Long enough for a team to work through a backlog; the receiver keeps the file if it needs it for longer. */
export const FILE_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const linkKey = signingKey('ticket_file_link_key');

const signatureOf = (key: Buffer, fileId: number, expires: number) =>
  crypto.createHmac('sha256', key).update(`ticket-file:${fileId}:${expires}`).digest('hex');

/** The path and query of a link that downloads one private upload, without signing in, until it expires. */
export async function signFilePath(db: Db, fileId: number, now = Date.now()): Promise<string> {
  const expires = now + FILE_LINK_LIFETIME_MS;
  const signature = signatureOf(await linkKey(db), fileId, expires);
  return `${href.ticketFile(fileId)}?expires=${expires}&signature=${signature}`;
}

/** A link that lets whoever holds it download one private upload, without signing in, until it expires. */
export async function signFileLink(ctx: AppContext, fileId: number, now = Date.now()): Promise<string> {
  return `${ctx.config.publicUrl}${await signFilePath(ctx.db, fileId, now)}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Download paths for many files at once, by id: for the answers that list a request's files. They run from the next
 * midnight (UTC), so an answer read twice in a day carries the same links (30 to 31 days of life).
 */
export async function signFilePaths(
  db: Db,
  fileIds: number[],
  now = Date.now(),
): Promise<Map<number, string>> {
  const from = Math.ceil(now / DAY_MS) * DAY_MS;
  const paths = await Promise.all(fileIds.map(async (id) => [id, await signFilePath(db, id, from)] as const));
  return new Map(paths);
}

export async function isValidFileLink(
  db: Db,
  fileId: number,
  expires: string | undefined,
  signature: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!expires || !signature || !/^\d{1,15}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
    return false;
  if (Number(expires) <= now) return false;
  const expected = Buffer.from(signatureOf(await linkKey(db), fileId, Number(expires)), 'hex');
  return crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
