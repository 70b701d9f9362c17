import { createContext, useContext, type ReactNode } from 'react';
import type { Language } from '../../shared/constants.ts';
import { en, type MessageKey, type Messages } from './en.ts';
import { it } from './it.ts';
import { ptBR } from './pt-BR.ts';
import { ru } from './ru.ts';
import { sk } from './sk.ts';

const DICTIONARIES: Record<Language, Messages> = { en, ru, 'pt-BR': ptBR, it, sk };

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
  const messages = (DICTIONARIES[lang] ?? en) as Record<string, string>;
  const fallback = en as Record<string, string>;
  const rules = new Intl.PluralRules(lang);
  return ((key: string, vars?: Vars) => {
    if (vars && typeof vars.count === 'number' && !(key in fallback)) {
      const form = `${key}_${rules.select(vars.count)}`;
      const template = messages[form] ?? messages[`${key}_other`] ?? fallback[`${key}_other`] ?? key;
      return fill(template, { ...vars, count: vars.count.toLocaleString(lang) });
    }
    return fill(messages[key] ?? fallback[key] ?? key, vars);
  }) as Translate;
}

const I18nContext = createContext<{ lang: Language; t: Translate }>({
  lang: 'en',
  t: createTranslator('en'),
});

export function I18nProvider({ lang, children }: { lang: Language; children: ReactNode }) {
  return <I18nContext.Provider value={{ lang, t: createTranslator(lang) }}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);
