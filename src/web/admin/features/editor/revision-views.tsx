import type { ReactNode, FormEvent } from 'react';
import type { DiffPart, RevisionDiff, RevisionSummary } from '../../../../shared/api/admin.ts';
import { Modal, ModalActions } from '../../components/modal.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { formatTime } from '../../lib/format-time.ts';

/** The pieces of the revisions panel: a diff, the list, the compare form and the restore dialog. */

export const describe = (revision: RevisionSummary) =>
  `#${revision.number} · ${revision.action}${revision.restored_from ? ` (from #${revision.restored_from})` : ''}`;

export function Parts({ parts }: { parts: DiffPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.op === 'insert' ? (
          <ins key={i}>{part.text}</ins>
        ) : part.op === 'delete' ? (
          <del key={i}>{part.text}</del>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

export function DiffView({ diff }: { diff: RevisionDiff }) {
  const changedFields = Object.entries(diff.fields);
  const bodyChanged = diff.body.some((part) => part.op !== 'equal');
  return (
    <section className="diff" aria-labelledby="diff-heading">
      <h2 id="diff-heading" className="diff-heading">
        Changes from revision {diff.from.number} to {diff.to.number}
      </h2>
      <p className="diff-legend">
        <ins>Inserted</ins> <del>Deleted</del>
      </p>
      <h3>Title</h3>
      <p className="diff-title">
        <Parts parts={diff.title} />
      </p>
      {changedFields.length > 0 && (
        <>
          <h3>Other fields</h3>
          <ul>
            {changedFields.map(([name, change]) => (
              <li key={name}>
                {name}: {JSON.stringify(change.from)} → {JSON.stringify(change.to)}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Body</h3>
      {bodyChanged ? (
        <pre className="diff-body">
          <Parts parts={diff.body} />
        </pre>
      ) : (
        <p className="muted">The body is the same.</p>
      )}
    </section>
  );
}

/** The revisions, newest first, each but the current one with its Restore button. */
export function RevisionsTable({
  items,
  onRestore,
}: {
  items: RevisionSummary[];
  onRestore: (revision: RevisionSummary) => void;
}) {
  const newest = items[0]?.id;
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className="visually-hidden">Revisions, newest first</caption>
        <TableHead columns={['Revision', 'Saved', 'By', 'Title', 'State']} actions />
        <tbody>
          {items.map((revision) => (
            <tr key={revision.id}>
              <td>{describe(revision)}</td>
              <td>{formatTime(revision.created_at)}</td>
              <td>{revision.author?.name ?? '—'}</td>
              <td>{revision.title}</td>
              <td>{revision.published ? 'Published' : 'Draft'}</td>
              <td>
                {revision.id === newest ? (
                  <span className="muted">Current</span>
                ) : (
                  <button
                    type="button"
                    className="tool"
                    aria-label={`Restore revision ${revision.number}`}
                    onClick={() => onRestore(revision)}
                  >
                    Restore
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Two revisions to compare, by default the one before the newest and the newest. */
export function CompareForm({
  options,
  from,
  to,
  busy,
  setFrom,
  setTo,
  onCompare,
}: {
  options: ReactNode;
  from: string;
  to: string;
  busy: boolean;
  setFrom: (id: string) => void;
  setTo: (id: string) => void;
  onCompare: (event: FormEvent) => void;
}) {
  return (
    <form className="compare-form" onSubmit={onCompare}>
      <label>
        From
        <select value={from} onChange={(e) => setFrom(e.target.value)}>
          {options}
        </select>
      </label>
      <label>
        To
        <select value={to} onChange={(e) => setTo(e.target.value)}>
          {options}
        </select>
      </label>
      <button type="submit" className="button button-secondary" disabled={busy}>
        Compare
      </button>
    </form>
  );
}

/** Asks before a revision becomes the current one, warning when unsaved work would be replaced. */
export function RestoreDialog({
  restoring,
  dirty,
  busy,
  onClose,
  onRestore,
}: {
  restoring: RevisionSummary;
  dirty: boolean;
  busy: boolean;
  onClose: () => void;
  onRestore: () => void;
}) {
  return (
    <Modal title={`Restore revision ${restoring.number}?`} onClose={onClose}>
      <p>
        The title, body, language, request-form setting and attachments become those of revision{' '}
        {restoring.number} (“{restoring.title}”). Whether the article is published does not change. This is
        saved as a new revision: nothing is lost.
      </p>
      {dirty && <p className="form-error">Your unsaved changes in the editor will be replaced.</p>}
      <ModalActions onCancel={onClose}>
        <button type="button" className="button" disabled={busy} onClick={onRestore}>
          Restore
        </button>
      </ModalActions>
    </Modal>
  );
}
