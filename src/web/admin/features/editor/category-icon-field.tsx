import { useId } from 'react';
import { Field } from '../../components/field.tsx';
import { FONT_ICON_MAX, isFontIcon, tidyFontIcon } from '../../../../shared/constants.ts';
import { FontIcon } from '../../../components/font-icon.tsx';
import type { CategoryValues, IconKind } from './category-values.ts';
import type { EditorForm } from './use-editor-form.ts';

const ICON_KINDS: { kind: IconKind; label: string }[] = [
  { kind: 'none', label: 'None' },
  { kind: 'file', label: 'An uploaded image' },
  { kind: 'font', label: 'A class of an icon font' },
];

/** Icons a help centre's categories often want, one click each; any other Font Awesome Free class can be typed. */
const COMMON_ICONS = [
  'fa-solid fa-rocket',
  'fa-solid fa-book',
  'fa-solid fa-circle-question',
  'fa-solid fa-user',
  'fa-solid fa-credit-card',
  'fa-solid fa-gear',
  'fa-solid fa-wrench',
  'fa-solid fa-shield-halved',
  'fa-solid fa-lock',
  'fa-solid fa-wifi',
  'fa-solid fa-mobile-screen',
  'fa-solid fa-plug',
  'fa-solid fa-truck',
  'fa-solid fa-box-open',
  'fa-solid fa-code',
  'fa-solid fa-envelope',
  'fa-solid fa-bug',
  'fa-solid fa-chart-line',
  'fa-solid fa-bullhorn',
  'fa-solid fa-graduation-cap',
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
  const typed = tidyFontIcon(values.font_icon);
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
        <div className="nested-field font-icon-field">
          <div className="font-icon-entry">
            <span className="font-icon-preview" title="Preview">
              {isFontIcon(typed) ? <FontIcon classes={typed} /> : null}
            </span>
            <Field
              label="Icon class"
              hint={
                <>
                  Font Awesome Free classes, such as <code>fa-solid fa-wifi</code> or the older{' '}
                  <code>fa fa-credit-card</code>. The preview shows the icon as visitors will see it; an empty
                  circle means no such icon.
                </>
              }
              error={errors.font_icon}
            >
              <input
                type="text"
                maxLength={FONT_ICON_MAX}
                autoComplete="off"
                spellCheck={false}
                value={values.font_icon}
                onChange={(e) => change({ font_icon: e.target.value })}
              />
            </Field>
          </div>
          <div className="font-icon-picks" role="group" aria-label="Common icons">
            {COMMON_ICONS.map((icon) => (
              <button
                key={icon}
                type="button"
                className="font-icon-pick"
                aria-label={icon}
                aria-pressed={typed === icon}
                title={icon}
                onClick={() => change({ font_icon: icon })}
              >
                <FontIcon classes={icon} />
              </button>
            ))}
          </div>
        </div>
      )}
    </fieldset>
  );
}
