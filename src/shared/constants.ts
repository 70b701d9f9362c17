/** Numbers of the specification both sides need; free of schema code so the web bundle stays small. */
export const CATEGORY_PAGE_SIZE = 30;
export const CATEGORY_PAGE_SIZE_MAX = 100;
export const ARTICLE_PAGE_SIZE = 100;
export const ARTICLE_PAGE_SIZE_MAX = 500;
export const SUGGESTIONS_LIMIT = 10;
export const SUGGESTIONS_LIMIT_MAX = 50;
export const SEARCH_TEXT_MAX = 200;
export const SEARCH_DEBOUNCE_MS = 500;
export const NARROW_LAYOUT_MAX_WIDTH = 719;
export const TOAST_MS = 3000;
export const REQUEST_TOAST_MS = 5000;
export const SENT_STATE_MS = 5000;
export const AUTH_HEADER = 'x-auth-token';
export const LANGUAGES = ['en', 'ru', 'pt-BR', 'it', 'sk'] as const;
export type Language = (typeof LANGUAGES)[number];
