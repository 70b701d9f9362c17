import { Link } from 'react-router';
import type { RelatedTickets, TicketView } from '../../../../shared/api/tickets.ts';
import { deliveryText, STATUS_NAMES, when } from '../../lib/requests.ts';

/** Who sent the request, when, in which language and how; their other requests; deliveries that failed. */
export function RequestFacts({ ticket, related }: { ticket: TicketView; related: RelatedTickets['items'] }) {
  return (
    <>
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
      {related.length > 0 && (
        <>
          <h2>Other requests from them</h2>
          <ul className="related-requests">
            {related.map((other) => (
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
    </>
  );
}
