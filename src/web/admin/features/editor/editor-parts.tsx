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
