import { useId, useMemo, useRef, useState } from 'react';
import type { AdminCategory, AdminFile } from '../../../../shared/api/admin.ts';
import { href } from '../../../../shared/paths.ts';
import { adminApi } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { fieldErrorsOf, messageOf, type FieldErrors } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { useContentTree } from '../tree/content-tree-context.tsx';
import { ancestorsOf, keyOf } from '../tree/tree-model.ts';
import {
  categoryDraftToOffer,
  categoryUpdateOf,
  categoryValuesOf,
  checkCategory,
  clearCategoryDraft,
  hasChanges,
  writeCategoryDraft,
  type CategoryValues,
  type IconKind,
} from './category-values.ts';
import { HtmlField } from './html-field.tsx';
import { browserStorage } from './local-draft.ts';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';
import { LocalDraftOffer, useLocalDraftWriter } from './use-local-draft.tsx';

const ICON_KINDS: { kind: IconKind; label: string }[] = [
  { kind: 'none', label: 'None' },
  { kind: 'file', label: 'An uploaded image' },
  { kind: 'font', label: 'A class of an icon font' },
];

/**
 * A category's name, description (the article editor's rich text and HTML source) and icon. Unsaved work is kept
 * in this browser and guarded against leaving, as in the article editor; moving and deleting stay in the tree.
 */
export function CategoryEditor({ category }: { category: AdminCategory }) {
  const { forest, reload: reloadTree } = useContentTree();
  const storage = useMemo(browserStorage, []);
  const ids = useId();
  const [baseline, setBaseline] = useState(() => categoryValuesOf(category));
  const [values, setValues] = useState(baseline);
  const [offer, setOffer] = useState(() => categoryDraftToOffer(storage, category.id, baseline));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);

  const dirty = hasChanges(values, baseline);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useLocalDraftWriter(
    () => {
      if (dirtyRef.current)
        writeCategoryDraft(storage, category.id, { values, saved_at: new Date().toISOString() });
      else clearCategoryDraft(storage, category.id);
    },
    [values, baseline, storage, category.id],
    offer !== null,
  );

  const change = (patch: Partial<CategoryValues>) => setValues((current) => ({ ...current, ...patch }));
  const upload = async (files: File[]): Promise<AdminFile[]> => (await adminApi.uploadFiles(files)).items;

  const chooseImage = async (file: File) => {
    setUploading(true);
    setErrors((current) => ({ ...current, icon_file_id: '' }));
    setStatus(`Uploading ${file.name}…`);
    try {
      const [stored] = await upload([file]);
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
    setSaving(true);
    const sent = values;
    try {
      const saved = await adminApi.updateCategory(category.id, body);
      const next = categoryValuesOf(saved);
      setBaseline(next);
      // Work typed while the save was on its way stays on screen.
      setValues((current) => (current === sent ? next : current));
      // Until the next render says otherwise: a move away right after the save is not held up.
      dirtyRef.current = false;
      setStatus(`Saved at ${formatTime(saved.updated_at)}.`);
      void reloadTree().catch(() => undefined);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setMessage(Object.keys(fields).length > 0 ? 'Check the fields marked below.' : messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  const key = keyOf('category', category.id);
  const place = ancestorsOf(forest, key).map((node) => node.name);

  return (
    <div className="editor category-editor">
      <UnsavedChangesGuard dirty={dirty} dirtyRef={dirtyRef} what="category" />
      <header className="editor-head">
        <div>
          <h1 tabIndex={-1}>Edit category</h1>
          <p className="muted editor-place">
            {place.length > 0 ? `In ${place.join(' › ')}` : ''}
            {dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
          </p>
        </div>
        <div className="panel-switch">
          <a className="tool" href={href.category(category.id)} target="_blank" rel="noopener">
            Public page<span className="visually-hidden"> (opens in a new tab)</span>
            <span aria-hidden="true" className="external-mark">
              ↗
            </span>
          </a>
        </div>
      </header>

      {offer && (
        <LocalDraftOffer
          what="category"
          savedAt={offer.saved_at}
          onRestore={() => {
            setValues(offer.values);
            setOffer(null);
            setStatus('Restored the unsaved changes.');
          }}
          onDiscard={() => {
            clearCategoryDraft(storage, category.id);
            setOffer(null);
            setStatus('Discarded the unsaved changes.');
          }}
        />
      )}

      <FormError message={message} />

      <div className="editor-form">
        <Field label="Name" error={errors.name}>
          <input
            ref={nameInput}
            type="text"
            maxLength={200}
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

        <fieldset className="choice-group icon-choice" aria-describedby={`${ids}-icon-hint`}>
          <legend>Icon</legend>
          <p className="field-hint" id={`${ids}-icon-hint`}>
            Shown on the category’s tile on the public site.
          </p>
          {ICON_KINDS.map(({ kind, label }) => (
            <label key={kind}>
              <input
                type="radio"
                name={`${ids}-icon`}
                checked={values.icon_type === kind}
                onChange={() => change({ icon_type: kind })}
              />
              {label}
            </label>
          ))}
          {values.icon_type === 'file' && (
            <div className="nested-field icon-image">
              {values.icon_url ? (
                <img className="icon-thumb" src={values.icon_url} alt="The icon now chosen" />
              ) : (
                <p className="muted">No image chosen yet.</p>
              )}
              <Field label="Icon image" hint="A square image looks best." error={errors.icon_file_id}>
                <input
                  type="file"
                  accept="image/*"
                  disabled={uploading}
                  onChange={(event) => {
                    const file = event.target.files?.[0];
                    if (file) void chooseImage(file);
                    event.target.value = '';
                  }}
                />
              </Field>
            </div>
          )}
          {values.icon_type === 'font' && (
            <Field
              className="nested-field"
              label="Icon class"
              hint="Lowercase letters, digits and hyphens, such as fa-wifi: a class the public site’s stylesheet defines."
              error={errors.font_icon}
            >
              <input
                type="text"
                maxLength={64}
                autoComplete="off"
                spellCheck={false}
                value={values.font_icon}
                onChange={(e) => change({ font_icon: e.target.value })}
              />
            </Field>
          )}
        </fieldset>
      </div>

      <div className="editor-actions">
        <button type="button" className="button" disabled={saving || uploading} onClick={() => void save()}>
          Save category
        </button>
        {dirty && (
          <button type="button" className="button button-quiet" onClick={() => setValues(baseline)}>
            Discard changes
          </button>
        )}
        <span className="editor-status" role="status">
          {saving ? 'Saving…' : status}
        </span>
      </div>
    </div>
  );
}
