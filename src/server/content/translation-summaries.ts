import type { TranslationSummary } from '../../shared/api/admin.ts';
import type { Executor } from '../db/database.ts';
import type { ArticleRow, CategoryRow, SectionRow } from '../db/tables.ts';
import { siteLanguage } from '../languages/index.ts';
import { articleText, categoryText, sectionText, summarise } from './translation-sources.ts';
import { groupTranslations } from './translations.ts';
import {
  listArticleTranslations,
  listCategoryTranslations,
  listSectionTranslations,
} from './translations.repository.ts';

export async function sectionSummaries(
  db: Executor,
  rows: SectionRow[],
): Promise<Map<number, TranslationSummary[]>> {
  const [site, translations] = await Promise.all([
    siteLanguage(db),
    listSectionTranslations(db, rows.length > 50 ? undefined : rows.map((r) => r.id)),
  ]);
  const grouped = groupTranslations(translations, (t) => t.section_id);
  return new Map(rows.map((row) => [row.id, summarise(row, grouped.get(row.id) ?? [], site, sectionText)]));
}

export async function categorySummaries(
  db: Executor,
  rows: CategoryRow[],
): Promise<Map<number, TranslationSummary[]>> {
  const [site, translations] = await Promise.all([
    siteLanguage(db),
    listCategoryTranslations(db, rows.length > 50 ? undefined : rows.map((r) => r.id)),
  ]);
  const grouped = groupTranslations(translations, (t) => t.category_id);
  return new Map(
    rows.map((row) => [row.id, summarise(row, grouped.get(row.id) ?? [], site, categoryText)]),
  );
}

export async function articleSummary(db: Executor, row: ArticleRow): Promise<TranslationSummary[]> {
  const [site, translations] = await Promise.all([siteLanguage(db), listArticleTranslations(db, [row.id])]);
  return summarise(row, groupTranslations(translations, () => row.id).get(row.id) ?? [], site, articleText);
}
