import type { AdminCategory } from '../../../../shared/api/admin.ts';
import { href } from '../../../../shared/paths.ts';
import { Field, FormError } from '../../components/field.tsx';
import { CategoryIconField } from './category-icon-field.tsx';
import { VisibilityField } from '../../components/visibility-field.tsx';
import { DiscardAndStatus, PublicPageLink } from './editor-parts.tsx';
import { HtmlField } from './html-field.tsx';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';
import { useCategoryForm } from './use-category-form.ts';
import { LocalDraftOffer } from './use-local-draft.tsx';
import { TranslationsArea } from './translations-area.tsx';
import { TITLE_MAX } from '../../../../shared/constants.ts';

/**
 * A category's name, description (the article editor's rich text and HTML source) and icon. Unsaved work is kept
 * in this browser and guarded against leaving, as in the article editor; moving and deleting stay in the tree.
 */
export function CategoryEditor({ category }: { category: AdminCategory }) {
  const { form, uploading, nameInput, chooseImage, save, place } = useCategoryForm(category);
  const { values, change, upload, errors, dirty, draft, saving, status } = form;

  return (
    <div className="editor category-editor">
      <UnsavedChangesGuard dirty={dirty} dirtyRef={form.dirtyRef} what="category" />
      <header className="editor-head">
        <div>
          <h1 tabIndex={-1}>Edit category</h1>
          <p className="muted editor-place">
            {place.length > 0 ? `In ${place.join(' › ')}` : ''}
            {dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
          </p>
        </div>
        <div className="panel-switch">
          <PublicPageLink href={href.category(category.id)} />
        </div>
      </header>

      {draft.offer && (
        <LocalDraftOffer
          what="category"
          savedAt={draft.offer.saved_at}
          onRestore={draft.restore}
          onDiscard={draft.discard}
        />
      )}

      <FormError message={form.message} />

      <div className="editor-form">
        <Field label="Name" error={errors.name}>
          <input
            ref={nameInput}
            type="text"
            maxLength={TITLE_MAX}
            value={values.name}
            onChange={(e) => change({ name: e.target.value })}
          />
        </Field>

        <HtmlField
          label="Description"
          value={values.description}
          onChange={(html) => change({ description: html })}
          onUpload={upload}
          error={errors.description}
        />

        <CategoryIconField
          form={form}
          uploading={uploading}
          onChooseImage={(file) => void chooseImage(file)}
        />

        <VisibilityField
          value={values.visibility ?? 'everyone'}
          onChange={(visibility) => change({ visibility })}
          error={errors.visibility}
        />
      </div>

      <TranslationsArea
        kind="category"
        id={category.id}
        lang={category.lang}
        translations={category.translations ?? []}
      />

      <div className="editor-actions">
        <button type="button" className="button" disabled={saving || uploading} onClick={() => void save()}>
          Save category
        </button>
        <DiscardAndStatus
          canDiscard={dirty}
          onDiscard={form.discardChanges}
          saving={saving}
          status={status}
        />
      </div>
    </div>
  );
}
