import { LANGUAGES, type Language } from '../../../shared/constants.ts';

/** Each language in its own name. */
export const NATIVE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  'pt-BR': 'Português do Brasil',
  it: 'Italiano',
  sk: 'Slovenčina',
};

/** The English names, for the admins who do not read the language (none for English itself). */
export const ENGLISH_NAMES: Record<Language, string | null> = {
  en: null,
  ru: 'Russian',
  'pt-BR': 'Portuguese',
  it: 'Italian',
  sk: 'Slovak',
};

/** Each language in its own name, with the English one for the admins who do not read it. */
export const LANGUAGE_NAMES = Object.fromEntries(
  LANGUAGES.map((lang) => {
    const english = ENGLISH_NAMES[lang];
    return [lang, english ? `${NATIVE_NAMES[lang]} (${english})` : NATIVE_NAMES[lang]];
  }),
) as Record<Language, string>;
