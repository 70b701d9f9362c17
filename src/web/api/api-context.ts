import { browserTransport, createApi, type Api } from './client.ts';

/** What the server hands to loaders while it renders a page: an API client that calls it in-process. */
export interface LoaderContext {
  api: Api;
}

let browserApi: Api | undefined;

/** The API for a loader: the server's when rendering there, else one client for the life of the page. */
export function apiFrom(context: unknown): Api {
  const fromServer = (context as Partial<LoaderContext> | undefined)?.api;
  if (fromServer) return fromServer;
  browserApi ??= createApi(browserTransport);
  return browserApi;
}
