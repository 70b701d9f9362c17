import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { PagedList } from '../../../shared/api/common.ts';
import type { TicketView } from '../../../shared/api/tickets.ts';
import { adminCall } from '../api/admin-api.ts';
import { usePageTitle } from '../lib/use-page-title.ts';

/** The page the address asks for (`?page=N`), 1 unless it names a later one. */
function pageOf(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

export const requestsLoader = ({ request }: LoaderFunctionArgs): Promise<PagedList<TicketView>> =>
  adminCall('listAdminTickets', { query: { page: pageOf(new URL(request.url).search) } });

export const requestLoader = ({ params }: LoaderFunctionArgs): Promise<TicketView> =>
  adminCall('getAdminTicket', { params: { id: Number(params.id) } });

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** Where a request went, in a few words: the team hears of it only by these. */
function deliveryText(ticket: TicketView): string {
  if (ticket.deliveries.length === 0) return 'Kept here only';
  return ticket.deliveries
    .map((d) => {
      const target = d.target === 'email' ? 'Email' : 'Webhook';
      if (d.status === 'delivered') return `${target} sent`;
      if (d.status === 'failed') return `${target} failed`;
      return d.attempts > 0 ? `${target} retrying` : `${target} waiting`;
    })
    .join(', ');
}

/** Support requests, newest first: what visitors sent from the help centre. */
export function RequestsPage() {
  usePageTitle('Requests');
  const list = useLoaderData() as PagedList<TicketView>;
  const page = pageOf(useLocation().search);
  const { pageCount, totalCount } = list._meta;
  return (
    <div className="requests-page">
      <h1 tabIndex={-1}>Requests</h1>
      {totalCount === 0 ? (
        <p className="muted">No request has been sent yet. Visitors send them from an article’s page.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Support requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">From</th>
                <th scope="col">Received</th>
                <th scope="col">Sent on</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((ticket) => (
                <tr key={ticket.id}>
                  <td>
                    <Link to={`/requests/${ticket.id}`}>{ticket.title || `Request ${ticket.id}`}</Link>
                  </td>
                  <td>
                    {ticket.name} <span className="muted">{ticket.email}</span>
                  </td>
                  <td>{when(ticket.created_at)}</td>
                  <td>{deliveryText(ticket)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 && (
        <nav className="pager" aria-label="Pages">
          {page > 1 && <Link to={page === 2 ? '.' : `?page=${page - 1}`}>Previous</Link>}
          <span>
            Page {page} of {pageCount} ({totalCount} in all)
          </span>
          {page < pageCount && <Link to={`?page=${page + 1}`}>Next</Link>}
        </nav>
      )}
    </div>
  );
}

/** One request as the visitor sent it, with its files and where it went. */
export function RequestPage() {
  const ticket = useLoaderData() as TicketView;
  usePageTitle(ticket.title || `Request ${ticket.id}`);
  return (
    <article className="request-page">
      <p>
        <Link to="/requests">All requests</Link>
      </p>
      <h1 tabIndex={-1}>{ticket.title || `Request ${ticket.id}`}</h1>
      <dl className="request-facts">
        <dt>From</dt>
        <dd>
          {ticket.name} &lt;<a href={`mailto:${ticket.email}`}>{ticket.email}</a>&gt;
          {ticket.user_id !== null && <span className="muted"> (signed in)</span>}
        </dd>
        <dt>Received</dt>
        <dd>{when(ticket.created_at)}</dd>
        <dt>Language</dt>
        <dd>{ticket.lang}</dd>
        <dt>Sent on</dt>
        <dd>{deliveryText(ticket)}</dd>
      </dl>
      <h2>Message</h2>
      <p className="request-message">{ticket.description}</p>
      {ticket.files.length > 0 && (
        <>
          <h2>Files</h2>
          <ul>
            {ticket.files.map((file) => (
              <li key={file.id}>
                {file.original_name} <span className="muted">({size(file.file_size)})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {ticket.deliveries.some((d) => d.last_error) && (
        <>
          <h2>Delivery problems</h2>
          <ul>
            {ticket.deliveries
              .filter((d) => d.last_error)
              .map((d) => (
                <li key={d.target}>
                  {d.target === 'email' ? 'Email' : 'Webhook'}, {d.attempts} attempts: {d.last_error}
                </li>
              ))}
          </ul>
        </>
      )}
    </article>
  );
}
