import type { BrandingTitles, Language } from '../../../../shared/api/settings.ts';
import { LANGUAGES, TITLE_MAX } from '../../../../shared/constants.ts';
import { DEFAULT_TITLES } from '../../../../shared/default-titles.ts';
import { Field } from '../../components/field.tsx';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';

export type TitlesForm = Record<Language, { knowledge_title: string; site_title: string }>;

export const titlesFormOf = (titles: Record<string, BrandingTitles> | undefined): TitlesForm =>
  Object.fromEntries(
    LANGUAGES.map((lang) => [
      lang,
      {
        knowledge_title: titles?.[lang]?.knowledge_title ?? '',
        site_title: titles?.[lang]?.site_title ?? '',
      },
    ]),
  ) as TitlesForm;

/** What the server stores: the languages other than the site's, empty titles left out. */
export function titlesBody(form: TitlesForm, site: Language): Partial<Record<Language, BrandingTitles>> {
  const body: Partial<Record<Language, BrandingTitles>> = {};
  for (const lang of LANGUAGES) {
    if (lang === site) continue;
    const knowledge_title = form[lang].knowledge_title.trim();
    const site_title = form[lang].site_title.trim();
    if (knowledge_title || site_title)
      body[lang] = { ...(knowledge_title && { knowledge_title }), ...(site_title && { site_title }) };
  }
  return body;
}

/** The help centre's title and site title for visitors reading another language than the site's. */
export function TitlesField({
  form,
  site,
  siteTitles,
  errors,
  onChange,
}: {
  form: TitlesForm;
  site: Language;
  siteTitles: { knowledge_title: string; site_title: string };
  errors: Record<string, string>;
  onChange: (form: TitlesForm) => void;
}) {
  const set = (lang: Language, key: 'knowledge_title' | 'site_title', value: string) =>
    onChange({ ...form, [lang]: { ...form[lang], [key]: value } });
  return (
    <fieldset className="choice-group titles-field">
      <legend>Titles in other languages</legend>
      <p className="field-hint">
        For visitors reading another language. Left empty, the site title stays as above and the help centre
        title is the interface’s own in that language.
      </p>
      {LANGUAGES.filter((lang) => lang !== site).map((lang) => (
        <div key={lang} className="titles-row" lang={lang}>
          <p className="titles-lang">{LANGUAGE_NAMES[lang]}</p>
          <Field
            label={`Help centre title (${LANGUAGE_NAMES[lang]})`}
            error={errors[`titles.${lang}.knowledge_title`] ?? errors[`titles.${lang}`]}
          >
            <input
              type="text"
              maxLength={TITLE_MAX}
              placeholder={DEFAULT_TITLES[lang].knowledge_title}
              value={form[lang].knowledge_title}
              onChange={(e) => set(lang, 'knowledge_title', e.target.value)}
            />
          </Field>
          <Field label={`Site title (${LANGUAGE_NAMES[lang]})`} error={errors[`titles.${lang}.site_title`]}>
            <input
              type="text"
              maxLength={TITLE_MAX}
              placeholder={siteTitles.site_title || DEFAULT_TITLES[lang].site_title}
              value={form[lang].site_title}
              onChange={(e) => set(lang, 'site_title', e.target.value)}
            />
          </Field>
        </div>
      ))}
    </fieldset>
  );
}
