import { useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AdminArticle, AdminFile } from '../../../../shared/api/admin.ts';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { href } from '../../../../shared/paths.ts';
import { adminApi } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { Modal } from '../../components/modal.tsx';
import { formatTime } from '../../lib/format-time.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { codeOf, fieldErrorsOf, messageOf, statusOf, type FieldErrors } from '../../lib/errors.ts';
import { useSession } from '../session/session.tsx';
import { useContentTree } from '../tree/content-tree-context.tsx';
import { ancestorsOf, keyOf } from '../tree/tree-model.ts';
import { ArticlePreview } from './article-preview.tsx';
import { Attachments } from './attachments.tsx';
import { HtmlField } from './html-field.tsx';
import {
  blankValues,
  browserStorage,
  clearLocalDraft,
  draftToOffer,
  sameValues,
  valuesOf,
  writeLocalDraft,
  type ArticleValues,
  type LocalDraft,
} from './local-draft.ts';
import { RevisionsPanel } from './revisions-panel.tsx';
import { LocalDraftOffer, useLocalDraftWriter } from './use-local-draft.tsx';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';

type Panel = 'edit' | 'preview' | 'revisions';

export interface Placement {
  sectionId: number;
  categoryId: number | null;
}

/**
 * Writes one article: title, body (rich or HTML source), language, request form, attachments. Saves carry the
 * revision the work started from, so a save over someone else's is refused and said so; unsaved work is kept in
 * this browser and guarded against leaving.
 */
export function ArticleEditor({
  article,
  placement,
}: {
  article: AdminArticle | null;
  placement: Placement;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const { forest, reload: reloadTree } = useContentTree();
  const { branding } = useSession();
  const storage = useMemo(browserStorage, []);
  const ids = useId();

  const [articleId, setArticleId] = useState<number | null>(article?.id ?? null);
  const [baseline, setBaseline] = useState<ArticleValues>(() =>
    article ? valuesOf(article) : blankValues(),
  );
  const [values, setValues] = useState<ArticleValues>(baseline);
  const [published, setPublished] = useState(article?.published ?? false);
  const [revisionId, setRevisionId] = useState<number | null>(article?.revision_id ?? null);
  const [baseRevisionId, setBaseRevisionId] = useState<number | null>(article?.revision_id ?? null);
  const [offer, setOffer] = useState<LocalDraft | null>(() =>
    draftToOffer(storage, article?.id ?? null, baseline),
  );

  const [panel, setPanel] = useState<Panel>('edit');

  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  // A new article's first save arrives here with its message, in the editor that replaced the blank one.
  const [status, setStatus] = useState(() => (location.state as { status?: string } | null)?.status ?? '');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);

  const dirty = !sameValues(values, baseline);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const pending = useLocalDraftWriter(
    () => {
      if (dirtyRef.current) {
        writeLocalDraft(storage, articleId, {
          values,
          base_revision_id: baseRevisionId,
          saved_at: new Date().toISOString(),
        });
      } else clearLocalDraft(storage, articleId);
    },
    [values, baseline, baseRevisionId, articleId, storage],
    offer !== null,
  );

  const change = (patch: Partial<ArticleValues>) => setValues((current) => ({ ...current, ...patch }));
  const upload = async (files: File[]): Promise<AdminFile[]> => (await adminApi.uploadFiles(files)).items;

  /** The server's article becomes the editor's starting point; work typed meanwhile stays on screen. */
  const adopt = (saved: AdminArticle, sent?: ArticleValues) => {
    const next = valuesOf(saved);
    setBaseline(next);
    setValues((current) => (!sent || sameValues(current, sent) ? next : current));
    if (!sent || sameValues(values, sent)) dirtyRef.current = false;
    setPublished(saved.published);
    setRevisionId(saved.revision_id);
    setBaseRevisionId(saved.revision_id);
  };

  const save = async (publish: boolean, base = baseRevisionId) => {
    setErrors({});
    setMessage(null);
    setConflict(false);
    if (!values.title.trim()) {
      setErrors({ title: 'Enter a title.' });
      setPanel('edit');
      titleInput.current?.focus();
      return;
    }
    setSaving(true);
    const sent = values;
    const common = {
      title: sent.title.trim(),
      lang: sent.lang,
      can_create_issue: sent.can_create_issue,
      file_ids: sent.files.map((file) => file.id),
      published: publish,
    };
    try {
      const saved =
        articleId === null
          ? await adminApi.createArticle({
              ...common,
              section_id: placement.sectionId,
              category_id: placement.categoryId,
              body_html: sent.body_html,
            })
          : await adminApi.updateArticle(articleId, {
              ...common,
              // An untouched body is not sent: the stored HTML stays exactly as it was.
              ...(sent.body_html !== baseline.body_html ? { body_html: sent.body_html } : {}),
              ...(base ? { base_revision_id: base } : {}),
            });
      adopt(saved, { ...sent, title: common.title });
      const said = publish
        ? `${published ? 'Saved' : 'Published'} at ${formatTime(saved.updated_at)}.`
        : published
          ? 'Unpublished: the article is a draft again.'
          : `Saved as a draft at ${formatTime(saved.updated_at)}.`;
      setStatus(said);
      void reloadTree().catch(() => undefined);
      if (articleId === null) {
        clearLocalDraft(storage, null);
        pending.current = null;
        setArticleId(saved.id);
        navigate(`/articles/${saved.id}`, { replace: true, state: { status: said } });
      }
    } catch (error) {
      if (codeOf(error) === 'conflict' || (statusOf(error) === 409 && articleId !== null)) setConflict(true);
      else {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        setMessage(messageOf(error));
        if (fields.title) titleInput.current?.focus();
      }
    } finally {
      setSaving(false);
    }
  };

  const reloadArticle = async () => {
    if (articleId === null) return;
    try {
      const fresh = await adminApi.article(articleId);
      adopt(fresh);
      setConflict(false);
      setStatus('Reloaded the article as it is saved now.');
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  const overwrite = async () => {
    if (articleId === null) return;
    try {
      const fresh = await adminApi.article(articleId);
      await save(published, fresh.revision_id);
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  const deleteArticle = async () => {
    if (articleId === null) return;
    try {
      await adminApi.deleteArticle(articleId);
      clearLocalDraft(storage, articleId);
      pending.current = null;
      dirtyRef.current = false;
      await reloadTree().catch(() => undefined);
      navigate('/');
    } catch (error) {
      setConfirmDelete(false);
      setMessage(messageOf(error));
    }
  };

  const place = (() => {
    const key =
      articleId !== null && forest.byKey.has(keyOf('article', articleId))
        ? keyOf('article', articleId)
        : null;
    if (key) return ancestorsOf(forest, key);
    const container = keyOf(
      placement.categoryId ? 'category' : 'section',
      placement.categoryId ?? placement.sectionId,
    );
    const node = forest.byKey.get(container);
    return node ? [...ancestorsOf(forest, container), node] : [];
  })();

  return (
    <div className="editor">
      <UnsavedChangesGuard dirty={dirty} dirtyRef={dirtyRef} />
      <header className="editor-head">
        <div>
          <h1 tabIndex={-1}>{articleId === null ? 'New article' : 'Edit article'}</h1>
          <p className="muted editor-place">
            {place.length > 0 ? `In ${place.map((node) => node.name).join(' › ')}` : ''}
            {' · '}
            <span className={published ? 'badge badge-published' : 'badge badge-draft'}>
              {published ? 'Published' : 'Draft'}
            </span>
            {dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
          </p>
        </div>
        <div className="panel-switch" role="group" aria-label="View">
          {(['edit', 'preview', 'revisions'] as const).map((name) => (
            <button
              key={name}
              type="button"
              className="tool"
              aria-pressed={panel === name}
              disabled={name === 'revisions' && articleId === null}
              onClick={() => setPanel(name)}
            >
              {{ edit: 'Edit', preview: 'Preview', revisions: 'Revisions' }[name]}
            </button>
          ))}
          {published && articleId !== null && (
            <a className="tool" href={href.instruction(articleId)} target="_blank" rel="noopener">
              Public page<span className="visually-hidden"> (opens in a new tab)</span>
              <span aria-hidden="true" className="external-mark">
                ↗
              </span>
            </a>
          )}
        </div>
      </header>

      {offer && (
        <LocalDraftOffer
          what="article"
          savedAt={offer.saved_at}
          note={
            offer.base_revision_id !== null && offer.base_revision_id !== revisionId
              ? '; the article has been saved since they were made'
              : ''
          }
          onRestore={() => {
            setValues(offer.values);
            if (offer.base_revision_id !== null) setBaseRevisionId(offer.base_revision_id);
            setOffer(null);
            setStatus('Restored the unsaved changes.');
          }}
          onDiscard={() => {
            clearLocalDraft(storage, articleId);
            setOffer(null);
            setStatus('Discarded the unsaved changes.');
          }}
        />
      )}

      {conflict && (
        <section className="banner banner-warning" role="alert" aria-labelledby={`${ids}-conflict`}>
          <h2 id={`${ids}-conflict`} className="banner-title">
            Someone else saved this article
          </h2>
          <p>
            It changed on the server since you started editing, so your save was refused. Reload it to see the
            other changes (yours are discarded), or save yours over them.
          </p>
          <div className="banner-actions">
            <button type="button" className="button" onClick={() => void reloadArticle()}>
              Reload the article
            </button>
            <button type="button" className="button button-secondary" onClick={() => void overwrite()}>
              Save mine over it
            </button>
          </div>
        </section>
      )}

      <FormError message={message} />

      <div hidden={panel !== 'edit'} className="editor-form">
        <Field label="Title" error={errors.title}>
          <input
            ref={titleInput}
            type="text"
            maxLength={200}
            value={values.title}
            onChange={(e) => change({ title: e.target.value })}
          />
        </Field>

        <HtmlField
          label="Body"
          value={values.body_html}
          onChange={(html) => change({ body_html: html })}
          onUpload={upload}
          error={errors.body_html}
        />

        <div className="settings-row">
          <Field label="Language" error={errors.lang}>
            <select
              value={values.lang ?? ''}
              onChange={(e) => change({ lang: (e.target.value || null) as Language | null })}
            >
              <option value="">The help centre’s language</option>
              {LANGUAGES.map((lang) => (
                <option key={lang} value={lang}>
                  {LANGUAGE_NAMES[lang]}
                </option>
              ))}
            </select>
          </Field>
          <div className="field checkbox-field">
            <label>
              <input
                type="checkbox"
                checked={values.can_create_issue}
                onChange={(e) => change({ can_create_issue: e.target.checked })}
              />
              Visitors can send a support request from this article
            </label>
          </div>
        </div>

        <Attachments
          files={values.files}
          onChange={(files) => change({ files })}
          onUpload={upload}
          error={errors.file_ids}
        />
      </div>

      {panel === 'preview' && (
        <ArticlePreview
          article={{
            id: articleId,
            sectionId: placement.sectionId,
            categoryId: placement.categoryId,
            title: values.title,
            html: values.body_html,
            canCreateIssue: values.can_create_issue,
            files: values.files,
          }}
          lang={values.lang ?? branding.lang}
          unsaved={dirty}
        />
      )}
      {panel === 'revisions' && articleId !== null && revisionId !== null && (
        <RevisionsPanel
          articleId={articleId}
          revisionId={revisionId}
          dirty={dirty}
          onRestored={(restored) => {
            adopt(restored);
            void reloadTree().catch(() => undefined);
            setPanel('edit');
            setStatus('Restored: the older revision is the current one now.');
          }}
        />
      )}

      <div className="editor-actions">
        {published ? (
          <>
            <button type="button" className="button" disabled={saving} onClick={() => void save(true)}>
              Save
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={saving}
              onClick={() => void save(false)}
            >
              Unpublish
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button button-secondary"
              disabled={saving}
              onClick={() => void save(false)}
            >
              Save draft
            </button>
            <button type="button" className="button" disabled={saving} onClick={() => void save(true)}>
              Publish
            </button>
          </>
        )}
        {dirty && articleId !== null && (
          <button type="button" className="button button-quiet" onClick={() => setValues(baseline)}>
            Discard changes
          </button>
        )}
        <span className="editor-status" role="status">
          {saving ? 'Saving…' : status}
        </span>
        {articleId !== null && (
          <button
            type="button"
            className="button button-danger push-right"
            onClick={() => setConfirmDelete(true)}
          >
            Delete article
          </button>
        )}
      </div>

      {confirmDelete && (
        <Modal title="Delete this article?" onClose={() => setConfirmDelete(false)}>
          <p>“{baseline.title}” and all its revisions will be deleted. This cannot be undone.</p>
          <div className="modal-actions">
            <button type="button" className="button button-danger" onClick={() => void deleteArticle()}>
              Delete
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
