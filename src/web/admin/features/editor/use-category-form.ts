import { useRef, useState } from 'react';
import type { AdminCategory } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { fieldErrorsOf, messageOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { useContentTree } from '../../lib/content-tree-context.tsx';
import { ancestorsOf, keyOf } from '../../lib/tree-model.ts';
import {
  categoryDraftToOffer,
  categoryUpdateOf,
  categoryValuesOf,
  checkCategory,
  clearCategoryDraft,
  hasChanges,
  writeCategoryDraft,
  type CategoryDraft,
  type CategoryValues,
} from './category-values.ts';
import { useEditorForm } from './use-editor-form.ts';

/**
 * A category's editing: the shared form (values, local draft, guard) plus the icon image's upload and a save
 * that sends only what changed.
 */
export function useCategoryForm(category: AdminCategory) {
  const { forest, reload: reloadTree } = useContentTree();
  const [uploading, setUploading] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);

  const form = useEditorForm<CategoryValues, CategoryDraft>({
    initial: () => categoryValuesOf(category),
    hasChanges,
    // The values a save sent are still on screen only when nothing was typed since.
    isSent: (current, sent) => current === sent,
    localDraft: {
      offer: (storage, server) => categoryDraftToOffer(storage, category.id, server),
      write: (storage, values) =>
        writeCategoryDraft(storage, category.id, { values, saved_at: new Date().toISOString() }),
      clear: (storage) => clearCategoryDraft(storage, category.id),
    },
    draftDeps: [category.id],
  });
  const { values, baseline, change, setErrors, setMessage, setStatus } = form;

  const chooseImage = async (file: File) => {
    setUploading(true);
    setErrors((current) => ({ ...current, icon_file_id: '' }));
    setStatus(`Uploading ${file.name}…`);
    try {
      const [stored] = await form.upload([file]);
      if (!stored) throw new Error('The server kept no file.');
      change({ icon_type: 'file', icon_file_id: stored.id, icon_url: stored.url });
      setStatus(`${file.name} is ready: save to use it.`);
    } catch (error) {
      setErrors((current) => ({ ...current, icon_file_id: `The upload failed: ${messageOf(error)}` }));
      setStatus('');
    } finally {
      setUploading(false);
    }
  };

  const save = async () => {
    setMessage(null);
    const problems = checkCategory(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      setMessage('Check the fields marked below.');
      if (problems.name) nameInput.current?.focus();
      return;
    }
    const body = categoryUpdateOf(values, baseline);
    if (Object.keys(body).length === 0) {
      setStatus('Nothing to save: there are no changes.');
      return;
    }
    const sent = values;
    await form.runSave(
      async () => {
        const saved = await adminCall('updateCategory', { params: { id: category.id }, body: body });
        form.adopt(categoryValuesOf(saved), sent);
        setStatus(`Saved at ${formatTime(saved.updated_at)}.`);
        void reloadTree().catch(() => undefined);
      },
      (error) => {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        setMessage(Object.keys(fields).length > 0 ? 'Check the fields marked below.' : messageOf(error));
      },
    );
  };

  const place = ancestorsOf(forest, keyOf('category', category.id)).map((node) => node.name);

  return { form, uploading, nameInput, chooseImage, save, place };
}
