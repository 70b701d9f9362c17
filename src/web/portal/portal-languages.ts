import { LANGUAGES, type Language } from '../../shared/constants.ts';
import type { PortalTexts } from './texts/en.ts';

/**
 * The portal's texts, each language a chunk of its own like the interface's (i18n.tsx): a portal page's first load
 * carries its language's, not five, nor English's beside them. Small and free of the texts themselves, so the first
 * script can load them before it hydrates a portal page.
 */
const LOADERS: Record<Language, () => Promise<PortalTexts>> = {
  en: () => import('./texts/en.ts').then((module) => module.en),
  ru: () => import('./texts/ru.ts').then((module) => module.ru),
  'pt-BR': () => import('./texts/pt-BR.ts').then((module) => module.ptBR),
  it: () => import('./texts/it.ts').then((module) => module.it),
  sk: () => import('./texts/sk.ts').then((module) => module.sk),
};

const LOADED: Partial<Record<Language, PortalTexts>> = {};

/** The chunk of a language's portal texts, as Vite's manifest names it (the server preloads it). */
export const portalTextsChunk = (lang: Language): string => `src/web/portal/texts/${lang}.ts`;

/** Makes a language's portal texts available; the portal's loader awaits it before its pages render. */
export async function loadPortalTexts(lang: Language): Promise<void> {
  LOADED[lang] ??= await LOADERS[lang]();
}

/** Every language at once, for the server, which renders any. */
export const loadAllPortalTexts = () => Promise.all(LANGUAGES.map(loadPortalTexts));

/** A language's portal texts once loaded. */
export const loadedPortalTexts = (lang: Language): PortalTexts | undefined => LOADED[lang];
