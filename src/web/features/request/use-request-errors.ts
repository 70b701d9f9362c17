import { useState } from 'react';
import { ApiRequestError, fieldErrorsOf } from '../../api/call.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid.ts';
import { formField } from './request-api.ts';
import type { RequestField, RequestValues } from './use-sender-details.ts';

/** Every error the request form shows: under a field, the files', the captcha's, or the form's own. */
export type RequestErrors = Partial<Record<RequestField | 'files' | 'captcha' | 'form', string>>;

/**
 * The request form's errors, every invalid field marked alike with focus on the first (the form takes `form` as its
 * ref): the fields left empty, or those a refusal names, else one line for the form.
 */
export function useRequestErrors() {
  const { t } = useI18n();
  const [errors, setErrors] = useState<RequestErrors>({});
  const { form, focusFirstInvalid } = useFocusFirstInvalid();

  /** Marks the fields left empty as required (and no other error); true when the request can be sent. */
  const complete = (values: RequestValues) => {
    const missing: RequestErrors = {};
    for (const field of ['name', 'email', 'description'] as const) {
      if (!values[field].trim()) missing[field] = t('fieldRequired');
    }
    setErrors(missing);
    if (Object.keys(missing).length === 0) return true;
    focusFirstInvalid();
    return false;
  };

  const refused = (error: unknown) => {
    const fields = fieldErrorsOf(error, formField);
    if (Object.keys(fields).length === 0)
      return setErrors({ form: error instanceof ApiRequestError ? error.message : t('errorOccurred') });
    setErrors(fields as RequestErrors);
    focusFirstInvalid();
  };

  /** One error set, or cleared as the visitor corrects its field. */
  const setError = (field: keyof RequestErrors, message: string | undefined) =>
    setErrors((current) => ({ ...current, [field]: message }));

  return { form, errors, setErrors, setError, complete, refused };
}
