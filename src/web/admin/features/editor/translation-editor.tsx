import { TITLE_MAX } from '../../../../shared/constants.ts';
import { uploadFiles } from '../../api/admin-api.ts';
import { Field, FormError } from '../../components/field.tsx';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import { Attachments } from './attachments.tsx';
import { HtmlField } from './html-field.tsx';
import type { LoadedTranslation } from './translation-kinds.ts';
import { OtherLanguages, OutdatedBanner, TranslationHead } from './translation-head.tsx';
import { FIELD_LABELS, TranslationSource } from './translation-source.tsx';
import { useTranslationForm, type TranslationForm } from './use-translation-form.ts';

const upload = async (files: File[]) => (await uploadFiles(files)).items;

/** The translation's own fields, in the source editor's components: name or title, body or description, files. */
function TranslationFields({ form }: { form: TranslationForm }) {
  const { translation, values, setValues, errors } = form;
  const { view, rules } = translation;
  return (
    <section
      className="translation-form editor-form"
      aria-labelledby="translation-form-heading"
      lang={view.lang}
    >
      <h2 id="translation-form-heading">Translation: {LANGUAGE_NAMES[view.lang]}</h2>
      <Field label={FIELD_LABELS[rules.nameField]} error={errors[rules.nameField]}>
        <input
          type="text"
          maxLength={TITLE_MAX}
          value={values.name}
          onChange={(e) => setValues({ ...values, name: e.target.value })}
        />
      </Field>
      {rules.html && (
        <HtmlField
          label={rules.html.label}
          value={values.html}
          onChange={(html) => setValues((current) => ({ ...current, html }))}
          onUpload={upload}
          error={errors[rules.html.field]}
        />
      )}
      {rules.hasFiles && (
        <Attachments
          files={values.files}
          onChange={(files) => setValues((current) => ({ ...current, files }))}
          onUpload={upload}
          error={errors.file_ids}
        />
      )}
    </section>
  );
}

/** Save, publish or unpublish, delete, and what the last of them did. */
function TranslationActions({ form }: { form: TranslationForm }) {
  const { translation, busy, dirty, status, save, togglePublished, remove } = form;
  const { view } = translation;
  return (
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
  );
}

/**
 * A translation edited beside its source: the source version read-only on the left (with what changed in it since
 * the translation was last saved, when it did), the translation's own fields on the right, in the source editor's
 * components. Saving records the source as translated; publishing is its own action.
 */
export function TranslationEditor({ initial }: { initial: LoadedTranslation }) {
  const form = useTranslationForm(initial);
  const { translation, dirty, dirtyRef, message } = form;
  return (
    <div className="editor translation-editor">
      <LeaveGuard dirty={dirty} dirtyRef={dirtyRef}>
        <p>This translation has changes that are not saved; leaving loses them.</p>
      </LeaveGuard>
      <TranslationHead translation={translation} dirty={dirty} />
      <OtherLanguages translation={translation} />
      <OutdatedBanner translation={translation} />
      <FormError message={message} />
      <div className="translation-columns">
        <TranslationSource translation={translation} />
        <TranslationFields form={form} />
      </div>
      <TranslationActions form={form} />
    </div>
  );
}
