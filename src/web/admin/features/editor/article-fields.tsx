import { VisibilityField } from '../../components/visibility-field.tsx';
import { useId, type RefObject } from 'react';
import { TITLE_MAX, type Language } from '../../../../shared/constants.ts';
import { CheckboxField, Field } from '../../components/field.tsx';
import { LanguageOptions } from '../../components/language-options.tsx';
import { Attachments } from './attachments.tsx';
import { HtmlField } from './html-field.tsx';
import type { ArticleValues } from './local-draft.ts';
import type { EditorForm } from './use-editor-form.ts';

/** The article's fields: title, body, language, the request form switch and the attachments. */
export function ArticleFields({
  form,
  titleInput,
  hidden,
}: {
  form: EditorForm<ArticleValues>;
  titleInput: RefObject<HTMLInputElement | null>;
  hidden: boolean;
}) {
  const { values, change, upload, errors } = form;
  const noindexHintId = useId();
  return (
    <div hidden={hidden} className="editor-form">
      <Field label="Title" error={errors.title}>
        <input
          ref={titleInput}
          type="text"
          maxLength={TITLE_MAX}
          value={values.title}
          onChange={(e) => change({ title: e.target.value })}
        />
      </Field>

      <HtmlField
        label="Body"
        value={values.body_html}
        onChange={(html) => change({ body_html: html })}
        onUpload={upload}
        error={errors.body_html}
      />

      <div className="settings-row">
        <Field label="Language" error={errors.lang}>
          <select
            value={values.lang ?? ''}
            onChange={(e) => change({ lang: (e.target.value || null) as Language | null })}
          >
            <option value="">The help centre’s language</option>
            <LanguageOptions />
          </select>
        </Field>
        <CheckboxField
          label="Visitors can send a support request from this article"
          checked={values.can_create_issue}
          onChange={(checked) => change({ can_create_issue: checked })}
        />
      </div>

      <VisibilityField
        value={values.visibility ?? 'everyone'}
        onChange={(visibility) => change({ visibility })}
        error={errors.visibility}
      />

      <CheckboxField
        label="Hide from search engines"
        checked={values.noindex ?? false}
        describedBy={noindexHintId}
        onChange={(checked) => change({ noindex: checked })}
      >
        <p className="field-hint" id={noindexHintId}>
          Readers still see it; its page asks search engines not to list it, and the sitemap leaves it out.
        </p>
      </CheckboxField>

      <Attachments
        files={values.files}
        onChange={(files) => change({ files })}
        onUpload={upload}
        error={errors.file_ids}
      />
    </div>
  );
}
