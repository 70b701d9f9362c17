import { LANGUAGES, type Language } from './constants.ts';
import { LANG_PARAM } from './paths.ts';

/** The cookie the language switcher sets: the visitor's remembered choice, which negotiation reads first. */
export const LANG_COOKIE = 'signpost_lang';

/** Each language by its own name, as the switcher lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  sk: 'Slovenčina',
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language a page's address names (`?lang=`, its first value), or null when it names none or no valid one. */
export function pageLanguageOf(search: string | URLSearchParams): Language | null {
  const value = (typeof search === 'string' ? new URLSearchParams(search) : search).get(LANG_PARAM);
  return isLanguage(value) ? value : null;
}

/**
 * A site address in a language: `?lang=` set (or replaced) before any fragment; null leaves it without one. Every
 * link the site renders to its own pages goes through this, so the visitor stays in the language they read.
 */
export function withLang(address: string, lang: Language | null): string {
  const hashAt = address.indexOf('#');
  const hash = hashAt < 0 ? '' : address.slice(hashAt);
  const rest = hashAt < 0 ? address : address.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  // The other parameters as they were written (the search's encoding kept), any `lang` dropped.
  const others = queryAt < 0 ? [] : rest.slice(queryAt + 1).split('&');
  const kept = others.filter((part) => part !== '' && part.split('=')[0] !== LANG_PARAM);
  if (lang) kept.push(`${LANG_PARAM}=${encodeURIComponent(lang)}`);
  return `${path}${kept.length > 0 ? `?${kept.join('&')}` : ''}${hash}`;
}
