/** The locally stored items of the specification. Storage can be missing or full: never let that break a page. */
export const storageKeys = {
  authToken: 'authToken',
  currentSection: 'currentSection',
  visitedCategories: 'visitedCategories',
  query: 'query',
  ifRedirectOnInstructionsPage: 'ifRedirectOnInstructionsPage',
  megapolName: 'megapolName',
  megapolEmail: 'megapolEmail',
  /** Ours: the articles this browser answered "Was this helpful?" for today. */
  feedbackAnswers: 'feedbackAnswers',
} as const;

type Key = (typeof storageKeys)[keyof typeof storageKeys];

function area(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readItem(key: Key, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: Key, value: string | null, kind: 'local' | 'session' = 'local'): void {
  try {
    if (value === null) area(kind)?.removeItem(key);
    else area(kind)?.setItem(key, value);
  } catch {
    // Private mode or a full quota: the page works on without it.
  }
}

export function readJson<T>(key: Key, fallback: T): T {
  const raw = readItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

/** The token may sit in either storage (remember me or not); local wins. */
export const readAuthToken = () =>
  readItem(storageKeys.authToken) ?? readItem(storageKeys.authToken, 'session');

export function clearAuthToken(): void {
  writeItem(storageKeys.authToken, null);
  writeItem(storageKeys.authToken, null, 'session');
}
