import { Value } from 'typebox/value';
import { Branding, LANGUAGES, type Language } from '../../shared/api/settings.ts';
import type { Db, Executor, Tx } from '../db/database.ts';
import { lockSetting, readSetting, writeSetting } from './settings.repository.ts';
import { ApiError } from '../http/errors.ts';
import { DEFAULT_TITLES } from '../../shared/default-titles.ts';

export const DEFAULT_BRANDING: Branding = {
  knowledge_enabled: true,
  portal_enabled: false,
  logo_url: null,
  background_url: null,
  project_id: null,
  // Empty: the interface's default in the site's language (DEFAULT_TITLES), so it follows `lang`.
  knowledge_title: '',
  site_title: '',
  lang: 'en',
};

/** The branding as the operator set it: an empty title means "the default" (what the admin app edits). */
export async function getStoredBranding(db: Executor): Promise<Branding> {
  const stored = (await readSetting<Partial<Branding>>(db, 'branding')) ?? {};
  return { ...DEFAULT_BRANDING, ...stored };
}

/** The branding as visitors get it: a title left empty is the interface's default in the site's language. */
export function withDefaultTitles(branding: Branding): Branding {
  const defaults = DEFAULT_TITLES[branding.lang] ?? DEFAULT_TITLES.en;
  return {
    ...branding,
    knowledge_title: branding.knowledge_title || defaults.knowledge_title,
    site_title: branding.site_title || defaults.site_title,
  };
}

/** The branding as visitors get it (see withDefaultTitles). */
export async function getBranding(db: Executor): Promise<Branding> {
  return withDefaultTitles(await getStoredBranding(db));
}

/**
 * Takes the branding row's lock for the rest of the transaction (a no-op upsert, which also creates the row the
 * first time), so that two changes made at the same moment are merged one after the other rather than the second
 * writing over the first from the same stale read (PostgreSQL at READ COMMITTED; SQLite transactions already run
 * one at a time). The statement works on both databases, unlike SELECT ... FOR UPDATE.
 */
async function lockBranding(trx: Tx): Promise<void> {
  await lockSetting(trx, 'branding', {});
}

/**
 * Merges the changes into the stored branding, checked as a whole; in a transaction of its own unless given one.
 * Answers the stored branding (titles left empty stay empty).
 */
export async function updateBranding(db: Executor, changes: Partial<Branding>): Promise<Branding> {
  if (!db.isTransaction) return (db as Db).transaction().execute((trx) => updateBranding(trx, changes));
  await lockBranding(db as Tx);
  const next = { ...(await getStoredBranding(db)), ...changes };
  if (!Value.Check(Branding, next)) {
    const first = [...Value.Errors(Branding, next)][0];
    const field = first?.instancePath.replace(/^\//, '') || 'branding';
    throw new ApiError(400, 'invalid_branding', `${field} ${first?.message ?? 'is invalid'}`, [
      { field, message: first?.message ?? 'is invalid' },
    ]);
  }
  await writeSetting(db, 'branding', next);
  return next;
}

export const BRANDING_KEYS = Object.keys(DEFAULT_BRANDING) as (keyof Branding)[];

/** Turns the text an operator typed (`portal_enabled=yes`) into a branding value, or says why it cannot. */
export function parseBrandingValue(key: string, raw: string): Partial<Branding> {
  switch (key) {
    case 'knowledge_enabled':
    case 'portal_enabled': {
      const value = parseBoolean(raw);
      if (value === undefined) throw new Error(`${key} must be true or false, not "${raw}"`);
      return { [key]: value };
    }
    case 'lang':
      if (!(LANGUAGES as readonly string[]).includes(raw)) {
        throw new Error(`lang must be one of ${LANGUAGES.join(', ')}, not "${raw}"`);
      }
      return { lang: raw as Language };
    case 'knowledge_title':
    case 'site_title':
      // Empty brings back the interface's default, in the site's language.
      return { [key]: raw.trim() };
    case 'project_id':
    case 'logo_url':
    case 'background_url':
      return { [key]: raw.trim() === '' ? null : raw.trim() };
    default:
      throw new Error(`unknown branding key "${key}" (known: ${BRANDING_KEYS.join(', ')}, logo, background)`);
  }
}

export function parseBoolean(raw: string): boolean | undefined {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  return undefined;
}
