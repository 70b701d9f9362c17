import { useId } from 'react';
import { Field } from '../../components/field.tsx';
import type { CategoryValues, IconKind } from './category-values.ts';
import type { EditorForm } from './use-editor-form.ts';

const ICON_KINDS: { kind: IconKind; label: string }[] = [
  { kind: 'none', label: 'None' },
  { kind: 'file', label: 'An uploaded image' },
  { kind: 'font', label: 'A class of an icon font' },
];

/** The category's icon: none, an uploaded image, or a class of the public site's icon font. */
export function CategoryIconField({
  form,
  uploading,
  onChooseImage,
}: {
  form: EditorForm<CategoryValues>;
  uploading: boolean;
  onChooseImage: (file: File) => void;
}) {
  const ids = useId();
  const { values, change, errors } = form;
  return (
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
                if (file) onChooseImage(file);
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
  );
}
