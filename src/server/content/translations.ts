import {
  byLanguageOrder,
  chooseVersion,
  isLanguage,
  ownLanguage,
  type Language,
  type Reading,
} from '../languages/index.ts';
import type {
  CategoryRow,
  CategoryTranslationRow,
  SectionRow,
  SectionTranslationRow,
} from '../db/tables.ts';

/**
 * Which version of a section, category or article a reader gets, by the language rules of languages/ (their
 * language, else the site's, else the item's own).
 */

/** Translations grouped by the item they translate, each list in the order of LANGUAGES. */
export function groupTranslations<T extends { lang: string }>(
  rows: T[],
  itemOf: (row: T) => number,
): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const list = groups.get(itemOf(row)) ?? [];
    list.push(row);
    groups.set(itemOf(row), list);
  }
  for (const list of groups.values()) list.sort(byLanguageOrder);
  return groups;
}

export interface ShownName {
  name: string;
  lang: Language;
}

export interface ShownCategory extends ShownName {
  description: string;
}

/** Names of sections and texts of categories in the reader's language, or the best there is (chooseVersion). */
export interface TreeLanguage {
  reading: Reading;
  section(row: SectionRow): ShownName;
  category(row: CategoryRow): ShownCategory;
}

export function treeLanguage(
  reading: Reading,
  sectionTranslations: SectionTranslationRow[],
  categoryTranslations: CategoryTranslationRow[],
): TreeLanguage {
  const sections = groupTranslations(sectionTranslations, (row) => row.section_id);
  const categories = groupTranslations(categoryTranslations, (row) => row.category_id);
  return {
    reading,
    section: (row) => {
      const own = { name: row.name, lang: ownLanguage(row, reading.site) };
      const others = (sections.get(row.id) ?? []).filter((t) => t.lang !== own.lang);
      const chosen = chooseVersion([own, ...others], reading) ?? own;
      return { name: chosen.name, lang: chosen.lang as Language };
    },
    category: (row) => {
      const own = { name: row.name, description: row.description, lang: ownLanguage(row, reading.site) };
      const others = (categories.get(row.id) ?? []).filter((t) => t.lang !== own.lang);
      const chosen = chooseVersion([own, ...others], reading) ?? own;
      return { name: chosen.name, description: chosen.description, lang: chosen.lang as Language };
    },
  };
}

/** Which version of an article a reader gets: its own (`translation` null) or a translation, and its language. */
export interface ShownVersion<T> {
  lang: Language;
  translation: T | null;
}

/**
 * The version of an article a reader gets, from the article's row and its published translations (those in the
 * reader's and the site's language at least). Undefined when no version may be shown: the row is a draft and no
 * translation is published.
 */
export function shownVersion<T extends { lang: string }>(
  row: { lang: string | null; published: number },
  translations: T[],
  reading: Reading,
): ShownVersion<T> | undefined {
  const lang = ownLanguage(row, reading.site);
  const own: ShownVersion<T>[] = row.published === 1 ? [{ lang, translation: null }] : [];
  const others = translations
    .filter((t) => t.lang !== lang && isLanguage(t.lang))
    .sort(byLanguageOrder)
    .map((t) => ({ lang: t.lang as Language, translation: t }));
  return chooseVersion([...own, ...others], reading);
}
