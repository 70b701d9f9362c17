import { Link } from 'react-router';
import { LANGUAGES } from '../../../../shared/constants.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { translationPath } from '../../lib/translation-path.ts';
import type { Translation } from './translation-kinds.ts';

/** The translation's state in badges: published, a draft or not there yet; outdated; unsaved. */
function TranslationBadges({ translation, dirty }: { translation: Translation; dirty: boolean }) {
  const { view } = translation;
  return (
    <>
      {view.exists ? (
        <span className={view.published ? 'badge badge-published' : 'badge badge-draft'}>
          {view.published ? 'Published' : 'Draft'}
        </span>
      ) : (
        <span className="badge badge-missing">Not translated yet</span>
      )}
      {view.outdated && <span className="badge badge-outdated">Outdated</span>}
      {dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
    </>
  );
}

/** The heading, the source it translates and the public page in this language, once published. */
export function TranslationHead({ translation, dirty }: { translation: Translation; dirty: boolean }) {
  const { view, rules, id } = translation;
  const publicHref = rules.publicHref(id);
  return (
    <header className="editor-head">
      <div>
        <h1 tabIndex={-1}>
          {view.exists ? 'Edit translation' : 'Translate'}: {LANGUAGE_NAMES[view.lang]}
        </h1>
        <p className="muted editor-place">
          <Link to={rules.sourcePath(id)}>
            {rules.label} “{view.source.text[rules.nameField] ?? ''}”
          </Link>
          {' · '}
          <TranslationBadges translation={translation} dirty={dirty} />
        </p>
      </div>
      {publicHref && view.published && (
        <div className="panel-switch">
          <a className="tool" href={`${publicHref}?lang=${view.lang}`} target="_blank" rel="noopener">
            Public page<span className="visually-hidden"> (opens in a new tab)</span>
            <span aria-hidden="true" className="external-mark">
              ↗
            </span>
          </a>
        </div>
      )}
    </header>
  );
}

/** Links to the same item's translation in each other language. */
export function OtherLanguages({ translation }: { translation: Translation }) {
  const { kind, id, view } = translation;
  return (
    <nav className="translation-languages" aria-label="Other languages">
      {LANGUAGES.filter((l) => l !== view.item_lang).map((l) => (
        <Link
          key={l}
          className="tool"
          aria-current={l === view.lang ? 'page' : undefined}
          to={translationPath(kind, id, l)}
        >
          {LANGUAGE_NAMES[l]}
        </Link>
      ))}
    </nav>
  );
}

/** Said while the source changed since the translation was last saved, and how to clear it. */
export function OutdatedBanner({ translation }: { translation: Translation }) {
  const { view } = translation;
  if (!view.outdated) return null;
  return (
    <div className="banner banner-warning" role="status">
      <p className="banner-title">The source changed since this translation was last saved.</p>
      <p>
        {view.saved_source_lang && view.saved_source_lang !== view.source.lang
          ? `It was translated from ${LANGUAGE_NAMES[view.saved_source_lang]}; the source is now in ${LANGUAGE_NAMES[view.source.lang]}. `
          : 'The changes are marked on the left. '}
        Bring the translation up to date and save it: it is no longer marked outdated.
      </p>
    </div>
  );
}
