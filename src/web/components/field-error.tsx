/**
 * A field's error, drawn the same under every field (the red mark comes with `.field-error`); its id is what the
 * field's aria-describedby names.
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

/** A field's aria-describedby: its hint and its error, those that are shown. */
export const describedBy = (...ids: (string | false | null | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;
