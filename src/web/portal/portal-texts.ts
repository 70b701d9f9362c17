import type { Language } from '../../shared/constants.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { loadedPortalTexts } from './portal-languages.ts';
import type { PortalKey } from './texts/en.ts';

const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

/**
 * One of the portal's texts in a language, outside React (a page's title in the document head); in English while
 * the language's chunk is not there yet.
 */
export const portalText = (lang: Language, key: PortalKey, vars: Record<string, string | number> = {}) =>
  fill(loadedPortalTexts(lang)?.[key] ?? loadedPortalTexts('en')?.[key] ?? key, vars);

/**
 * The portal's texts in the interface language, and the interface's own `t` for the texts both share. The note
 * the spec fixes ('The request was created through the client portal.') stays in English in every language.
 */
export function usePortalTexts() {
  const { lang, t } = useI18n();
  const p = (key: PortalKey, vars: Record<string, string | number> = {}) => portalText(lang, key, vars);
  return { p, t, lang };
}

export type { PortalKey };
