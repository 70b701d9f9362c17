import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { isLanguage } from '../../shared/page-language.ts';

/**
 * The rules of the help centre's languages, pure: which a visitor is offered, which version of an item they read
 * (their language, else the site's, else the item's own), and which language a visitor's browser or remembered
 * choice asks for. What a language is (`isLanguage`) is the contract's (shared/page-language.ts), used here as is.
 */

export { isLanguage };
export type { Language };

/**
 * Who reads in which language: the language the visitor asked for (`?lang=`, or the site's when none), and the
 * site's own (the branding's `lang`), which is the source every translation is made from and the fallback.
 */
export interface Reading {
  lang: Language;
  site: Language;
}

/** The reading of a request that asked for `requested` (a valid language, or none) on a site in `site`. */
export const readingOf = (requested: Language | null | undefined, site: Language): Reading => ({
  lang: requested ?? site,
  site,
});

/** An item's own language: the one it was written in, or (never set) the site's, whichever that is now. */
export function ownLanguage(row: { lang: string | null }, site: Language): Language {
  return isLanguage(row.lang) ? row.lang : site;
}

/**
 * The version a visitor reads: the one in their language, else the site's (the source), else the item's own,
 * else any, in the order of LANGUAGES. `versions` are those that may be shown (published), the item's own first.
 */
export function chooseVersion<V extends { lang: string }>(versions: V[], reading: Reading): V | undefined {
  return (
    versions.find((v) => v.lang === reading.lang) ??
    versions.find((v) => v.lang === reading.site) ??
    versions[0]
  );
}

/** Orders anything with a language as LANGUAGES lists them. */
export const byLanguageOrder = (a: { lang: string }, b: { lang: string }) =>
  (LANGUAGES as readonly string[]).indexOf(a.lang) - (LANGUAGES as readonly string[]).indexOf(b.lang);

/** The languages a reader is offered: the site's first, then every other the content is in, in LANGUAGES order. */
export function contentLanguages(site: Language, found: string[]): Language[] {
  const set = new Set(found.filter(isLanguage));
  return [site, ...LANGUAGES.filter((lang) => lang !== site && set.has(lang))];
}

/**
 * The languages of an Accept-Language header, most wanted first (by q, then by order), as the help centre's: a tag
 * is taken as it is or by its primary subtag (`en-GB` is English, `pt` or `pt-PT` Brazilian Portuguese).
 */
export function acceptedLanguages(header: string | undefined, available: readonly Language[]): Language[] {
  if (!header) return [];
  const ranges = header
    .slice(0, 1000)
    .split(',')
    .slice(0, 40)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag && range.tag !== '*' && range.q > 0 && !Number.isNaN(range.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found: Language[] = [];
  for (const { tag } of ranges) {
    const match =
      available.find((lang) => lang.toLowerCase() === tag) ??
      available.find((lang) => lang.split('-')[0]?.toLowerCase() === tag.split('-')[0]);
    if (match && !found.includes(match)) found.push(match);
  }
  return found;
}

/** The site's language (the source and fallback) and every language the help centre has content in, it first. */
export interface SiteLanguages {
  site: Language;
  languages: Language[];
}

/**
 * The language a visitor who named none prefers, or null for the site's: their remembered choice when the help
 * centre has content in it, else the first of their browser's (`firstAccepted`, from Accept-Language) it has. Nobody
 * is given another language on a help centre in one.
 */
export function preferredLanguage(
  known: SiteLanguages,
  remembered: string | null,
  firstAccepted: () => Language | undefined,
): Language | null {
  if (known.languages.length < 2) return null;
  const chosen =
    isLanguage(remembered) && known.languages.includes(remembered) ? remembered : firstAccepted();
  return chosen && chosen !== known.site ? chosen : null;
}
