import { useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AdminArticle } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { codeOf, fieldErrorsOf, messageOf, statusOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { useContentTree } from '../../lib/content-tree-context.tsx';
import { ancestorsOf, keyOf, type Forest, type TreeNode } from '../../lib/tree-model.ts';
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

type ArticleEditorForm = ReturnType<typeof useEditorForm<ArticleValues, LocalDraft>>;

export type Panel = 'edit' | 'preview' | 'revisions';

export interface Placement {
  sectionId: number;
  categoryId: number | null;
}

/** Where the article is (or goes, while new): its section and categories. */
function placeOf(forest: Forest, articleId: number | null, placement: Placement): TreeNode[] {
  const key =
    articleId !== null && forest.byKey.has(keyOf('article', articleId)) ? keyOf('article', articleId) : null;
  if (key) return ancestorsOf(forest, key);
  const container = keyOf(
    placement.categoryId ? 'category' : 'section',
    placement.categoryId ?? placement.sectionId,
  );
  const node = forest.byKey.get(container);
  return node ? [...ancestorsOf(forest, container), node] : [];
}

/** The create or update call a save makes: a new article goes where it was placed; an untouched body is not sent. */
function sendArticle({
  articleId,
  placement,
  sent,
  baseline,
  base,
  publish,
}: {
  articleId: number | null;
  placement: Placement;
  sent: ArticleValues;
  baseline: ArticleValues;
  base: number | null;
  publish: boolean;
}): Promise<AdminArticle> {
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
  return articleId === null
    ? adminCall('createArticle', {
        body: {
          ...common,
          section_id: placement.sectionId,
          category_id: placement.categoryId,
          body_html: sent.body_html,
        },
      })
    : adminCall('updateArticle', {
        params: { id: articleId },
        body: {
          ...common,
          // An untouched body is not sent: the stored HTML stays exactly as it was.
          ...(sent.body_html !== baseline.body_html ? { body_html: sent.body_html } : {}),
          ...(base ? { base_revision_id: base } : {}),
        },
      });
}

/** What a save says it did: published, saved, unpublished or saved as a draft. */
function savedStatus(publish: boolean, wasPublished: boolean, updatedAt: string): string {
  return publish
    ? `${wasPublished ? 'Saved' : 'Published'} at ${formatTime(updatedAt)}.`
    : wasPublished
      ? 'Unpublished: the article is a draft again.'
      : `Saved as a draft at ${formatTime(updatedAt)}.`;
}

/** What the editor does to the saved article: reload it, overwrite a newer one, delete it, or take a restored one. */
function useArticleActions({
  articleId,
  published,
  form,
  adopt,
  save,
  setConflict,
  setConfirmDelete,
  setPanel,
}: {
  articleId: number | null;
  published: boolean;
  form: ArticleEditorForm;
  adopt: (saved: AdminArticle) => void;
  save: (publish: boolean, base?: number | null) => Promise<void>;
  setConflict: (conflict: boolean) => void;
  setConfirmDelete: (confirm: boolean) => void;
  setPanel: (panel: Panel) => void;
}) {
  const navigate = useNavigate();
  const { reload: reloadTree } = useContentTree();
  const { setMessage, setStatus } = form;
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
      form.draft.forget();
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

  return { reloadArticle, overwrite, deleteArticle, restored };
}

/** The shared form, with an article's values and local draft, which keeps the revision it started from. */
function useArticleEditorForm(
  article: AdminArticle | null,
  articleId: number | null,
  baseRevisionId: number | null,
  setBaseRevisionId: (id: number) => void,
) {
  const location = useLocation();
  return useEditorForm<ArticleValues, LocalDraft>({
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
}

/**
 * An article's editing: the shared form (values, local draft, guard) plus what only articles have: publishing,
 * the revision a save starts from and the conflict when someone else saved meanwhile, reloading, deleting, and the
 * panel shown.
 */
export function useArticleForm(article: AdminArticle | null, placement: Placement) {
  const navigate = useNavigate();
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

  const form = useArticleEditorForm(article, articleId, baseRevisionId, setBaseRevisionId);
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
    await form.runSave(
      async () => {
        const saved = await sendArticle({ articleId, placement, sent, baseline, base, publish });
        adopt(saved, { ...sent, title: sent.title.trim() });
        const said = savedStatus(publish, published, saved.updated_at);
        setStatus(said);
        void reloadTree().catch(() => undefined);
        if (articleId === null) {
          form.draft.forget();
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

  const { reloadArticle, overwrite, deleteArticle, restored } = useArticleActions({
    articleId,
    published,
    form,
    adopt,
    save,
    setConflict,
    setConfirmDelete,
    setPanel,
  });

  const place = placeOf(forest, articleId, placement);

  return {
    form,
    articleId,
    published,
    translations,
    revisionId,
    panel,
    setPanel,
    /** Someone else saved meanwhile: shown, and its two ways out (take theirs, or save over it). */
    conflict: { shown: conflict, reload: reloadArticle, overwrite },
    /** Deleting the article: whether its confirmation is asked, and the deletion once confirmed. */
    deletion: { asking: confirmDelete, ask: setConfirmDelete, confirm: deleteArticle },
    titleInput,
    place,
    save,
    restored,
  };
}

export type ArticleForm = ReturnType<typeof useArticleForm>;
