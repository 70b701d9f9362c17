import type { Language } from '../../../shared/constants.ts';

/** Each language in its own name, with the English one for the admins who do not read it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский (Russian)',
  'pt-BR': 'Português do Brasil (Portuguese)',
  it: 'Italiano (Italian)',
  sk: 'Slovenčina (Slovak)',
};
