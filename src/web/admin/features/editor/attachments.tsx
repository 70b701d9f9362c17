import { useRef, useState } from 'react';
import type { AdminFile } from '../../../../shared/api/admin.ts';
import { messageOf } from '../../lib/errors.ts';

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The attached files in their order, each with its buttons to move it up or down and to remove it. */
function AttachmentList({
  files,
  onMove,
  onRemove,
}: {
  files: AdminFile[];
  onMove: (index: number, delta: -1 | 1) => void;
  onRemove: (file: AdminFile) => void;
}) {
  return (
    <ol className="attachment-list">
      {files.map((file, index) => (
        <li key={file.id}>
          <a href={file.url} target="_blank" rel="noopener" className="attachment-name">
            {file.name}
          </a>
          <span className="muted">{sizeText(file.size)}</span>
          <span className="attachment-actions">
            <button
              type="button"
              className="tool"
              aria-label={`Move ${file.name} up`}
              disabled={index === 0}
              onClick={() => onMove(index, -1)}
            >
              Up
            </button>
            <button
              type="button"
              className="tool"
              aria-label={`Move ${file.name} down`}
              disabled={index === files.length - 1}
              onClick={() => onMove(index, 1)}
            >
              Down
            </button>
            <button
              type="button"
              className="tool tool-danger"
              aria-label={`Remove ${file.name}`}
              onClick={() => onRemove(file)}
            >
              Remove
            </button>
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The files listed under the article, in their order: added by upload, removed and reordered here, saved as file_ids. */
export function Attachments({
  files,
  onChange,
  onUpload,
  error,
}: {
  files: AdminFile[];
  onChange: (files: AdminFile[]) => void;
  onUpload: (files: File[]) => Promise<AdminFile[]>;
  error?: string | undefined;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const move = (index: number, delta: -1 | 1) => {
    const next = [...files];
    const [file] = next.splice(index, 1);
    if (!file) return;
    next.splice(index + delta, 0, file);
    onChange(next);
    setStatus(`“${file.name}” is now number ${index + delta + 1} of ${files.length}.`);
  };

  const remove = (file: AdminFile) => {
    onChange(files.filter((f) => f.id !== file.id));
    setStatus(`Removed ${file.name}.`);
  };

  const upload = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    setBusy(true);
    setFailure(null);
    setStatus(`Uploading ${chosen.length === 1 ? chosen[0]?.name : `${chosen.length} files`}…`);
    try {
      const stored = await onUpload(chosen);
      onChange([...files, ...stored]);
      setStatus(`Attached ${stored.map((f) => f.name).join(', ')}.`);
    } catch (err) {
      setFailure(`The upload failed: ${messageOf(err)}`);
      setStatus('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="attachments" aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Attachments</h2>
      {files.length === 0 ? (
        <p className="muted">No files attached.</p>
      ) : (
        <AttachmentList files={files} onMove={move} onRemove={remove} />
      )}
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-hidden="true"
        onChange={(event) => {
          void upload([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        Attach files
      </button>
      <p className="muted">Up to 10 files at once, 25 MB each.</p>
      {error && <p className="field-error">{error}</p>}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
    </section>
  );
}
