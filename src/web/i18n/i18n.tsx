import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { withLang } from '../../shared/page-language.ts';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import type { MessageKey, Messages } from './en.ts';

/**
 * Each language's texts are a chunk of their own, English's too, fetched only for a page in that language: every
 * language has every text (Messages), so a page's first load carries its own language's texts and no other's.
 * English stays the fallback for a language not loaded yet, when it is.
 */
const LOADERS: Record<Language, () => Promise<Messages>> = {
  en: () => import('./en.ts').then((module) => module.en),
  ru: () => import('./ru.ts').then((module) => module.ru),
  'pt-BR': () => import('./pt-BR.ts').then((module) => module.ptBR),
  it: () => import('./it.ts').then((module) => module.it),
  sk: () => import('./sk.ts').then((module) => module.sk),
};

/** The chunk of a language's texts, as Vite's manifest names it (the server preloads it). */
export const messagesChunk = (lang: Language): string => `src/web/i18n/${lang}.ts`;

const DICTIONARIES: Partial<Record<Language, Messages>> = {};

/** Makes a language's texts available to createTranslator; loaders await it before their page renders. */
export async function loadMessages(lang: Language): Promise<void> {
  DICTIONARIES[lang] ??= await LOADERS[lang]();
}

/** Every language at once, where any may be shown without a loader first (the server, the admin app's previews). */
export const loadAllMessages = () => Promise.all(LANGUAGES.map(loadMessages));

type PluralFamily = MessageKey extends infer K ? (K extends `${infer F}_one` ? F : never) : never;
type Vars = Record<string, string | number>;

export type Translate = {
  (key: MessageKey, vars?: Vars): string;
  (key: PluralFamily, vars: Vars & { count: number }): string;
};

const fill = (template: string, vars: Vars = {}) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

/** Texts of one language; plural families pick their form with Intl.PluralRules, so every language gets its own. */
export function createTranslator(lang: Language): Translate {
  const rules = new Intl.PluralRules(lang);
  return ((key: string, vars?: Vars) => {
    // Looked up at each call: a translator made before its language's chunk arrived (the context's default) reads
    // the texts once they are there.
    const fallback = (DICTIONARIES.en ?? {}) as Record<string, string>;
    const messages = (DICTIONARIES[lang] ?? fallback) as Record<string, string>;
    if (vars && typeof vars.count === 'number' && !(key in messages) && !(key in fallback)) {
      const form = `${key}_${rules.select(vars.count)}`;
      const template = messages[form] ?? messages[`${key}_other`] ?? fallback[`${key}_other`] ?? key;
      return fill(template, { ...vars, count: vars.count.toLocaleString(lang) });
    }
    return fill(messages[key] ?? fallback[key] ?? key, vars);
  }) as Translate;
}

interface I18nValue {
  lang: Language;
  t: Translate;
  /** The language the page's address names (`?lang=`), which every link to the site's own pages keeps; or null. */
  pageLang: Language | null;
  /** A link to one of the site's pages, in the page's language (withLang). */
  localHref: (address: string) => string;
}

const I18nContext = createContext<I18nValue>({
  lang: 'en',
  t: createTranslator('en'),
  pageLang: null,
  localHref: (address) => address,
});

export function I18nProvider({
  lang,
  pageLang = null,
  children,
}: {
  lang: Language;
  pageLang?: Language | null;
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({
      lang,
      t: createTranslator(lang),
      pageLang,
      localHref: (address: string) => withLang(address, pageLang),
    }),
    [lang, pageLang],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);

/**
 * The `lang` attribute of an item shown in another language than the page's (a fallback), so that screen readers
 * and hyphenation read it right and the fallback is marked; undefined when it is in the page's language.
 */
export const shownLang = (itemLang: Language | undefined, pageLang: Language): Language | undefined =>
  itemLang && itemLang !== pageLang ? itemLang : undefined;
