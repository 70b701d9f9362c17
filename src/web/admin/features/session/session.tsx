import type { LoaderFunctionArgs } from 'react-router';
import { redirect } from 'react-router';
import { ADMIN_BASE_PATH } from '../../../../shared/paths.ts';
import { ApiRequestError } from '../../../api/call.ts';
import { adminCall } from '../../api/admin-api.ts';
import { statusOf } from '../../lib/errors.ts';
import type { SessionData } from '../../lib/use-session.ts';
import { readToken, writeToken } from '../../api/session-token.ts';

/** The path inside the admin app, to come back to after signing in. */
export function pathInApp(url: string): string {
  const { pathname, search } = new URL(url);
  const inside = pathname.startsWith(ADMIN_BASE_PATH) ? pathname.slice(ADMIN_BASE_PATH.length) : pathname;
  return `${inside || '/'}${search}`;
}

export const signInPath = (next: string) =>
  next === '/' || next.startsWith('/sign-in') ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`;

/**
 * Who is signed in, and whether they may use the admin app: administrators and agents may (agents see the requests
 * only); a customer is refused as the API would refuse them (403), which the shell's error boundary turns into its
 * own page.
 */
export async function sessionLoader({ request }: LoaderFunctionArgs): Promise<SessionData> {
  if (!readToken()) throw redirect(signInPath(pathInApp(request.url)));
  try {
    const user = await adminCall('getMe');
    if (user.role === 'customer') throw new ApiRequestError(403, undefined);
    const [branding, routing] = await Promise.all([
      user.role === 'admin' ? adminCall('getAdminBranding') : adminCall('getBranding'),
      adminCall('getTicketRouting'),
    ]);
    return { user, branding, routing };
  } catch (error) {
    if (statusOf(error) === 401) {
      writeToken(null);
      throw redirect(signInPath(pathInApp(request.url)));
    }
    throw error;
  }
}

/**
 * A page only administrators may open: for an agent, whom its calls refuse (403), it leads to the requests instead.
 * (Loaders run beside the session's, so they learn the role from the API's answer, not from the session.)
 */
export const adminOnly =
  <A extends LoaderFunctionArgs, T>(loader: (args: A) => Promise<T>) =>
  async (args: A): Promise<T> => {
    try {
      return await loader(args);
    } catch (error) {
      if (statusOf(error) === 403) throw redirect('/requests');
      throw error;
    }
  };

/**
 * Signing out is a visit to the sign-in page with this state, which revokes the token there: an editor with unsaved
 * work can still refuse to leave, and then stays signed in.
 */
export const SIGN_OUT = { signOut: true };

export async function signOut(): Promise<void> {
  if (!readToken()) return;
  // The request takes the token as it starts; the browser forgets it at once, whatever the server answers.
  const revoking = adminCall('logout');
  writeToken(null);
  await revoking.catch(() => undefined);
}
