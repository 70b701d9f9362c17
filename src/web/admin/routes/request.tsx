import { useEffect, useId, useState } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { RelatedTickets, TeamList, TicketMessage, TicketView } from '../../../shared/api/tickets.ts';
import { TICKET_TRANSITIONS, type TicketStatus } from '../../../shared/constants.ts';
import { decodeEntities } from '../../../shared/html.ts';
import { adminCall, uploadReplyFiles } from '../api/admin-api.ts';
import { Field, FormError } from '../components/field.tsx';
import { RichTextEditor } from '../features/editor/rich-text-editor.tsx';
import { messageOf } from '../lib/errors.ts';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useSession } from '../lib/use-session.ts';
import { deliveryText, size, STATUS_NAMES, when } from '../lib/requests.ts';

interface RequestData {
  ticket: TicketView;
  team: TeamList['items'];
  related: RelatedTickets['items'];
}

export const requestLoader = async ({ params }: LoaderFunctionArgs): Promise<RequestData> => {
  const id = Number(params.id);
  const [ticket, team, related] = await Promise.all([
    adminCall('getAdminTicket', { params: { id } }),
    adminCall('listTeam'),
    adminCall('listRelatedTickets', { params: { id } }),
  ]);
  return { ticket, team: team.items, related: related.items };
};

function Files({ files }: { files: TicketView['files'] }) {
  if (files.length === 0) return null;
  return (
    <ul className="thread-files" aria-label="Files">
      {files.map((file) => (
        <li key={file.id}>
          <a href={file.link} download={file.original_name}>
            {file.original_name}
          </a>{' '}
          <span className="muted">({size(file.file_size)})</span>
        </li>
      ))}
    </ul>
  );
}

/** How a reply went out to the requester: what the team needs to know when a customer says they got nothing. */
function messageDelivery(ticket: TicketView, message: TicketMessage): string | null {
  const mail = ticket.deliveries.find((d) => d.message_id === message.id && d.target === 'requester');
  if (!mail) return null;
  if (mail.status === 'delivered') return 'Emailed to the requester';
  if (mail.status === 'failed') return `Email failed: ${mail.last_error ?? 'unknown reason'}`;
  return mail.attempts > 0 ? `Email retrying (${mail.last_error ?? ''})` : 'Email waiting to be sent';
}

function Thread({ ticket }: { ticket: TicketView }) {
  return (
    <ol className="thread" aria-label="Conversation">
      <li className="thread-item">
        <p className="thread-meta">
          <strong>{ticket.name}</strong> <span className="muted">wrote {when(ticket.created_at)}</span>
        </p>
        <p className="request-message">{ticket.description}</p>
        <Files files={ticket.files} />
      </li>
      {ticket.messages.map((message) => {
        const delivery = messageDelivery(ticket, message);
        return (
          <li
            key={message.id}
            className={`thread-item${message.from_team ? ' thread-team' : ''}${message.internal ? ' thread-note' : ''}`}
          >
            <p className="thread-meta">
              <strong>{message.author_name}</strong>{' '}
              {message.internal && <span className="badge badge-note">Internal note</span>}{' '}
              <span className="muted">
                {message.internal ? 'noted' : 'wrote'} {when(message.created_at)}
              </span>
            </p>
            <div className="thread-body" dangerouslySetInnerHTML={{ __html: message.body_html }} />
            <Files files={message.files} />
            {delivery && <p className="thread-delivery muted">{delivery}</p>}
          </li>
        );
      })}
    </ol>
  );
}

/** Status and assignee, each saved as soon as it is chosen; a change made meanwhile by someone else is reported. */
function Controls({
  ticket,
  team,
  onChange,
}: {
  ticket: TicketView;
  team: RequestData['team'];
  onChange: (ticket: TicketView) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (body: { status?: TicketStatus; assignee_id?: number | null }) => {
    setBusy(true);
    setProblem(null);
    try {
      onChange(await adminCall('updateAdminTicket', { params: { id: ticket.id }, body }));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const statuses: TicketStatus[] = [ticket.status, ...TICKET_TRANSITIONS[ticket.status]];
  return (
    <div className="request-controls">
      <Field label="Status">
        <select
          value={ticket.status}
          disabled={busy || ticket.status === 'closed'}
          onChange={(e) => void save({ status: e.target.value as TicketStatus })}
        >
          {statuses.map((status) => (
            <option key={status} value={status}>
              {STATUS_NAMES[status]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Assignee">
        <select
          value={ticket.assignee_id ?? ''}
          disabled={busy}
          onChange={(e) => void save({ assignee_id: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">Nobody</option>
          {team.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
      </Field>
      <FormError message={problem} />
    </div>
  );
}

/** Whether the editor's HTML holds no text (an empty editor is `<p></p>`). */
const isBlank = (html: string) => decodeEntities(html.replace(/<[^>]*>/g, '')).trim() === '';

/** The team's answer: a reply the requester gets by email, or a note only the team sees. */
function ReplyForm({ ticket, onSent }: { ticket: TicketView; onSent: (ticket: TicketView) => void }) {
  const { routing } = useSession();
  const ids = useId();
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const { errors, message: problem, busy, submitWith } = useFormSubmission();
  const [status, setStatus] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [picker, setPicker] = useState(0);
  if (ticket.status === 'closed')
    return <p className="muted">This request is closed: the requester sends a new one for a new question.</p>;

  const send = submitWith(async () => {
    const uploaded = files.length > 0 ? await uploadReplyFiles(files) : [];
    const next = await adminCall('replyAdminTicket', {
      params: { id: ticket.id },
      body: {
        body_html: body,
        internal,
        ...(uploaded.length > 0 && { files: uploaded.map((file) => file.id) }),
      },
    });
    setBody('');
    setFiles([]);
    // A new input: the browser's own list of chosen files cannot be emptied otherwise.
    setPicker((n) => n + 1);
    setStatus(internal ? 'Note added.' : 'Reply sent.');
    onSent(next);
  });
  return (
    <form className={`reply-form${internal ? ' reply-note' : ''}`} onSubmit={send} noValidate>
      <h2>{internal ? 'Internal note' : 'Reply'}</h2>
      <FormError message={problem} />
      <div className="field reply-body">
        <span id={`${ids}-label`} className="field-label">
          {internal ? 'Note for the team' : `Reply to ${ticket.name}`}
        </span>
        <RichTextEditor
          compact
          value={body}
          onChange={setBody}
          onUpload={() => Promise.resolve([])}
          onLostTags={() => undefined}
          labelledBy={`${ids}-label`}
          hidden={false}
        />
        <p className="field-hint">
          {internal
            ? 'Only the team sees notes; they are never emailed.'
            : routing.mail
              ? `Emailed to ${ticket.email}.`
              : `Not emailed: this server has no SMTP_URL. Write to ${ticket.email} yourself if they must know.`}
        </p>
        {(errors.body_html ?? errors.body) && (
          <p className="field-error">{errors.body_html ?? errors.body}</p>
        )}
      </div>
      <Field label="Attach files" error={errors['file[]'] ?? errors.files}>
        <input
          key={picker}
          type="file"
          multiple
          onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
        />
      </Field>
      <div className="reply-actions">
        <label className="check">
          <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} />{' '}
          Internal note
        </label>
        <button type="submit" className="button" disabled={busy || isBlank(body)}>
          {busy ? 'Sending…' : internal ? 'Add note' : 'Send reply'}
        </button>
      </div>
      <p role="status" className="muted">
        {status}
      </p>
    </form>
  );
}

/** One request: the conversation, where it stands and who has it, and the team's answer. */
export function RequestPage() {
  const data = useLoaderData() as RequestData;
  const [ticket, setTicket] = useState(data.ticket);
  useEffect(() => setTicket(data.ticket), [data.ticket]);
  const title = ticket.title || `Request ${ticket.id}`;
  usePageTitle(title);
  return (
    <article className="request-page">
      <p>
        <Link to="/requests">All requests</Link>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <div className="request-layout">
        <div className="request-main">
          <Thread ticket={ticket} />
          <ReplyForm ticket={ticket} onSent={setTicket} />
        </div>
        <aside className="request-side" aria-label="About this request">
          <Controls ticket={ticket} team={data.team} onChange={setTicket} />
          <dl className="request-facts">
            <dt>From</dt>
            <dd>
              {ticket.email ? (
                <>
                  {ticket.name} &lt;<a href={`mailto:${ticket.email}`}>{ticket.email}</a>&gt;
                  {ticket.user_id !== null && <span className="muted"> (signed in)</span>}
                </>
              ) : (
                <span className="muted">A deleted account</span>
              )}
            </dd>
            <dt>Received</dt>
            <dd>{when(ticket.created_at)}</dd>
            <dt>Last activity</dt>
            <dd>{when(ticket.updated_at)}</dd>
            <dt>Language</dt>
            <dd>{ticket.lang}</dd>
            <dt>Sent on</dt>
            <dd>{deliveryText(ticket)}</dd>
          </dl>
          {data.related.length > 0 && (
            <>
              <h2>Other requests from them</h2>
              <ul className="related-requests">
                {data.related.map((other) => (
                  <li key={other.id}>
                    <Link to={`/requests/${other.id}`}>{other.title || `Request ${other.id}`}</Link>{' '}
                    <span className="muted">
                      {STATUS_NAMES[other.status]}, {when(other.updated_at)}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {ticket.deliveries.some((d) => d.message_id === null && d.last_error) && (
            <>
              <h2>Delivery problems</h2>
              <ul>
                {ticket.deliveries
                  .filter((d) => d.message_id === null && d.last_error)
                  .map((d) => (
                    <li key={d.target}>
                      {d.target === 'webhook' ? 'Webhook' : 'Email'}, {d.attempts} attempts: {d.last_error}
                    </li>
                  ))}
              </ul>
            </>
          )}
        </aside>
      </div>
    </article>
  );
}
