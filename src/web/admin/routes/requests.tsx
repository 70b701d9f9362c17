import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { PagedList } from '../../../shared/api/common.ts';
import type { TicketView } from '../../../shared/api/tickets.ts';
import { adminCall } from '../api/admin-api.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { deliveryText, STATUS_NAMES, when } from '../lib/requests.ts';

/** The page the address asks for (`?page=N`), 1 unless it names a later one. */
function pageOf(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

export const requestsLoader = ({ request }: LoaderFunctionArgs): Promise<PagedList<TicketView>> =>
  adminCall('listAdminTickets', { query: { page: pageOf(new URL(request.url).search) } });

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
                <th scope="col">Status</th>
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
                  <td>{STATUS_NAMES[ticket.status]}</td>
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
