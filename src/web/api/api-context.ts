import type { AuthUser } from '../../shared/api/auth.ts';
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

/** The API for a loader: the server's when rendering there, else one client for the life of the page. */
export function apiFrom(context: unknown): Api {
  const fromServer = (context as Partial<LoaderContext> | undefined)?.api;
  if (fromServer) return fromServer;
  browserApi ??= createApi(browserTransport);
  return browserApi;
}
