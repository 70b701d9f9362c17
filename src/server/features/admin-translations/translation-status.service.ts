import {
  TRANSLATION_STATUS_LIMIT,
  type TranslationCounts,
  type TranslationKind,
  type TranslationStatus,
  type TranslationStatusItem,
} from '../../../shared/api/admin-translations.ts';
import { LANGUAGES, type Language } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import { listAllCategories, listAllSections } from '../../content/content.repository.ts';
import {
  articleText,
  categoryText,
  isOutdated,
  sectionText,
  sourceOf,
  type TextOf,
} from '../../content/translation-sources.ts';
import { groupTranslations } from '../../content/translations.ts';
import { ownLanguage, siteLanguage } from '../../languages/index.ts';
import {
  listArticleTranslations,
  listCategoryTranslations,
  listSectionTranslations,
} from '../../content/translations.repository.ts';
import { listArticleTexts } from './admin-translations.repository.ts';

interface Version {
  lang: string;
  published: number;
  source_lang: string | null;
  source_text: string | null;
  updated_at: number;
}

/** One item of any kind, its text read through functions of its kind. */
interface Item {
  kind: TranslationKind;
  row: { id: number; lang: string | null };
  translations: Version[];
  textOf: TextOf<unknown>;
  title: (version: unknown) => string;
  published: boolean;
}

const loosely = <V, A>(f: (version: V) => A) => f as (version: unknown) => A;

/**
 * Per language, what the team has left to do: items with no version in it (for the site's language, items written
 * only in others), translations whose source changed since they were saved, and those not yet published.
 */
export async function getTranslationStatus(db: Executor, wanted?: Language): Promise<TranslationStatus> {
  const [site, sections, categories, articles, sectionRows, categoryRows, articleRows] = await Promise.all([
    siteLanguage(db),
    listAllSections(db),
    listAllCategories(db),
    listArticleTexts(db),
    listSectionTranslations(db),
    listCategoryTranslations(db),
    listArticleTranslations(db),
  ]);
  const lang = wanted ?? LANGUAGES.find((l) => l !== site) ?? site;
  const bySection = groupTranslations(sectionRows, (t) => t.section_id);
  const byCategory = groupTranslations(categoryRows, (t) => t.category_id);
  const byArticle = groupTranslations(articleRows, (t) => t.article_id);
  const items: Item[] = [
    ...sections.map((row) => ({
      kind: 'section' as const,
      row,
      translations: bySection.get(row.id) ?? [],
      textOf: loosely(sectionText),
      title: loosely((v: { name: string }) => v.name),
      published: true,
    })),
    ...categories.map((row) => ({
      kind: 'category' as const,
      row,
      translations: byCategory.get(row.id) ?? [],
      textOf: loosely(categoryText),
      title: loosely((v: { name: string }) => v.name),
      published: true,
    })),
    ...articles.map((row) => ({
      kind: 'article' as const,
      row,
      translations: byArticle.get(row.id) ?? [],
      textOf: loosely(articleText),
      title: loosely((v: { title: string }) => v.title),
      published: row.published === 1,
    })),
  ];

  const counts: TranslationCounts[] = LANGUAGES.map((l) => ({
    lang: l,
    missing: 0,
    outdated: 0,
    unpublished: 0,
    done: 0,
  }));
  const missing: TranslationStatusItem[] = [];
  const outdated: TranslationStatusItem[] = [];
  for (const item of items) {
    const own = ownLanguage(item.row, site);
    for (const count of counts) {
      if (count.lang === own) continue;
      const source = sourceOf(item.row, item.translations, count.lang, site);
      const listed = (): TranslationStatusItem => ({
        kind: item.kind,
        id: item.row.id,
        title: item.title(source.version),
        source_lang: source.lang,
        item_published: item.published,
        updated_at: translation ? new Date(Number(translation.updated_at)).toISOString() : null,
      });
      const translation = item.translations.find((t) => t.lang === count.lang);
      if (!translation) {
        count.missing++;
        if (count.lang === lang && missing.length < TRANSLATION_STATUS_LIMIT) missing.push(listed());
        continue;
      }
      const stale = isOutdated(translation, source, item.textOf(source.version));
      if (stale) {
        count.outdated++;
        if (count.lang === lang && outdated.length < TRANSLATION_STATUS_LIMIT) outdated.push(listed());
      }
      if (translation.published !== 1) count.unpublished++;
      else if (!stale) count.done++;
    }
  }
  return { site, counts, lang, missing, outdated };
}
