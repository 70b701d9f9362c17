import { isRouteErrorResponse, Link, Navigate, useNavigate, useRouteError } from 'react-router';
import { href } from '../../../shared/paths.ts';
import { writeToken } from '../api/session-token.ts';
import { SIGN_OUT } from '../features/session/session.tsx';
import { messageOf, statusOf } from '../lib/errors.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useReadyMarker } from '../lib/use-ready-marker.ts';

/** What the admin app shows instead of a page: refusals, errors, loading and not found, inside the shell or not. */

/** A signed-in person who is not an administrator: the admin API answers 403 to everything. */
function NotAdministrator({ standalone = true }: { standalone?: boolean }) {
  usePageTitle('Not on the team');
  const navigate = useNavigate();
  useReadyMarker();
  const Frame = standalone ? 'main' : 'div';
  return (
    <Frame id={standalone ? 'main' : undefined} className="sign-in">
      <div className="sign-in-card">
        <h1 tabIndex={-1}>This account is not on the team</h1>
        <p>
          You are signed in, but only the team uses this app: administrators, who change the help centre, and
          agents, who read the requests. Ask an administrator to give your account one of these roles, or sign
          in with another account.
        </p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => navigate('/sign-in', { state: SIGN_OUT })}>
            Sign out
          </button>
          <a className="button button-secondary" href={href.home()}>
            Go to the help centre
          </a>
        </div>
      </div>
    </Frame>
  );
}

/** Errors of the session itself: not an admin, signed out meanwhile, or the server unreachable. */
export function ShellError() {
  const error = useRouteError();
  const status = statusOf(error);
  if (status === 403) return <NotAdministrator />;
  if (status === 401) {
    writeToken(null);
    return <Navigate to="/sign-in" replace />;
  }
  return <ProblemPage message={messageOf(error)} />;
}

function ProblemPage({ message }: { message: string }) {
  usePageTitle('Error');
  useReadyMarker();
  return (
    <main id="main" className="sign-in">
      <div className="sign-in-card" role="alert">
        <h1>The admin app could not load</h1>
        <p>{message}</p>
        <a className="button" href="">
          Try again
        </a>
      </div>
    </main>
  );
}

/** Errors inside a page keep the admin's frame; session errors go up to the shell. */
export function PageError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : statusOf(error);
  // The admin flag taken away or the session ended while the app was open.
  if (status === 403) return <NotAdministrator standalone={false} />;
  if (status === 401) {
    writeToken(null);
    return <Navigate to="/sign-in" replace />;
  }
  return (
    <div className="page-problem" role="alert">
      <h1 tabIndex={-1}>{status === 404 ? 'Not found' : 'Something went wrong'}</h1>
      <p>{status === 404 ? 'This item does not exist, or it was deleted.' : messageOf(error)}</p>
      <Link className="button" to="/">
        Back to the content
      </Link>
    </div>
  );
}

export function Loading() {
  return (
    <main id="main" className="sign-in">
      <p className="muted" role="status">
        Loading…
      </p>
    </main>
  );
}

export function AdminNotFound() {
  usePageTitle('Not found');
  return (
    <div className="page-problem">
      <h1 tabIndex={-1}>Not found</h1>
      <p>There is no admin page at this address.</p>
      <Link className="button" to="/">
        Back to the content
      </Link>
    </div>
  );
}
