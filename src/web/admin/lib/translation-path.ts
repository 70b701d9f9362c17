import type { TranslationKind } from '../../../shared/api/admin-translations.ts';
import type { Language } from '../../../shared/constants.ts';

const PLURAL: Record<TranslationKind, string> = {
  section: 'sections',
  category: 'categories',
  article: 'articles',
};

/** Where a translation of an item is edited, side by side with its source. */
export const translationPath = (kind: TranslationKind, id: number, lang: Language) =>
  `/${PLURAL[kind]}/${id}/translations/${lang}`;
