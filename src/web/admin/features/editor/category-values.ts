import type { AdminCategory, CategoryUpdateBody } from '../../../../shared/api/admin.ts';
import { isFontIcon, tidyFontIcon, type Visibility } from '../../../../shared/constants.ts';
import { readStored, removeStored, writeStored } from './local-draft.ts';

export type IconKind = 'none' | 'file' | 'font';

/**
 * What the category page changes. Each kind of icon keeps its own value while another is chosen, so switching back
 * and forth loses nothing; only the chosen kind is saved.
 */
export interface CategoryValues {
  name: string;
  description: string;
  icon_type: IconKind;
  font_icon: string;
  /** The image shown: the stored icon's or a new upload's. */
  icon_url: string | null;
  /** A new upload waiting for the save; null while the image is the stored one. */
  icon_file_id: number | null;
  visibility: Visibility;
}

export const categoryValuesOf = (category: AdminCategory): CategoryValues => ({
  name: category.name,
  description: category.description,
  icon_type: category.icon_type ?? 'none',
  font_icon: category.font_icon ?? '',
  icon_url: category.icon_url,
  icon_file_id: null,
  visibility: category.visibility,
});

/** The PATCH that turns `saved` into `values`: only what changed, so an untouched description stays as stored. */
export function categoryUpdateOf(values: CategoryValues, saved: CategoryValues): CategoryUpdateBody {
  const body: CategoryUpdateBody = {};
  if (values.name.trim() !== saved.name) body.name = values.name.trim();
  if (values.description !== saved.description) body.description = values.description;
  if (values.visibility && values.visibility !== saved.visibility) body.visibility = values.visibility;
  if (values.icon_type === 'none' && saved.icon_type !== 'none') {
    body.font_icon = null;
    body.icon_file_id = null;
  } else if (values.icon_type === 'file' && values.icon_file_id !== null) {
    body.icon_file_id = values.icon_file_id;
  } else if (
    values.icon_type === 'font' &&
    (saved.icon_type !== 'font' || tidyFontIcon(values.font_icon) !== saved.font_icon)
  ) {
    body.font_icon = tidyFontIcon(values.font_icon);
  }
  return body;
}

/** Field messages for what the server would refuse, keyed as the server keys them. */
export function checkCategory(values: CategoryValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = 'Enter a name.';
  if (values.icon_type === 'file' && !values.icon_url) errors.icon_file_id = 'Choose an image for the icon.';
  if (values.icon_type === 'font' && !isFontIcon(tidyFontIcon(values.font_icon)))
    errors.font_icon =
      'Use Font Awesome classes: lowercase letters, digits and hyphens, separated by spaces, such as fa-solid fa-wifi.';
  return errors;
}

/** Another kind of icon chosen is a change even before its image or class is there. */
export const hasChanges = (values: CategoryValues, saved: CategoryValues) =>
  values.icon_type !== saved.icon_type || Object.keys(categoryUpdateOf(values, saved)).length > 0;

/** Unsaved work on a category, kept in this browser like an article's (local-draft.ts). */
export interface CategoryDraft {
  values: CategoryValues;
  saved_at: string;
}

const categoryDraftKey = (id: number) => `signpost.admin.category-draft.${id}`;

const isCategoryDraft = (value: unknown): value is CategoryDraft => {
  const draft = value as CategoryDraft | null;
  const values = draft?.values;
  return (
    typeof draft?.saved_at === 'string' &&
    typeof values?.name === 'string' &&
    typeof values.description === 'string' &&
    ['none', 'file', 'font'].includes(values.icon_type) &&
    typeof values.font_icon === 'string'
  );
};

export const writeCategoryDraft = (storage: Storage | undefined, id: number, draft: CategoryDraft) =>
  writeStored(storage, categoryDraftKey(id), draft);

export const clearCategoryDraft = (storage: Storage | undefined, id: number) =>
  removeStored(storage, categoryDraftKey(id));

/** The kept draft worth offering: one that differs from the server's category; one that does not goes. */
export function categoryDraftToOffer(
  storage: Storage | undefined,
  id: number,
  server: CategoryValues,
): CategoryDraft | null {
  const draft = readStored(storage, categoryDraftKey(id), isCategoryDraft);
  if (draft && !hasChanges(draft.values, server)) {
    clearCategoryDraft(storage, id);
    return null;
  }
  return draft;
}
