import { Value } from 'typebox/value';
import { Branding, LANGUAGES, type FooterLink, type Language } from '../../shared/api/settings.ts';
import { footerLabelProblem, footerUrlProblem } from '../../shared/footer-links.ts';
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
  footer_links: [],
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

/**
 * The branding in a reader's language: its titles there, else the site's own titles (often a name, better than a
 * generic phrase), else the interface's default in the reader's language.
 */
export function brandingIn(branding: Branding, lang: Language): Branding {
  if (lang === branding.lang) return withDefaultTitles(branding);
  const own = branding.titles?.[lang] ?? {};
  const defaults = DEFAULT_TITLES[lang] ?? DEFAULT_TITLES.en;
  return {
    ...branding,
    knowledge_title: own.knowledge_title || branding.knowledge_title || defaults.knowledge_title,
    site_title: own.site_title || branding.site_title || defaults.site_title,
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
    throw invalidBranding(first?.instancePath ?? '', first?.message ?? 'is invalid');
  }
  checkFooterLinks(next.footer_links);
  await writeSetting(db, 'branding', next);
  return next;
}

/** The error shape's field is written with dots, as the request checks name nested fields (`footer_links.0.url`). */
function invalidBranding(path: string, message: string): ApiError {
  const field = path.replace(/^\//, '').replaceAll('/', '.') || 'branding';
  return new ApiError(400, 'invalid_branding', `${field} ${message}`, [{ field, message }]);
}

/** A footer link leads to a web page or a page of this site: `javascript:`, `data:` and the like are refused. */
function checkFooterLinks(links: FooterLink[]): void {
  links.forEach(({ label, url }, index) => {
    const labelProblem = footerLabelProblem(label);
    if (labelProblem) throw invalidBranding(`footer_links/${index}/label`, labelProblem);
    const urlProblem = footerUrlProblem(url);
    if (urlProblem) throw invalidBranding(`footer_links/${index}/url`, urlProblem);
  });
}

/** Labels and addresses as the operator meant them: without the spaces around them. */
export const trimFooterLinks = (links: FooterLink[]): FooterLink[] =>
  links.map(({ label, url }) => ({ label: label.trim(), url: url.trim() }));

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
    case 'footer_links':
      return { footer_links: parseFooterLinks(raw) };
    case 'project_id':
    case 'logo_url':
    case 'background_url':
      return { [key]: raw.trim() === '' ? null : raw.trim() };
    default:
      throw new Error(`unknown branding key "${key}" (known: ${BRANDING_KEYS.join(', ')}, logo, background)`);
  }
}

/**
 * `Status=https://status.example.com;Privacy=/privacy`: links apart by `;`, each label and address apart by its
 * first `=` (so a label holds neither; an address may hold `=`). Empty removes them all.
 */
export function parseFooterLinks(raw: string): FooterLink[] {
  if (raw.trim() === '') return [];
  return raw
    .split(';')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const index = part.indexOf('=');
      if (index < 0) throw new Error(`footer_links: "${part.trim()}" is not LABEL=URL`);
      return { label: part.slice(0, index).trim(), url: part.slice(index + 1).trim() };
    });
}

/** A branding value as `branding show` prints it and `branding set` reads it back. */
export function formatBrandingValue(value: Branding[keyof Branding]): string {
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? item : `${item.label}=${item.url}`)).join(';');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value ?? '');
}

export function parseBoolean(raw: string): boolean | undefined {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  return undefined;
}
