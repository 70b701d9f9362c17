import type { Visibility } from '../../../../shared/constants.ts';
import { Field } from '../../components/field.tsx';

/** A link to the item's public page, in a new tab, as both editors' heads show it. */
export function PublicPageLink({ href }: { href: string }) {
  return (
    <a className="tool" href={href} target="_blank" rel="noopener">
      Public page<span className="visually-hidden"> (opens in a new tab)</span>
      <span aria-hidden="true" className="external-mark">
        ↗
      </span>
    </a>
  );
}

/** "Discard changes" while there are any, and the save's progress or outcome, spoken as it changes. */
export function DiscardAndStatus({
  canDiscard,
  onDiscard,
  saving,
  status,
}: {
  canDiscard: boolean;
  onDiscard: () => void;
  saving: boolean;
  status: string;
}) {
  return (
    <>
      {canDiscard && (
        <button type="button" className="button button-quiet" onClick={onDiscard}>
          Discard changes
        </button>
      )}
      <span className="editor-status" role="status">
        {saving ? 'Saving…' : status}
      </span>
    </>
  );
}

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
