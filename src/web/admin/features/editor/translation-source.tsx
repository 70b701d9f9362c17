import type { SourceFieldDiff } from '../../../../shared/api/admin-translations.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { Parts } from './revision-views.tsx';
import type { Translation } from './translation-kinds.ts';

/** The label of each field of a source, by its name in the API. */
export const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  name: 'Name',
  body_html: 'Body',
  description: 'Description',
};
const HTML_FIELDS = new Set(['body_html', 'description']);

function SourceDiff({ diff }: { diff: SourceFieldDiff[] }) {
  return (
    <section className="diff translation-diff" aria-labelledby="source-diff-heading">
      <h3 id="source-diff-heading" className="diff-heading">
        What changed in the source since this translation was saved
      </h3>
      <p className="diff-legend">
        <ins>Inserted</ins> <del>Deleted</del>
      </p>
      {diff.map(({ field, parts }) => (
        <div key={field}>
          <h4>{FIELD_LABELS[field] ?? field}</h4>
          {HTML_FIELDS.has(field) ? (
            <pre className="diff-body">
              <Parts parts={parts} />
            </pre>
          ) : (
            <p className="diff-title">
              <Parts parts={parts} />
            </p>
          )}
        </div>
      ))}
    </section>
  );
}

/** The source's body or description, as the site shows it, when the kind has one. */
function SourceHtml({ label, html }: { label: string; html: string }) {
  return (
    <>
      <p className="field-label">{label}</p>
      {html ? (
        <div className="translation-source-body" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className="muted">Empty.</p>
      )}
    </>
  );
}

/** The source version, read-only, with what changed in it since the translation was last saved. */
export function TranslationSource({ translation }: { translation: Translation }) {
  const { view, rules, sourceFiles } = translation;
  const sourceHtml = rules.html ? view.source.text[rules.html.field] : undefined;
  return (
    <section
      className="translation-source"
      aria-labelledby="translation-source-heading"
      lang={view.source.lang}
    >
      <h2 id="translation-source-heading">Source: {LANGUAGE_NAMES[view.source.lang]}</h2>
      {view.outdated && view.source_diff.length > 0 && <SourceDiff diff={view.source_diff} />}
      <p className="field-label">{FIELD_LABELS[rules.nameField]}</p>
      <p className="translation-source-name">{view.source.text[rules.nameField] ?? ''}</p>
      {rules.html && sourceHtml !== undefined && <SourceHtml label={rules.html.label} html={sourceHtml} />}
      {sourceFiles.length > 0 && (
        <>
          <p className="field-label">Attachments</p>
          <ul className="translation-source-files">
            {sourceFiles.map((file) => (
              <li key={file.id}>
                <a href={file.url}>{file.name}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
