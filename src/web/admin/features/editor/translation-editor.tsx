import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import type {
  ArticleTranslationView,
  CategoryTranslationView,
  SectionTranslationView,
  SourceFieldDiff,
} from '../../../../shared/api/admin-translations.ts';
import { href } from '../../../../shared/paths.ts';
import { adminCall, uploadFiles } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import { fieldErrorsOf, messageOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { Attachments } from './attachments.tsx';
import { HtmlField } from './html-field.tsx';
import { Parts } from './revisions-panel.tsx';
import { translationPath } from '../../lib/translation-path.ts';
import { LANGUAGES, TITLE_MAX } from '../../../../shared/constants.ts';

export type LoadedTranslation =
  | { kind: 'article'; view: ArticleTranslationView }
  | { kind: 'category'; view: CategoryTranslationView }
  | { kind: 'section'; view: SectionTranslationView };

interface Values {
  name: string;
  html: string;
  files: AdminFile[];
}

const valuesOf = (loaded: LoadedTranslation): Values =>
  loaded.kind === 'article'
    ? { name: loaded.view.title, html: loaded.view.body_html, files: loaded.view.files }
    : loaded.kind === 'category'
      ? { name: loaded.view.name, html: loaded.view.description, files: [] }
      : { name: loaded.view.name, html: '', files: [] };

const same = (a: Values, b: Values) =>
  a.name === b.name &&
  a.html === b.html &&
  a.files.map((f) => f.id).join() === b.files.map((f) => f.id).join();

const idOf = (loaded: LoadedTranslation) =>
  loaded.kind === 'article'
    ? loaded.view.article_id
    : loaded.kind === 'category'
      ? loaded.view.category_id
      : loaded.view.section_id;

const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  name: 'Name',
  body_html: 'Body',
  description: 'Description',
};
const HTML_FIELDS = new Set(['body_html', 'description']);

/** Where the source is edited, to go back to. */
const sourcePath = (loaded: LoadedTranslation) =>
  loaded.kind === 'article'
    ? `/articles/${idOf(loaded)}`
    : loaded.kind === 'category'
      ? `/categories/${idOf(loaded)}`
      : '/';

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

/**
 * A translation edited beside its source: the source version read-only on the left (with what changed in it since
 * the translation was last saved, when it did), the translation's own fields on the right, in the source editor's
 * components. Saving records the source as translated; publishing is its own action.
 */
export function TranslationEditor({ initial }: { initial: LoadedTranslation }) {
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState(initial);
  const [saved, setSaved] = useState(() => valuesOf(initial));
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const dirty = !same(values, saved);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const { view, kind } = loaded;
  const id = idOf(loaded);
  const lang = view.lang;
  const nameField = kind === 'article' ? 'title' : 'name';
  const what = kind === 'article' ? 'article' : kind === 'category' ? 'category' : 'section';
  const sourceName = view.source.text[nameField] ?? '';
  const sourceHtml = view.source.text[kind === 'article' ? 'body_html' : 'description'];

  const adopt = (next: LoadedTranslation) => {
    setLoaded(next);
    const fresh = valuesOf(next);
    setSaved(fresh);
    setValues(fresh);
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      await work();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setMessage(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const save = (publish?: boolean) =>
    run(async () => {
      if (!values.name.trim()) {
        setErrors({ [nameField]: `Enter a ${nameField}.` });
        return;
      }
      const params = { id, lang };
      const published = publish ?? undefined;
      const next: LoadedTranslation =
        kind === 'article'
          ? {
              kind,
              view: await adminCall('saveArticleTranslation', {
                params,
                body: {
                  title: values.name,
                  body_html: values.html,
                  file_ids: values.files.map((f) => f.id),
                  ...(published !== undefined && { published }),
                },
              }),
            }
          : kind === 'category'
            ? {
                kind,
                view: await adminCall('saveCategoryTranslation', {
                  params,
                  body: {
                    name: values.name,
                    description: values.html,
                    ...(published !== undefined && { published }),
                  },
                }),
              }
            : {
                kind,
                view: await adminCall('saveSectionTranslation', {
                  params,
                  body: { name: values.name, ...(published !== undefined && { published }) },
                }),
              };
      adopt(next);
      setStatus(
        `${publish ? 'Published' : 'Saved'} at ${formatTime(next.view.updated_at ?? new Date().toISOString())}.`,
      );
    });

  const togglePublished = () =>
    run(async () => {
      const params = { id, lang };
      const body = { published: !view.published };
      const next: LoadedTranslation =
        kind === 'article'
          ? { kind, view: await adminCall('publishArticleTranslation', { params, body }) }
          : kind === 'category'
            ? { kind, view: await adminCall('publishCategoryTranslation', { params, body }) }
            : { kind, view: await adminCall('publishSectionTranslation', { params, body }) };
      setLoaded(next);
      setStatus(next.view.published ? 'Published: visitors reading this language see it.' : 'Unpublished.');
    });

  const remove = () =>
    run(async () => {
      if (!window.confirm(`Delete the ${LANGUAGE_NAMES[lang]} translation of this ${what}?`)) return;
      const params = { id, lang };
      if (kind === 'article') await adminCall('deleteArticleTranslation', { params });
      else if (kind === 'category') await adminCall('deleteCategoryTranslation', { params });
      else await adminCall('deleteSectionTranslation', { params });
      dirtyRef.current = false;
      navigate(sourcePath(loaded));
    });

  const upload = async (files: File[]) => (await uploadFiles(files)).items;
  const publicHref =
    kind === 'article' ? href.instruction(id) : kind === 'category' ? href.category(id) : null;

  return (
    <div className="editor translation-editor">
      <LeaveGuard dirty={dirty} dirtyRef={dirtyRef}>
        <p>This translation has changes that are not saved; leaving loses them.</p>
      </LeaveGuard>
      <header className="editor-head">
        <div>
          <h1 tabIndex={-1}>
            {view.exists ? 'Edit translation' : 'Translate'}: {LANGUAGE_NAMES[lang]}
          </h1>
          <p className="muted editor-place">
            <Link to={sourcePath(loaded)}>
              {kind === 'article' ? 'Article' : kind === 'category' ? 'Category' : 'Section'} “{sourceName}”
            </Link>
            {' · '}
            {view.exists ? (
              <span className={view.published ? 'badge badge-published' : 'badge badge-draft'}>
                {view.published ? 'Published' : 'Draft'}
              </span>
            ) : (
              <span className="badge badge-missing">Not translated yet</span>
            )}
            {view.outdated && <span className="badge badge-outdated">Outdated</span>}
            {dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
          </p>
        </div>
        {publicHref && view.published && (
          <div className="panel-switch">
            <a className="tool" href={`${publicHref}?lang=${lang}`} target="_blank" rel="noopener">
              Public page<span className="visually-hidden"> (opens in a new tab)</span>
              <span aria-hidden="true" className="external-mark">
                ↗
              </span>
            </a>
          </div>
        )}
      </header>

      <nav className="translation-languages" aria-label="Other languages">
        {LANGUAGES.filter((l) => l !== view.item_lang).map((l) => (
          <Link
            key={l}
            className="tool"
            aria-current={l === lang ? 'page' : undefined}
            to={translationPath(kind, id, l)}
          >
            {LANGUAGE_NAMES[l]}
          </Link>
        ))}
      </nav>

      {view.outdated && (
        <div className="banner banner-warning" role="status">
          <p className="banner-title">The source changed since this translation was last saved.</p>
          <p>
            {view.saved_source_lang && view.saved_source_lang !== view.source.lang
              ? `It was translated from ${LANGUAGE_NAMES[view.saved_source_lang]}; the source is now in ${LANGUAGE_NAMES[view.source.lang]}. `
              : 'The changes are marked on the left. '}
            Bring the translation up to date and save it: it is no longer marked outdated.
          </p>
        </div>
      )}

      <FormError message={message} />

      <div className="translation-columns">
        <section
          className="translation-source"
          aria-labelledby="translation-source-heading"
          lang={view.source.lang}
        >
          <h2 id="translation-source-heading">Source: {LANGUAGE_NAMES[view.source.lang]}</h2>
          {view.outdated && view.source_diff.length > 0 && <SourceDiff diff={view.source_diff} />}
          <p className="field-label">{FIELD_LABELS[nameField]}</p>
          <p className="translation-source-name">{sourceName}</p>
          {sourceHtml !== undefined && (
            <>
              <p className="field-label">{kind === 'article' ? 'Body' : 'Description'}</p>
              {sourceHtml ? (
                <div className="translation-source-body" dangerouslySetInnerHTML={{ __html: sourceHtml }} />
              ) : (
                <p className="muted">Empty.</p>
              )}
            </>
          )}
          {loaded.kind === 'article' && loaded.view.source_files.length > 0 && (
            <>
              <p className="field-label">Attachments</p>
              <ul className="translation-source-files">
                {loaded.view.source_files.map((file) => (
                  <li key={file.id}>
                    <a href={file.url}>{file.name}</a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>

        <section
          className="translation-form editor-form"
          aria-labelledby="translation-form-heading"
          lang={lang}
        >
          <h2 id="translation-form-heading">Translation: {LANGUAGE_NAMES[lang]}</h2>
          <Field label={FIELD_LABELS[nameField]} error={errors[nameField]}>
            <input
              type="text"
              maxLength={TITLE_MAX}
              value={values.name}
              onChange={(e) => setValues({ ...values, name: e.target.value })}
            />
          </Field>
          {kind !== 'section' && (
            <HtmlField
              label={kind === 'article' ? 'Body' : 'Description'}
              value={values.html}
              onChange={(html) => setValues((current) => ({ ...current, html }))}
              onUpload={upload}
              error={errors[kind === 'article' ? 'body_html' : 'description']}
            />
          )}
          {kind === 'article' && (
            <Attachments
              files={values.files}
              onChange={(files) => setValues((current) => ({ ...current, files }))}
              onUpload={upload}
              error={errors.file_ids}
            />
          )}
        </section>
      </div>

      <div className="editor-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void save()}>
          Save translation
        </button>
        {!view.published && (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => void save(true)}
          >
            Save and publish
          </button>
        )}
        {view.exists && view.published && (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy || dirty}
            onClick={() => void togglePublished()}
          >
            Unpublish
          </button>
        )}
        {view.exists && (
          <button type="button" className="button button-quiet" disabled={busy} onClick={() => void remove()}>
            Delete translation
          </button>
        )}
        <span className="editor-status" role="status">
          {busy ? 'Saving…' : status}
        </span>
      </div>
    </div>
  );
}
