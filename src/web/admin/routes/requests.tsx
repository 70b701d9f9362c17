import { useEffect, useState } from 'react';
import {
  Link,
  useLoaderData,
  useLocation,
  useNavigate,
  useRevalidator,
  type LoaderFunctionArgs,
} from 'react-router';
import type { PagedList } from '../../../shared/api/common.ts';
import type { TicketCounts, TicketListQuery, TicketView } from '../../../shared/api/tickets.ts';
import { TICKET_STATUSES, type TicketStatus, SEARCH_TEXT_MAX } from '../../../shared/constants.ts';
import { adminCall } from '../api/admin-api.ts';
import { Pager } from '../components/pager.tsx';
import { TableHead } from '../components/table-head.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';
import { deliveryText, STATUS_NAMES, when } from '../lib/requests.ts';

/** How often an open inbox asks for what changed, so new requests and replies show without a reload. */
const REFRESH_MS = 20_000;

interface View {
  page: number;
  status: TicketStatus | null;
  mine: boolean;
  /** Words to find, as typed. */
  q: string;
}

/**
 * What the address asks for: `?status=`, `?mine=1`, `?q=words`, `?page=N` (anything else: the first page of
 * everything).
 */
function viewOf(search: string): View {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const status = params.get('status');
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    status: TICKET_STATUSES.find((known) => known === status) ?? null,
    mine: params.get('mine') === '1',
    q: (params.get('q') ?? '').slice(0, SEARCH_TEXT_MAX),
  };
}

/** The address of a view; page 1 and empty filters are left out. */
function addressOf(view: View): string {
  const params = new URLSearchParams();
  if (view.q.trim()) params.set('q', view.q.trim());
  if (view.status) params.set('status', view.status);
  if (view.mine) params.set('mine', '1');
  if (view.page > 1) params.set('page', String(view.page));
  const query = params.toString();
  return query ? `?${query}` : '.';
}

interface RequestsData {
  list: PagedList<TicketView>;
  counts: TicketCounts;
}

export const requestsLoader = async ({ request }: LoaderFunctionArgs): Promise<RequestsData> => {
  const view = viewOf(new URL(request.url).search);
  const query: TicketListQuery = {
    page: view.page,
    ...(view.status && { status: view.status }),
    ...(view.mine && { assignee: 'me' as const }),
    ...(view.q.trim() && { q: view.q.trim() }),
  };
  const [list, counts] = await Promise.all([
    adminCall('listAdminTickets', { query }),
    adminCall('getTicketCounts'),
  ]);
  return { list, counts };
};

/** Asks again every REFRESH_MS while the page is visible. */
function useRefresh() {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidate]);
}

/** Words to find in requests and their threads; the address keeps them, with the status and "mine". */
function SearchForm({ view }: { view: View }) {
  const navigate = useNavigate();
  const [text, setText] = useState(view.q);
  useEffect(() => setText(view.q), [view.q]);
  return (
    <form
      role="search"
      className="requests-search"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(addressOf({ ...view, page: 1, q: text }));
      }}
    >
      <label htmlFor="requests-q">Find requests</label>
      <input
        id="requests-q"
        type="search"
        value={text}
        maxLength={SEARCH_TEXT_MAX}
        placeholder="Words, a name or an email"
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}

/** Support requests, latest activity first, by status: what visitors sent and what they answered. */
export function RequestsPage() {
  usePageTitle('Requests');
  useRefresh();
  const { list, counts } = useLoaderData() as RequestsData;
  const view = viewOf(useLocation().search);
  const { pageCount, totalCount } = list._meta;
  const all = TICKET_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const tab = (label: string, next: View, count: number | null, current: boolean) => (
    <li key={label}>
      <Link to={addressOf(next)} aria-current={current ? 'page' : undefined}>
        {label}
        {count !== null && <span className="tab-count">{count}</span>}
      </Link>
    </li>
  );
  return (
    <div className="requests-page">
      <h1 tabIndex={-1}>Requests</h1>
      <nav aria-label="Requests by status">
        <ul className="status-tabs">
          {tab('All', { ...view, page: 1, status: null }, all, view.status === null)}
          {TICKET_STATUSES.map((status) =>
            tab(STATUS_NAMES[status], { ...view, page: 1, status }, counts[status], view.status === status),
          )}
        </ul>
      </nav>
      <SearchForm view={view} />
      <p className="requests-mine">
        <Link to={addressOf({ ...view, page: 1, mine: !view.mine })}>
          {view.mine ? 'Show everyone’s requests' : 'Show only requests given to me'}
        </Link>
      </p>
      {totalCount === 0 ? (
        <p className="muted">
          {all === 0
            ? 'No request has been sent yet. Visitors send them from an article’s page.'
            : view.q.trim()
              ? `No request here has “${view.q.trim()}” in it.`
              : 'No request here.'}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="data-table data-table-stack">
            <caption className="visually-hidden">Support requests, latest activity first</caption>
            <TableHead columns={['Request', 'Status', 'From', 'Last activity', 'Sent on']} />
            <tbody>
              {list.items.map((ticket) => (
                <tr key={ticket.id}>
                  <td className="stack-title">
                    <Link to={`/requests/${ticket.id}`}>{ticket.title || `Request ${ticket.id}`}</Link>
                  </td>
                  <td data-label="Status">{STATUS_NAMES[ticket.status]}</td>
                  <td data-label="From">
                    {ticket.name} <span className="muted">{ticket.email}</span>
                  </td>
                  <td data-label="Last activity">{when(ticket.updated_at)}</td>
                  <td data-label="Sent on">{deliveryText(ticket)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={view.page}
        pageCount={pageCount}
        totalCount={totalCount}
        hrefOf={(page) => addressOf({ ...view, page })}
      />
    </div>
  );
}
