import type { Visibility } from '../../../shared/constants.ts';
import { Field } from './field.tsx';

/** Who may read a section, category or article: its own setting; what it sits in may restrict it further. */
export function VisibilityField({
  value,
  onChange,
  error,
}: {
  value: Visibility;
  onChange: (visibility: Visibility) => void;
  error?: string;
}) {
  return (
    <Field
      label="Who can read it"
      error={error}
      hint="Signed-in customers need an account with a confirmed email. Everything inside something for signed-in customers is for them too; others do not see it at all."
    >
      <select value={value} onChange={(e) => onChange(e.target.value as Visibility)}>
        <option value="everyone">Everyone</option>
        <option value="signed_in">Signed-in customers only</option>
      </select>
    </Field>
  );
}
