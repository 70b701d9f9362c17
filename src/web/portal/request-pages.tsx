import { useEffect, useState } from 'react';
import { Link, useLoaderData, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { PagedList } from '../../shared/api/common.ts';
import type { PortalTicket, PortalTicketSummary } from '../../shared/api/portal.ts';
import { href } from '../../shared/paths.ts';
import { ApiRequestError, call } from '../api/call.ts';
import { apiFrom, type LoaderContext } from '../api/api-context.ts';
import { useAuth } from '../api/use-auth.tsx';
import { readAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { Panel } from './form-parts.tsx';
import { PageLoading, usePortalData, SignedIn } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { StatusBadge, useDate } from './request-parts.tsx';
import { Thread } from './request-thread.tsx';

/**
 * Whether a loader can ask for the visitor's own requests: on the server, when the page is rendered for a visitor
 * known by their session cookie; in the browser, when a token is kept. Otherwise the page shows its sign-in prompt.
 */
const knowsVisitor = (context: unknown) => {
  const server = context as Partial<LoaderContext> | undefined;
  return server?.api ? server.session === true : readAuthToken() !== null;
};

/** /issues: the visitor's requests of that page, rendered on the server for a signed-in visitor. */
export async function issuesLoader({ request, context }: LoaderFunctionArgs): Promise<IssuesData> {
  if (!knowsVisitor(context)) return { list: null };
  const page = Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1);
  return apiFrom(context)
    .call('listMyIssues', { query: { page } })
    .then(
      (list) => ({ list }),
      () => ({ list: null }),
    );
}

interface IssuesData {
  list: PagedList<PortalTicketSummary> | null;
}

/** /issues/{id}: the conversation, rendered on the server for its requester (by session cookie or private key). */
export async function issueLoader({ request, params, context }: LoaderFunctionArgs): Promise<IssueData> {
  const key = new URL(request.url).searchParams.get('key') ?? undefined;
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0 || (!key && !knowsVisitor(context))) return { ticket: null };
  return apiFrom(context)
    .call('getMyIssue', { params: { id }, query: key ? { key } : {} })
    .then(
      (ticket) => ({ ticket }),
      () => ({ ticket: null }),
    );
}

interface IssueData {
  ticket: PortalTicket | null;
}

function SignInPrompt({ text }: { text: string }) {
  const { p } = usePortalTexts();
  return (
    <Panel title={p('myRequests')}>
      <p>{text}</p>
      <Link className="button" to={href.portalLogin()}>
        {p('signInButton')}
      </Link>
    </Panel>
  );
}

/** /issues: the signed-in visitor's requests, latest activity first, a page at a time. */
export function IssuesPage() {
  const { p } = usePortalTexts();
  return <SignedIn fallback={<SignInPrompt text={p('signInToSee')} />}>{() => <IssueList />}</SignedIn>;
}

function IssueList() {
  const { p, t } = usePortalTexts();
  const date = useDate();
  const [params] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const loaded = (useLoaderData() as IssuesData | undefined)?.list ?? null;
  const [list, setList] = useState<PagedList<PortalTicketSummary> | null>(loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // What the loader brought (on the server, or on the way here) is the list; only without it is it asked for.
    if (loaded) return setList(loaded);
    let cancelled = false;
    setList(null);
    call('listMyIssues', { query: { page }, headers: authHeaders() }).then(
      (answer) => !cancelled && setList(answer),
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [page, loaded]);
  return (
    <section className="portal-wide">
      <div className="portal-heading">
        <h1>{p('myRequests')}</h1>
        <Link className="button" to={href.portalNewIssue()}>
          {p('newRequest')}
        </Link>
      </div>
      {failed ? (
        <p role="alert">{t('errorOccurred')}</p>
      ) : !list ? (
        <PageLoading />
      ) : list.items.length === 0 ? (
        <p className="empty-state">{p('noRequests')}</p>
      ) : (
        <>
          <ul className="issue-list">
            {list.items.map((issue) => (
              <li key={issue.id} className="issue-row">
                <Link to={href.portalIssue(issue.id)} className="issue-title">
                  {issue.title}
                </Link>
                <span className="issue-meta">
                  <StatusBadge status={issue.status} />
                  <span>#{issue.id}</span>
                  <span>{p('updated', { date: date(issue.updated_at) })}</span>
                </span>
              </li>
            ))}
          </ul>
          {list._meta.pageCount > 1 && (
            <nav className="pager" aria-label={p('pageOf', { page, pages: list._meta.pageCount })}>
              {page > 1 && <Link to={`${href.portalIssues()}?page=${page - 1}`}>{p('previousPage')}</Link>}
              <span>{p('pageOf', { page, pages: list._meta.pageCount })}</span>
              {page < list._meta.pageCount && (
                <Link to={`${href.portalIssues()}?page=${page + 1}`}>{p('nextPage')}</Link>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}

/** /issues/{id}: the conversation, opened by the signed-in requester or by the private link's key. */
export function IssuePage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const key = params.get('key') ?? undefined;
  const { p, t } = usePortalTexts();
  const { checked, user } = useAuth();
  const { environments } = usePortalData();
  const loaded = (useLoaderData() as IssueData | undefined)?.ticket ?? null;
  const [ticket, setTicket] = useState<PortalTicket | null>(loaded);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'failed'>(
    loaded ? 'ready' : 'loading',
  );
  const ticketId = Number(id);
  const valid = Number.isInteger(ticketId) && ticketId > 0;

  useEffect(() => {
    if (loaded && loaded.id === ticketId) {
      setTicket(loaded);
      return setState('ready');
    }
    if (!checked) return;
    // Without an account or the private link's key, the browser that sent the request may hold its cookie.
    if (!valid) return setState('missing');
    let cancelled = false;
    call('getMyIssue', { params: { id: ticketId }, query: key ? { key } : {}, headers: authHeaders() }).then(
      (answer) => {
        if (cancelled) return;
        setTicket(answer);
        setState('ready');
      },
      (error: unknown) =>
        !cancelled &&
        setState(
          error instanceof ApiRequestError && [401, 403, 404].includes(error.status) ? 'missing' : 'failed',
        ),
    );
    return () => {
      cancelled = true;
    };
  }, [checked, user, ticketId, valid, key, loaded]);

  // Another request than the one on screen (the address changed): nothing of the last one shows, nor takes a reply.
  if (state === 'loading' || (state === 'ready' && ticket && ticket.id !== ticketId)) return <PageLoading />;
  if (state === 'missing')
    return user || key ? (
      <Panel title={p('myRequests')}>
        <p>{p('requestNotFound')}</p>
        <p className="portal-actions">
          <Link className="button" to={user ? href.portalIssues() : href.home()}>
            {user ? p('toMyRequests') : p('toKnowledge')}
          </Link>
          {key && environments.accounts.mail && (
            // An expired private link: its requester asks for a new one by email.
            <Link className="button button-secondary" to={href.portalRequestLink()}>
              {p('newLinkButton')}
            </Link>
          )}
        </p>
      </Panel>
    ) : (
      <SignInPrompt text={p('signInToSee')} />
    );
  if (state === 'failed' || !ticket) return <p role="alert">{t('errorOccurred')}</p>;
  return <Thread ticket={ticket} onChange={setTicket} linkKey={key} />;
}
