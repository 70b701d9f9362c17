import { Link } from 'react-router';
import type { TranslationSummary } from '../../../../shared/api/admin.ts';
import type { TranslationKind } from '../../../../shared/api/admin-translations.ts';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { translationPath } from '../../lib/translation-path.ts';
import { useSession } from '../../lib/use-session.ts';

/** A translation's state in one badge: missing, a draft, published, or outdated (which matters most). */
export function TranslationBadge({ summary }: { summary: TranslationSummary | undefined }) {
  if (!summary) return <span className="badge badge-missing">Missing</span>;
  return (
    <>
      {summary.outdated && <span className="badge badge-outdated">Outdated</span>}
      <span className={summary.published ? 'badge badge-published' : 'badge badge-draft'}>
        {summary.published ? 'Published' : 'Draft'}
      </span>
    </>
  );
}

/**
 * The item's versions in the other languages, each with its state and the way to its side-by-side editor. The
 * item's own language is the source and is not listed.
 */
export function TranslationsArea({
  kind,
  id,
  lang,
  translations,
}: {
  kind: TranslationKind;
  id: number;
  lang: Language | null | undefined;
  translations: TranslationSummary[];
}) {
  const { branding } = useSession();
  const own = lang ?? branding.lang;
  const others = LANGUAGES.filter((l) => l !== own);
  return (
    <section className="translations-area" aria-labelledby={`translations-${kind}-${id}`}>
      <h2 id={`translations-${kind}-${id}`}>Translations</h2>
      <p className="muted">
        Written in {LANGUAGE_NAMES[own]}. Visitors reading another language get its translation once
        published, else the{' '}
        {own === branding.lang ? 'original' : `version in ${LANGUAGE_NAMES[branding.lang]}`}.
      </p>
      <ul className="translations-list">
        {others.map((l) => {
          const summary = translations.find((t) => t.lang === l);
          return (
            <li key={l}>
              <span className="translations-lang" lang={l}>
                {LANGUAGE_NAMES[l]}
              </span>
              <span className="translations-state">
                <TranslationBadge summary={summary} />
              </span>
              <Link className="tool" to={translationPath(kind, id, l)}>
                {summary ? 'Edit translation' : 'Translate'}
                <span className="visually-hidden"> into {LANGUAGE_NAMES[l]}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
