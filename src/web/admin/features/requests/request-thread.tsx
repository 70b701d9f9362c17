import type { TicketMessage, TicketView } from '../../../../shared/api/tickets.ts';
import { size, when } from '../../lib/requests.ts';

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

/** The request and every reply and note after it, with their files and how each reply was emailed. */
export function Thread({ ticket }: { ticket: TicketView }) {
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
