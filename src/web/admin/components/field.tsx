import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface ControlProps {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** A labelled control with its hint and the server's message for it, wired up for assistive technology. */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactElement<ControlProps>;
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

/** A message for the whole form, read out as it appears. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

/** One radio button of a choice group, labelled by its words. */
export function RadioChoice({
  name,
  checked,
  onSelect,
  children,
}: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <label>
      <input type="radio" name={name} checked={checked} onChange={onSelect} />
      {children}
    </label>
  );
}

/** A checkbox with its words as its label; children go under it (a hint). */
export function CheckboxField({
  label,
  checked,
  onChange,
  describedBy,
  children,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The id of what describes it, such as the hint given as children. */
  describedBy?: string;
  children?: ReactNode;
}) {
  return (
    <div className="field checkbox-field">
      <label>
        <input
          type="checkbox"
          checked={checked}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {children}
    </div>
  );
}
