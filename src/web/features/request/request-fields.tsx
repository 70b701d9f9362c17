import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { ISSUE_NAME_MAX } from '../../../shared/constants.ts';
import { describedBy, FieldError } from '../../components/field-error.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { CaptchaField } from './captcha-field.tsx';
import { RequestSuggestions } from './request-suggestions.tsx';
import type { useCaptcha } from './use-captcha.ts';
import type { RequestErrors } from './use-request-errors.ts';
import type { Prefill, RequestField, RequestValues } from './use-sender-details.ts';

/** A field's id, name and value, and its invalid mark tied to its error by id. */
function fieldProps(formId: string, field: RequestField, values: RequestValues, errors: RequestErrors) {
  return {
    id: `${formId}-${field}`,
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy(errors[field] && `${formId}-${field}-error`),
  };
}

/** The error under a field, with the id its field names. */
function RequestFieldError({
  formId,
  field,
  errors,
}: {
  formId: string;
  field: RequestField;
  errors: RequestErrors;
}) {
  return <FieldError id={`${formId}-${field}-error`} message={errors[field]} />;
}

/**
 * Name and email, fixed when the account or a link gave them, with a line that says where from: for a link, with
 * "Not you?" to forget it (`onNotYou`), after which the name is the field to fill in.
 */
export function SenderFields({
  formId,
  values,
  errors,
  locked,
  prefill,
  onChange,
  onNotYou,
}: {
  formId: string;
  values: RequestValues;
  errors: RequestErrors;
  locked: { name: boolean; email: boolean };
  prefill: Prefill;
  onChange: (field: RequestField, value: string) => void;
  onNotYou: () => void;
}) {
  const { t } = useI18n();
  const nameInput = useRef<HTMLInputElement>(null);
  const notYou = () => {
    // The button goes away with the prefill: focus moves on to the field to fill in instead of being lost.
    flushSync(onNotYou);
    nameInput.current?.focus();
  };
  return (
    <>
      <div className="field">
        <label htmlFor={`${formId}-name`}>{t('nameLabel')}</label>
        <input
          {...fieldProps(formId, 'name', values, errors)}
          ref={nameInput}
          type="text"
          autoComplete="name"
          maxLength={ISSUE_NAME_MAX}
          disabled={locked.name}
          onChange={(e) => onChange('name', e.target.value)}
        />
        <RequestFieldError formId={formId} field="name" errors={errors} />
      </div>
      <div className="field">
        <label htmlFor={`${formId}-email`}>{t('emailLabel')}</label>
        <input
          {...fieldProps(formId, 'email', values, errors)}
          type="email"
          autoComplete="email"
          maxLength={320}
          disabled={locked.email}
          onChange={(e) => onChange('email', e.target.value)}
        />
        <RequestFieldError formId={formId} field="email" errors={errors} />
      </div>
      {prefill === 'account' && <p className="field-hint">{t('prefilledFromAccount')}</p>}
      {prefill === 'link' && (
        <p className="field-hint prefill-note">
          <span>{t('prefilledFromLink')}</span>
          <button type="button" className="text-button" onClick={notYou}>
            {t('notYou')}
          </button>
        </p>
      )}
    </>
  );
}

/** The message, with the articles that may already answer it listed under it as the visitor types. */
export function MessageField({
  formId,
  values,
  errors,
  excludeId,
  onChange,
  onOpenSuggestion,
}: {
  formId: string;
  values: RequestValues;
  errors: RequestErrors;
  /** The article the form is on, which is not suggested. */
  excludeId: number;
  onChange: (field: RequestField, value: string) => void;
  onOpenSuggestion: (id: number) => void;
}) {
  const { t } = useI18n();
  return (
    <>
      <div className="field">
        <label htmlFor={`${formId}-description`}>{t('messageLabel')}</label>
        <textarea
          {...fieldProps(formId, 'description', values, errors)}
          rows={6}
          maxLength={19_000}
          onChange={(e) => onChange('description', e.target.value)}
        />
        <RequestFieldError formId={formId} field="description" errors={errors} />
      </div>
      <RequestSuggestions
        id={`${formId}-suggestions`}
        message={values.description}
        excludeId={excludeId}
        onOpen={onOpenSuggestion}
      />
    </>
  );
}

/**
 * The end of the form: the captcha, the form's own error, and the button, held while sending, while the captcha
 * works, and for 5 seconds after a send, when it reads 'Sent'.
 */
export function RequestSubmit({
  formId,
  captcha,
  errors,
  sending,
  justSent,
}: {
  formId: string;
  captcha: ReturnType<typeof useCaptcha>;
  errors: RequestErrors;
  sending: boolean;
  justSent: boolean;
}) {
  const { t } = useI18n();
  return (
    <>
      <CaptchaField captcha={captcha} error={errors.captcha} errorId={`${formId}-captcha-error`} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" className="button" disabled={sending || justSent || captcha.state === 'working'}>
        {justSent ? t('sent') : sending ? t('sending') : t('send')}
      </button>
    </>
  );
}
