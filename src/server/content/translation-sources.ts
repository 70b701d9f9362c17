import type { TranslationSummary } from '../../shared/api/admin.ts';
import type { SourceText } from '../../shared/api/admin-translations.ts';
import type { Language } from '../../shared/constants.ts';
import { isLanguage, ownLanguage } from '../languages/index.ts';

/**
 * Where a translation comes from and whether it is outdated. The source of a translation is the item's version in
 * the site's language (the row when that is its own, else a translation into it), else the row itself; its text is
 * kept as `source_text` (JSON, fields in a fixed order) with `source_lang` each time the translation is saved, and
 * the translation is outdated once the source's current text or language differs from what was kept.
 */

/** What the source version of each kind says, in a fixed order so the JSON compares as text. */
export type TextOf<V> = (version: V) => SourceText;

export const sectionText = (v: { name: string }): SourceText => ({ name: v.name });
export const categoryText = (v: { name: string; description: string }): SourceText => ({
  name: v.name,
  description: v.description,
});
export const articleText = (v: { title: string; body_html: string }): SourceText => ({
  title: v.title,
  body_html: v.body_html,
});

export const snapshot = (text: SourceText): string => JSON.stringify(text);

export function parseSnapshot(raw: string | null): SourceText | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return null;
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return null;
  }
}

interface TranslationLike {
  lang: string;
  published: number;
  source_lang: string | null;
  source_text: string | null;
  updated_at: number;
}

export interface SourceVersion<V> {
  lang: Language;
  version: V;
}

/**
 * The source of the item's translation into `lang`: the version in the site's language unless that is the one
 * being translated, else the row (the item's own version).
 */
export function sourceOf<R extends { lang: string | null }, T extends { lang: string }>(
  row: R,
  translations: T[],
  lang: Language,
  site: Language,
): SourceVersion<R | T> {
  const own = ownLanguage(row, site);
  if (lang !== site && own !== site) {
    const inSite = translations.find((t) => t.lang === site);
    if (inSite) return { lang: site, version: inSite };
  }
  return { lang: own, version: row };
}

/** Whether the translation was saved against another text or language than its source's now. */
export function isOutdated(translation: TranslationLike, source: SourceVersion<unknown>, text: SourceText) {
  if (translation.source_text === null) return false;
  return translation.source_lang !== source.lang || translation.source_text !== snapshot(text);
}

/** The summary every admin answer of an item carries: each translation with its state, in LANGUAGES order. */
export function summarise<R extends { lang: string | null }, T extends TranslationLike>(
  row: R,
  translations: T[],
  site: Language,
  textOf: TextOf<R | T>,
): TranslationSummary[] {
  const own = ownLanguage(row, site);
  return translations
    .filter((t) => isLanguage(t.lang) && t.lang !== own)
    .map((t) => {
      const source = sourceOf(row, translations, t.lang as Language, site);
      return {
        lang: t.lang as Language,
        published: t.published === 1,
        outdated: isOutdated(t, source, textOf(source.version)),
        updated_at: new Date(Number(t.updated_at)).toISOString(),
      };
    });
}
