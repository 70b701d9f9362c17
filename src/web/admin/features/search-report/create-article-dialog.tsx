import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminTree } from '../../../../shared/api/admin.ts';
import { TITLE_MAX } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { Modal, ModalActions } from '../../components/modal.tsx';
import { titleFromQuery } from '../../lib/query-title.ts';
import { articlePlaces, buildForest } from '../../lib/tree-model.ts';
import { useFormSubmission } from '../../lib/use-form-submission.ts';

export interface Place {
  key: string;
  label: string;
  sectionId: number;
  categoryId: number | null;
}

/** Where a new article may go; the first category is the default (a section's top level when there is none). */
export function placesOf(tree: AdminTree): Place[] {
  return articlePlaces(buildForest(tree)).map(({ node, label }) => ({
    key: node.key,
    label: node.kind === 'section' ? `${label} (top level)` : label,
    sectionId: node.sectionId,
    categoryId: node.kind === 'category' ? node.id : null,
  }));
}

/** Asks for the title and the place, then makes a draft and opens it in the editor. */
export function CreateArticleDialog({
  query,
  places,
  onClose,
}: {
  query: string;
  places: Place[];
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [title, setTitle] = useState(titleFromQuery(query));
  const [place, setPlace] = useState((places.find((p) => p.categoryId !== null) ?? places[0])?.key ?? '');
  const { errors, setErrors, message, busy, submitWith } = useFormSubmission();
  const submit = submitWith(async () => {
    const chosen = places.find((p) => p.key === place);
    if (!title.trim()) return setErrors({ title: 'Enter a title.' });
    if (!chosen) return setErrors({ section_id: 'Choose where the article goes.' });
    const article = await adminCall('createArticle', {
      body: {
        section_id: chosen.sectionId,
        category_id: chosen.categoryId,
        title: title.trim(),
        published: false,
      },
    });
    await navigate(`/articles/${article.id}`);
  });
  return (
    <Modal title="Create an article for this search" onClose={onClose}>
      <form className="modal-form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="muted">
          Visitors searched for “{query}”. The article is made as a draft and opens in the editor.
        </p>
        <FormError message={message} />
        {places.length === 0 && (
          <p className="form-error">There is no section yet: make one on the Content page first.</p>
        )}
        <Field label="Title" error={errors.title}>
          <input
            type="text"
            value={title}
            maxLength={TITLE_MAX}
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
          />
        </Field>
        <Field label="Place" error={errors.section_id ?? errors.category_id}>
          <select value={place} onChange={(e) => setPlace(e.target.value)}>
            {places.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button" disabled={busy || places.length === 0}>
            {busy ? 'Creating…' : 'Create draft'}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}
