import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { deleteSaltsBefore, findSalt, insertSaltIfAbsent } from './daily-salts.repository.ts';

/** The UTC day of a time, as YYYY-MM-DD: the span a visitor's key lasts. */
export const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

/**
 * The day's salt: made by the first count of the day (on any server), and the earlier days' deleted then, so an
 * key can be made again from an address only on the day it was made.
 */
async function saltOf(db: Executor, day: string): Promise<Buffer> {
  let row = await findSalt(db, day);
  if (!row) {
    await insertSaltIfAbsent(db, day, crypto.randomBytes(32).toString('base64'));
    await deleteSaltsBefore(db, day);
    row = await findSalt(db, day);
    if (!row) throw new Error(`the salt of ${day} could not be stored`);
  }
  return Buffer.from(row.salt, 'base64');
}

/**
 * A client as far as a count needs it: one key per client address, subject and day, from which no address comes back
 * once the day's salt is gone. Feedback uses the article's id as the subject; search's votes use `search\n` + query.
 */
export async function dailyClientKey(
  db: Executor,
  client: string,
  subject: string,
  now: number,
): Promise<string> {
  const salt = await saltOf(db, dayOf(now));
  return crypto.createHmac('sha256', salt).update(`${client}\n${subject}`).digest('hex');
}

/** Deletes the salts of days gone by: run hourly, so none outlives its day by long when nobody comes. */
export const forgetOldSalts = (db: Executor, now = Date.now()) => deleteSaltsBefore(db, dayOf(now));
