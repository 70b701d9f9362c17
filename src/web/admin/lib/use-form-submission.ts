import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, messageOf, type FieldErrors } from './errors.ts';

/**
 * A form sent to the server: busy while it goes, and after a refusal the fields' messages and one for the whole form,
 * in the words `describe` gives (the server's own by default). Each sending starts with the last messages cleared.
 */
export function useFormSubmission(
  describe: (error: unknown, fields: FieldErrors) => string | null = messageOf,
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The form's submit handler, running `send`. */
  const submitWith = (send: () => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      await send();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setMessage(describe(error, fields));
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, message, busy, submitWith };
}
