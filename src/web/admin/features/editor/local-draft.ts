import type { AdminArticle, AdminFile } from '../../../../shared/api/admin.ts';
import type { Language, Visibility } from '../../../../shared/constants.ts';

/** What the editor changes; the rest of an article (id, place, revision) is not the author's to type. */
export interface ArticleValues {
  title: string;
  body_html: string;
  lang: Language | null;
  can_create_issue: boolean;
  visibility: Visibility;
  /** Optional: a draft kept in this browser before the switch existed has none. */
  noindex?: boolean;
  files: AdminFile[];
}

export const valuesOf = (article: AdminArticle): ArticleValues => ({
  title: article.title,
  body_html: article.body_html,
  lang: article.lang,
  can_create_issue: article.can_create_issue,
  visibility: article.visibility,
  noindex: article.noindex,
  files: article.files,
});

export const blankValues = (): ArticleValues => ({
  title: '',
  body_html: '',
  lang: null,
  can_create_issue: false,
  visibility: 'everyone',
  noindex: false,
  files: [],
});

export function sameValues(a: ArticleValues, b: ArticleValues): boolean {
  return (
    a.title === b.title &&
    a.body_html === b.body_html &&
    a.lang === b.lang &&
    a.can_create_issue === b.can_create_issue &&
    a.visibility === b.visibility &&
    (a.noindex ?? false) === (b.noindex ?? false) &&
    a.files.map((f) => f.id).join() === b.files.map((f) => f.id).join()
  );
}

/** Unsaved work kept in this browser, per article, until it is saved or thrown away. */
export interface LocalDraft {
  values: ArticleValues;
  /** The revision the work started from: a save of it still meets the server's conflict check. */
  base_revision_id: number | null;
  saved_at: string;
}

const PREFIX = 'signpost.admin.draft.';
export const draftKey = (articleId: number | null) => `${PREFIX}${articleId ?? 'new'}`;

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const isValues = (v: unknown): v is ArticleValues => {
  const values = v as ArticleValues | null;
  return (
    typeof values?.title === 'string' &&
    typeof values.body_html === 'string' &&
    typeof values.can_create_issue === 'boolean' &&
    Array.isArray(values.files)
  );
};

/** A JSON value kept under `key`, or null when there is none or it is not what `accept` expects. */
export function readStored<T>(
  storage: Storage | undefined,
  key: string,
  accept: (value: unknown) => value is T,
): T | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return accept(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeStored(storage: Storage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // A full quota loses the local copy, not the work on screen.
  }
}

export function removeStored(storage: Storage | undefined, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing to do: the storage is unavailable.
  }
}

const isLocalDraft = (value: unknown): value is LocalDraft => {
  const draft = value as LocalDraft | null;
  return isValues(draft?.values) && typeof draft?.saved_at === 'string';
};

export const readLocalDraft = (storage: Storage | undefined, articleId: number | null): LocalDraft | null =>
  readStored(storage, draftKey(articleId), isLocalDraft);

export const writeLocalDraft = (storage: Storage | undefined, articleId: number | null, draft: LocalDraft) =>
  writeStored(storage, draftKey(articleId), draft);

export const clearLocalDraft = (storage: Storage | undefined, articleId: number | null) =>
  removeStored(storage, draftKey(articleId));

/**
 * The draft worth offering when the editor opens: one that differs from what the server has. A draft equal to the
 * server's article is stale (its work was saved) and goes.
 */
export function draftToOffer(
  storage: Storage | undefined,
  articleId: number | null,
  server: ArticleValues,
): LocalDraft | null {
  const draft = readLocalDraft(storage, articleId);
  if (draft && sameValues(draft.values, server)) {
    clearLocalDraft(storage, articleId);
    return null;
  }
  return draft;
}
