import { useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AdminArticle } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { codeOf, fieldErrorsOf, messageOf, statusOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { useContentTree } from '../../lib/content-tree-context.tsx';
import { ancestorsOf, keyOf } from '../../lib/tree-model.ts';
import {
  blankValues,
  clearLocalDraft,
  draftToOffer,
  sameValues,
  valuesOf,
  writeLocalDraft,
  type ArticleValues,
  type LocalDraft,
} from './local-draft.ts';
import { useEditorForm } from './use-editor-form.ts';

export type Panel = 'edit' | 'preview' | 'revisions';

export interface Placement {
  sectionId: number;
  categoryId: number | null;
}

/**
 * An article's editing: the shared form (values, local draft, guard) plus what only articles have: publishing,
 * the revision a save starts from and the conflict when someone else saved meanwhile, reloading, deleting, and the
 * panel shown.
 */
export function useArticleForm(article: AdminArticle | null, placement: Placement) {
  const navigate = useNavigate();
  const location = useLocation();
  const { forest, reload: reloadTree } = useContentTree();

  const [articleId, setArticleId] = useState<number | null>(article?.id ?? null);
  const [published, setPublished] = useState(article?.published ?? false);
  const [revisionId, setRevisionId] = useState<number | null>(article?.revision_id ?? null);
  const [baseRevisionId, setBaseRevisionId] = useState<number | null>(article?.revision_id ?? null);
  const [panel, setPanel] = useState<Panel>('edit');
  // A save of the source can make translations outdated: the answer's summary replaces the loaded one.
  const [translations, setTranslations] = useState(article?.translations ?? []);
  const [conflict, setConflict] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);

  const form = useEditorForm<ArticleValues, LocalDraft>({
    initial: () => (article ? valuesOf(article) : blankValues()),
    hasChanges: (values, saved) => !sameValues(values, saved),
    isSent: sameValues,
    localDraft: {
      offer: (storage, server) => draftToOffer(storage, article?.id ?? null, server),
      write: (storage, values) =>
        writeLocalDraft(storage, articleId, {
          values,
          base_revision_id: baseRevisionId,
          saved_at: new Date().toISOString(),
        }),
      clear: (storage) => clearLocalDraft(storage, articleId),
    },
    draftDeps: [baseRevisionId, articleId],
    // A new article's first save arrives here with its message, in the editor that replaced the blank one.
    initialStatus: () => (location.state as { status?: string } | null)?.status ?? '',
    onRestore: (offer) => {
      if (offer.base_revision_id !== null) setBaseRevisionId(offer.base_revision_id);
    },
  });
  const { values, baseline, setErrors, setMessage, setStatus } = form;

  /** The server's article becomes the editor's starting point; work typed meanwhile stays on screen. */
  const adopt = (saved: AdminArticle, sent?: ArticleValues) => {
    form.adopt(valuesOf(saved), sent);
    setPublished(saved.published);
    setTranslations(saved.translations);
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
    const sent = values;
    const common = {
      title: sent.title.trim(),
      lang: sent.lang,
      can_create_issue: sent.can_create_issue,
      // A draft kept in this browser before visibility existed has none: the stored setting stays.
      ...(sent.visibility && { visibility: sent.visibility }),
      ...(sent.noindex !== undefined && { noindex: sent.noindex }),
      file_ids: sent.files.map((file) => file.id),
      published: publish,
    };
    await form.runSave(
      async () => {
        const saved =
          articleId === null
            ? await adminCall('createArticle', {
                body: {
                  ...common,
                  section_id: placement.sectionId,
                  category_id: placement.categoryId,
                  body_html: sent.body_html,
                },
              })
            : await adminCall('updateArticle', {
                params: { id: articleId },
                body: {
                  ...common,
                  // An untouched body is not sent: the stored HTML stays exactly as it was.
                  ...(sent.body_html !== baseline.body_html ? { body_html: sent.body_html } : {}),
                  ...(base ? { base_revision_id: base } : {}),
                },
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
          form.forgetDraft();
          setArticleId(saved.id);
          navigate(`/articles/${saved.id}`, { replace: true, state: { status: said } });
        }
      },
      (error) => {
        if (codeOf(error) === 'conflict' || (statusOf(error) === 409 && articleId !== null))
          setConflict(true);
        else {
          const fields = fieldErrorsOf(error);
          setErrors(fields);
          setMessage(messageOf(error));
          if (fields.title) titleInput.current?.focus();
        }
      },
    );
  };

  const reloadArticle = async () => {
    if (articleId === null) return;
    try {
      const fresh = await adminCall('getAdminArticle', { params: { id: articleId } });
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
      const fresh = await adminCall('getAdminArticle', { params: { id: articleId } });
      await save(published, fresh.revision_id);
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  const deleteArticle = async () => {
    if (articleId === null) return;
    try {
      await adminCall('deleteArticle', { params: { id: articleId } });
      form.forgetDraft();
      form.dirtyRef.current = false;
      await reloadTree().catch(() => undefined);
      navigate('/');
    } catch (error) {
      setConfirmDelete(false);
      setMessage(messageOf(error));
    }
  };

  const restored = (article: AdminArticle) => {
    adopt(article);
    void reloadTree().catch(() => undefined);
    setPanel('edit');
    setStatus('Restored: the older revision is the current one now.');
  };

  /** Where the article is (or goes, while new): its section and categories. */
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

  return {
    form,
    articleId,
    published,
    translations,
    revisionId,
    panel,
    setPanel,
    conflict,
    confirmDelete,
    setConfirmDelete,
    titleInput,
    place,
    save,
    reloadArticle,
    overwrite,
    deleteArticle,
    restored,
  };
}

export type ArticleForm = ReturnType<typeof useArticleForm>;
