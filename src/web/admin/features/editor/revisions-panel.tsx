import { useEffect, useState, type FormEvent } from 'react';
import type { AdminArticle, DiffPart, RevisionDiff, RevisionSummary } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { FormError } from '../../components/field.tsx';
import { Modal, ModalActions } from '../../components/modal.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { messageOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';

const describe = (revision: RevisionSummary) =>
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

function DiffView({ diff }: { diff: RevisionDiff }) {
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

/**
 * Every save is a revision: list them, compare any two (the server's diff shows what was inserted and deleted) and
 * restore one, which the server keeps as a new revision.
 */
export function RevisionsPanel({
  articleId,
  revisionId,
  dirty,
  onRestored,
}: {
  articleId: number;
  /** The newest revision: the list reloads when a save makes a new one. */
  revisionId: number;
  dirty: boolean;
  onRestored: (article: AdminArticle) => void;
}) {
  const [items, setItems] = useState<RevisionSummary[] | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [diff, setDiff] = useState<RevisionDiff | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<RevisionSummary | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    adminCall('listRevisions', { params: { id: articleId } })
      .then(({ items: list }) => {
        if (cancelled) return;
        setItems(list);
        // Newest first: compare the one before the newest with the newest by default.
        setTo(String(list[0]?.id ?? ''));
        setFrom(String(list[1]?.id ?? list[0]?.id ?? ''));
      })
      .catch((error: unknown) => !cancelled && setMessage(messageOf(error)));
    return () => {
      cancelled = true;
    };
  }, [articleId, revisionId]);

  const handleCompare = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setBusy(true);
    try {
      setDiff(
        await adminCall('diffRevisions', {
          params: { id: articleId },
          query: { from: Number(from), to: Number(to) },
        }),
      );
    } catch (error) {
      setMessage(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const handleRestore = async () => {
    if (!restoring) return;
    setBusy(true);
    setMessage(null);
    try {
      const article = await adminCall('restoreRevision', {
        params: { id: articleId, revision: restoring.id },
      });
      setRestoring(null);
      setDiff(null);
      onRestored(article);
    } catch (error) {
      setRestoring(null);
      setMessage(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  if (!items) return <p className="muted">{message ?? 'Loading the revisions…'}</p>;
  const newest = items[0]?.id;
  const options = items.map((r) => (
    <option key={r.id} value={r.id}>
      {describe(r)} · {formatTime(r.created_at)}
    </option>
  ));

  return (
    <div className="revisions">
      <h2 className="panel-heading">Revisions</h2>
      <FormError message={message} />
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
                      onClick={() => setRestoring(revision)}
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
      {items.length > 1 && (
        <form className="compare-form" onSubmit={handleCompare}>
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
      )}
      {diff && <DiffView diff={diff} />}
      {restoring && (
        <Modal title={`Restore revision ${restoring.number}?`} onClose={() => setRestoring(null)}>
          <p>
            The title, body, language, request-form setting and attachments become those of revision{' '}
            {restoring.number} (“{restoring.title}”). Whether the article is published does not change. This
            is saved as a new revision: nothing is lost.
          </p>
          {dirty && <p className="form-error">Your unsaved changes in the editor will be replaced.</p>}
          <ModalActions onCancel={() => setRestoring(null)}>
            <button type="button" className="button" disabled={busy} onClick={handleRestore}>
              Restore
            </button>
          </ModalActions>
        </Modal>
      )}
    </div>
  );
}
