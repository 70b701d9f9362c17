import type { AdminArticle } from '../../../../shared/api/admin.ts';
import { FormError } from '../../components/field.tsx';
import { useSession } from '../../lib/use-session.ts';
import { ArticleActions } from './article-actions.tsx';
import { ArticleEditorHead } from './article-editor-head.tsx';
import { ArticleFields } from './article-fields.tsx';
import { ArticlePreview } from './article-preview.tsx';
import { ConflictBanner } from './conflict-banner.tsx';
import { RevisionsPanel } from './revisions-panel.tsx';
import { useArticleForm, type Placement } from './use-article-form.ts';
import { LocalDraftOffer } from './use-local-draft.tsx';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';
import { TranslationsArea } from './translations-area.tsx';

export type { Placement } from './use-article-form.ts';

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
  const { branding } = useSession();
  const editor = useArticleForm(article, placement);
  const { form, articleId, revisionId, panel } = editor;
  const { values, dirty, draft } = form;

  return (
    <div className="editor">
      <UnsavedChangesGuard dirty={dirty} dirtyRef={form.dirtyRef} />
      <ArticleEditorHead editor={editor} />

      {draft.offer && (
        <LocalDraftOffer
          what="article"
          savedAt={draft.offer.saved_at}
          note={
            draft.offer.base_revision_id !== null && draft.offer.base_revision_id !== revisionId
              ? '; the article has been saved since they were made'
              : ''
          }
          onRestore={draft.restore}
          onDiscard={draft.discard}
        />
      )}

      {editor.conflict.shown && (
        <ConflictBanner
          onReload={() => void editor.conflict.reload()}
          onOverwrite={() => void editor.conflict.overwrite()}
        />
      )}

      <FormError message={form.message} />

      <ArticleFields form={form} titleInput={editor.titleInput} hidden={panel !== 'edit'} />

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
          onRestored={editor.restored}
        />
      )}

      {panel === 'edit' && article && articleId !== null && (
        <TranslationsArea
          kind="article"
          id={articleId}
          lang={values.lang}
          translations={article.translations}
        />
      )}

      <ArticleActions editor={editor} />
    </div>
  );
}
