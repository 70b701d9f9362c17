import { useCallback, useState } from 'react';
import type { FieldErrors } from '../api/call.ts';
import { useFocusFirstInvalid } from '../lib/use-focus-first-invalid.ts';
import { errorsOf } from './form-parts.tsx';
import { usePortalTexts } from './portal-texts.ts';

/**
 * One portal form's errors and busy state. `send` runs its call while the form is busy; a failure shows as the
 * fields' errors (or as `explain` words it), and counts in `failures`, which a captcha follows for a fresh answer.
 * A form that takes `form` as its ref has focus moved to its first invalid field whenever fields are marked.
 */
export function usePortalForm() {
  const { t } = usePortalTexts();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState(0);
  const { form, focusFirstInvalid } = useFocusFirstInvalid();

  const send = async (action: () => Promise<void>, explain?: (error: unknown) => FieldErrors | undefined) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setErrors(explain?.(error) ?? errorsOf(error, t('errorOccurred')));
      focusFirstInvalid();
      setFailures((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  /** Shows the fields marked empty as required (and no other error); true when the form can be sent. */
  const complete = (empty: Record<string, boolean>) => {
    const missing: FieldErrors = {};
    for (const [field, isEmpty] of Object.entries(empty)) if (isEmpty) missing[field] = t('fieldRequired');
    setErrors(missing);
    if (Object.keys(missing).length > 0) focusFirstInvalid();
    return Object.keys(missing).length === 0;
  };

  /** One field's error set, or cleared (a file refused by the picker, then a good one chosen). */
  const setFieldError = (field: string, message: string | undefined) =>
    setErrors((current) => {
      const next = { ...current };
      if (message) next[field] = message;
      else delete next[field];
      return next;
    });

  return { form, errors, setErrors, setFieldError, busy, failures, send, complete };
}

/** A form's values, each field's setter clearing that field's error as the visitor corrects it. */
export function useFormValues<Values extends Record<string, string>>(
  initial: Values,
  setErrors: (update: (current: FieldErrors) => FieldErrors) => void,
) {
  const [values, setValues] = useState(initial);
  const set = useCallback(
    (field: keyof Values) => (value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }) as FieldErrors);
    },
    [setErrors],
  );
  return { values, setValues, set };
}
