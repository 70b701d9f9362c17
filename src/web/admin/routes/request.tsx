import { useEffect, useId, useState } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { RelatedTickets, TeamList, TicketView } from '../../../shared/api/tickets.ts';
import { decodeEntities } from '../../../shared/html.ts';
import { adminCall, uploadReplyFiles } from '../api/admin-api.ts';
import { Field, FormError } from '../components/field.tsx';
import { RichTextEditor } from '../features/editor/rich-text-editor.tsx';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useSession } from '../lib/use-session.ts';
import { Controls } from '../features/requests/request-controls.tsx';
import { RequestFacts } from '../features/requests/request-facts.tsx';
import { Thread } from '../features/requests/request-thread.tsx';

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
          <RequestFacts ticket={ticket} related={data.related} />
        </aside>
      </div>
    </article>
  );
}
