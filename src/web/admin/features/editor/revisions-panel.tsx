import { useEffect, useState, type FormEvent } from 'react';
import type { AdminArticle, RevisionDiff, RevisionSummary } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { FormError } from '../../components/field.tsx';
import { messageOf } from '../../lib/errors.ts';
import { formatTime } from '../../lib/format-time.ts';
import { CompareForm, describe, DiffView, RestoreDialog, RevisionsTable } from './revision-views.tsx';

/** The article's revisions, loaded again when a save makes a new one; the newest two are chosen to compare. */
function useRevisionList(
  articleId: number,
  revisionId: number,
  set: {
    setItems: (items: RevisionSummary[]) => void;
    setFrom: (id: string) => void;
    setTo: (id: string) => void;
    setMessage: (message: string) => void;
  },
) {
  const { setItems, setFrom, setTo, setMessage } = set;
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

  useRevisionList(articleId, revisionId, { setItems, setFrom, setTo, setMessage });

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
  const options = items.map((r) => (
    <option key={r.id} value={r.id}>
      {describe(r)} · {formatTime(r.created_at)}
    </option>
  ));

  return (
    <div className="revisions">
      <h2 className="panel-heading">Revisions</h2>
      <FormError message={message} />
      <RevisionsTable items={items} onRestore={setRestoring} />
      {items.length > 1 && (
        <CompareForm
          options={options}
          from={from}
          to={to}
          busy={busy}
          setFrom={setFrom}
          setTo={setTo}
          onCompare={handleCompare}
        />
      )}
      {diff && <DiffView diff={diff} />}
      {restoring && (
        <RestoreDialog
          restoring={restoring}
          dirty={dirty}
          busy={busy}
          onClose={() => setRestoring(null)}
          onRestore={handleRestore}
        />
      )}
    </div>
  );
}
