import { LANGUAGES } from '../../../shared/constants.ts';
import { LANGUAGE_NAMES } from '../lib/languages.ts';

/** An option for each language of the public site, in its own name. */
export function LanguageOptions() {
  return LANGUAGES.map((lang) => (
    <option key={lang} value={lang}>
      {LANGUAGE_NAMES[lang]}
    </option>
  ));
}
