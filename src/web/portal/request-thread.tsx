import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { PortalTicket } from '../../shared/api/portal.ts';
import { href } from '../../shared/paths.ts';
import { call } from '../api/call.ts';
import { FilePicker } from '../components/file-picker.tsx';
import { HtmlContent } from '../components/html-content.tsx';
import { useAuth } from '../api/use-auth.tsx';
import { uploadFiles } from '../features/request/request-api.ts';
import { sizeInKb } from '../lib/format.ts';
import { readAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { FormError, TextField } from './form-parts.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { StatusBadge, useDate } from './request-parts.tsx';
import { usePortalForm } from './use-portal-form.ts';

const MESSAGE_MAX = 20_000;

function Files({ files }: { files: PortalTicket['files'] }) {
  const { t } = usePortalTexts();
  if (files.length === 0) return null;
  return (
    <ul className="thread-files">
      {files.map((file) => (
        <li key={file.id}>
          <a href={file.link} download={file.original_name}>
            {file.original_name}
          </a>{' '}
          <span className="file-size">{t('fileSize', { size: sizeInKb(file.file_size) })}</span>
        </li>
      ))}
    </ul>
  );
}

interface ThreadProps {
  ticket: PortalTicket;
  onChange: (ticket: PortalTicket) => void;
  linkKey: string | undefined;
}

/** A request's conversation for its requester, and the form to reply or change its status unless it is closed. */
export function Thread({ ticket, onChange, linkKey }: ThreadProps) {
  const { p } = usePortalTexts();
  const date = useDate();
  const { user } = useAuth();
  return (
    <article className="portal-wide thread">
      {user && (
        <p className="thread-back">
          <Link to={href.portalIssues()}>← {p('myRequests')}</Link>
        </p>
      )}
      <div className="portal-heading">
        <h1>{ticket.title}</h1>
        <StatusBadge status={ticket.status} />
      </div>
      <p className="field-hint">
        {p('requestNumber', { id: ticket.id })} · {date(ticket.created_at)}
      </p>
      {linkKey && !user && <p className="banner">{p('keepLink')}</p>}
      <Messages ticket={ticket} />
      {ticket.status === 'closed' ? (
        <p className="banner">{p('closedNote')}</p>
      ) : (
        <ReplyForm ticket={ticket} onChange={onChange} linkKey={linkKey} />
      )}
    </article>
  );
}

/** The request as the requester wrote it, then every message, the team's marked. */
function Messages({ ticket }: { ticket: PortalTicket }) {
  const { p } = usePortalTexts();
  const date = useDate();
  return (
    <ol className="thread-messages">
      <li className="thread-message from-requester">
        <p className="thread-author">
          {ticket.name || p('you')} <span className="field-hint">{date(ticket.created_at)}</span>
        </p>
        <p className="thread-text">{ticket.description}</p>
        <Files files={ticket.files} />
      </li>
      {ticket.messages.map((message) => (
        <li
          key={message.id}
          className={`thread-message ${message.from_team ? 'from-team' : 'from-requester'}`}
        >
          <p className="thread-author">
            {message.author_name}
            {message.from_team && <span className="team-mark"> · {p('supportTeam')}</span>}{' '}
            <span className="field-hint">{date(message.created_at)}</span>
          </p>
          <HtmlContent className="thread-text rich-text" html={message.body_html} />
          <Files files={message.files} />
        </li>
      ))}
    </ol>
  );
}

/** The requester's reply (text and files), and the button that marks the request solved or opens it again. */
function ReplyForm({ ticket, onChange, linkKey }: ThreadProps) {
  const { p } = usePortalTexts();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const { form, errors, setErrors, setFieldError, busy, send, complete } = usePortalForm();
  const keyPart = linkKey ? { key: linkKey } : {};

  const reply = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete({ body: !body.trim() })) return;
    await send(async () => {
      const uploaded = files.length ? await uploadFiles(files, readAuthToken()) : [];
      onChange(
        await call('replyMyIssue', {
          params: { id: ticket.id },
          body: { body, files: uploaded.map((file) => file.id), ...keyPart },
          headers: authHeaders(),
        }),
      );
      setBody('');
      setFiles([]);
      setErrors({});
    });
  };
  const setStatus = (status: 'solved' | 'open') =>
    send(async () => {
      onChange(
        await call('updateMyIssue', {
          params: { id: ticket.id },
          body: { status, ...keyPart },
          headers: authHeaders(),
        }),
      );
    });
  // A solved request can be opened again; any other can be marked solved.
  const statusChange =
    ticket.status === 'solved'
      ? { status: 'open' as const, label: p('reopen') }
      : { status: 'solved' as const, label: p('markSolved') };

  return (
    <form ref={form} className="portal-form" method="post" noValidate onSubmit={(event) => void reply(event)}>
      <TextField
        id="reply"
        label={p('replyLabel')}
        multiline
        maxLength={MESSAGE_MAX}
        value={body}
        onChange={(value) => {
          setBody(value);
          setErrors({});
        }}
        error={errors.body}
      />
      <FilePicker
        id="reply-files"
        files={files}
        onChange={setFiles}
        error={errors.files}
        onError={(message) => setFieldError('files', message)}
      />
      <FormError message={errors.form ?? errors.status} />
      <div className="portal-actions">
        <button type="submit" className="button" disabled={busy}>
          {p('sendReply')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void setStatus(statusChange.status)}
        >
          {statusChange.label}
        </button>
      </div>
    </form>
  );
}
