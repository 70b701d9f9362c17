import { Modal, ModalActions } from '../../components/modal.tsx';
import { DiscardAndStatus } from './editor-parts.tsx';
import type { ArticleForm } from './use-article-form.ts';

/** Save or publish (or unpublish), discard, the status line, and delete with its confirmation. */
export function ArticleActions({ editor }: { editor: ArticleForm }) {
  const { form, published, articleId, save, deletion } = editor;
  const { saving, dirty, status } = form;
  return (
    <>
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
        <DiscardAndStatus
          canDiscard={dirty && articleId !== null}
          onDiscard={form.discardChanges}
          saving={saving}
          status={status}
        />
        {articleId !== null && (
          <button
            type="button"
            className="button button-danger push-right"
            onClick={() => deletion.ask(true)}
          >
            Delete article
          </button>
        )}
      </div>

      {deletion.asking && (
        <Modal title="Delete this article?" onClose={() => deletion.ask(false)}>
          <p>“{form.baseline.title}” and all its revisions will be deleted. This cannot be undone.</p>
          <ModalActions onCancel={() => deletion.ask(false)}>
            <button type="button" className="button button-danger" onClick={() => void deletion.confirm()}>
              Delete
            </button>
          </ModalActions>
        </Modal>
      )}
    </>
  );
}
