import type { AuthUser } from '../../shared/api/auth.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { readAuthToken } from '../lib/storage.ts';
import { pageLanguageOf } from '../../shared/page-language.ts';
import { browserTransport, createApi, type Api } from './client.ts';

/** What the server hands to loaders while it renders a page: an API client that calls it in-process. */
export interface LoaderContext {
  api: Api;
  /** The request carries the visitor's session cookie: the layout asks who they are, and shows it. */
  session?: boolean;
}

/** The signed-in visitor when the server renders for one (by their session cookie); null otherwise. */
export async function sessionUser(context: unknown): Promise<AuthUser | null> {
  const server = context as Partial<LoaderContext> | undefined;
  if (!server?.api || !server.session) return null;
  return server.api.call('getMe').catch(() => null);
}

let browserApi: Api | undefined;

/**
 * The visitor's token on the browser's calls, beside the session cookie: a visitor signed in by a portal elsewhere
 * (PORTAL_URL), which sets no cookie here, still reads what is for signed-in visitors.
 */
const visitorHeaders = (): Record<string, string> => {
  const token = readAuthToken();
  return token ? { [AUTH_HEADER]: token } : {};
};

/** The API for a loader: the server's when rendering there, else one client for the life of the page. */
export function apiFrom(context: unknown): Api {
  const fromServer = (context as Partial<LoaderContext> | undefined)?.api;
  if (fromServer) return fromServer;
  browserApi ??= createApi(browserTransport, visitorHeaders);
  return browserApi;
}

/** The public calls for a loader, in the language its page's address names (`?lang=`). */
export function pageApi(context: unknown, request: Request) {
  return apiFrom(context).in(pageLanguageOf(new URL(request.url).search));
}

/** Drops the answers the page's client kept: after signing in, lists and counts include more. */
export function forgetAnswers(): void {
  browserApi = undefined;
}
