import type { ReactNode } from 'react';
import { ApiRequestError, fieldErrorsOf, type FieldErrors } from '../api/call.ts';
import { describedBy, FieldError } from '../components/field-error.tsx';
import { CaptchaField } from '../features/request/captcha-field.tsx';
import { formField } from '../features/request/request-api.ts';
import type { useCaptcha } from '../features/request/use-captcha.ts';
import { usePortalTexts } from './portal-texts.ts';

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  multiline?: boolean;
  maxLength?: number;
}

/** One labelled input with its hint and its error, tied together for assistive technology. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  autoComplete,
  multiline = false,
  maxLength = 320,
}: TextFieldProps) {
  const common = {
    id,
    name: id,
    value,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(hint && `${id}-hint`, error && `${id}-error`),
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={6} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

type OwnFieldProps = Pick<TextFieldProps, 'value' | 'onChange' | 'error'>;

/** The visitor's email address. */
export function EmailField({
  id = 'email',
  ...field
}: OwnFieldProps & Pick<TextFieldProps, 'hint'> & { id?: string }) {
  const { t } = usePortalTexts();
  return <TextField {...field} id={id} label={t('emailLabel')} type="email" autoComplete="email" />;
}

/** A password: the current one, or a new one with the rules it must keep as its hint. */
export function PasswordField({
  kind,
  ...field
}: OwnFieldProps & Pick<TextFieldProps, 'id' | 'label'> & { kind: 'current' | 'new' }) {
  const { p } = usePortalTexts();
  return (
    <TextField
      {...field}
      type="password"
      autoComplete={`${kind}-password`}
      maxLength={1024}
      hint={kind === 'new' ? p('passwordHint') : undefined}
    />
  );
}

/** A form's errors from a failed call: per field where the server names one, else one line for the form. */
export function errorsOf(error: unknown, fallback: string): FieldErrors {
  const fields = fieldErrorsOf(error, formField);
  if (Object.keys(fields).length > 0) return fields;
  return { form: error instanceof ApiRequestError && error.body?.message ? error.body.message : fallback };
}

export function FormError({ message }: { message: string | undefined }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** The end of a form a captcha guards: the captcha, the form's error, and its button, held while the captcha works. */
export function CaptchaSubmit({
  captcha,
  errors,
  formError = errors.form,
  busy,
  children,
}: {
  captcha: ReturnType<typeof useCaptcha>;
  errors: FieldErrors;
  formError?: string | undefined;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <CaptchaField captcha={captcha} error={errors.captcha} />
      <FormError message={formError} />
      <button type="submit" className="button" disabled={busy || captcha.state === 'working'}>
        {children}
      </button>
    </>
  );
}

/** A narrow panel for one task (sign in, a new password...), with its heading. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="portal-panel">
      <h1>{title}</h1>
      {children}
    </section>
  );
}
