import type { ErrorBody } from '../../shared/api/common.ts';
import type { EndpointInput, EndpointName, EndpointOutput } from '../../shared/api/endpoints.ts';
import { routes, type Route } from '../../shared/routes.ts';

/** One request as the client sends it: the address is filled in, the body encoded. */
export interface TransportRequest {
  method: Route['method'];
  url: string;
  /** The call as made, before it became an address: the server answers a page's reads from them, in process. */
  name: EndpointName;
  input: { params?: unknown; query?: unknown };
  headers: Record<string, string>;
  body?: string | FormData;
  /** Browser-only hints; the server's in-process transport ignores them. */
  cache?: RequestCache;
  keepalive?: boolean;
}

export interface TransportAnswer {
  status: number;
  body: unknown;
}

/** How a request reaches the server: fetch in the browser, an in-process call while rendering on the server. */
export interface Transport {
  send(request: TransportRequest): Promise<TransportAnswer>;
}

/** Any answer of 400 or more: its status and the error body the server sent (ErrorBody, when it sent one). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(body?.message ?? `request failed with status ${status}`);
  }
}

/** What a call of the endpoint takes (typed from its entry of the table), and headers of this request. */
export type CallInput<K extends EndpointName> = EndpointInput<K> & {
  headers?: Record<string, string>;
} & CallHints;

/** The input may be left out of a call whose endpoint needs none. */
export type CallArgs<K extends EndpointName> =
  object extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

/** How the browser should send it: past its HTTP cache, or outliving the page. */
export interface CallHints {
  cache?: RequestCache;
  keepalive?: boolean;
}

export type Query = Record<string, unknown>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Fills the `:name` placeholders of an endpoint's path. */
export const pathOf = (template: string, params: Record<string, unknown> = {}) =>
  template.replace(/:(\w+)/g, (whole, name: string) =>
    name in params ? encodeURIComponent(String(params[name])) : whole,
  );

/** The address a call of this endpoint with this input goes to: also what the list cache keys its answers by. */
export const urlOf = (name: EndpointName, input: { params?: unknown; query?: unknown } = {}) =>
  withQuery(pathOf(routes[name].path, input.params as Query), input.query as Query);

export type Call = <K extends EndpointName>(name: K, ...args: CallArgs<K>) => Promise<EndpointOutput<K>>;

/**
 * The one client call, `call(name, input)`: the endpoint's entry in the table gives the method, the path and every
 * type, so a call with the wrong input or read as the wrong answer does not compile. `headers` adds to every request (the admin's
 * token). An answer of 400 or more throws ApiRequestError; a request that never reached the server throws as
 * the transport does (fetch's TypeError).
 */
export function createCall(transport: Transport, headers: () => Record<string, string> = () => ({})): Call {
  return async <K extends EndpointName>(name: K, ...[input]: CallArgs<K>): Promise<EndpointOutput<K>> => {
    const given = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown } & CallHints & {
        headers?: Record<string, string>;
      };
    const request: TransportRequest = {
      method: routes[name].method,
      url: urlOf(name, given),
      name,
      input: { params: given.params, query: given.query },
      headers: { accept: 'application/json', ...headers(), ...given.headers },
    };
    const body = given.body as unknown;
    if (body instanceof FormData) request.body = body;
    else if (body !== undefined) {
      request.headers['content-type'] = 'application/json';
      request.body = JSON.stringify(body);
    }
    if (given.cache) request.cache = given.cache;
    if (given.keepalive) request.keepalive = given.keepalive;
    const { status, body: answer } = await transport.send(request);
    if (status >= 400) throw new ApiRequestError(status, answer as ErrorBody | undefined);
    return answer as EndpointOutput<K>;
  };
}

/** The browser's transport; same-origin cookies go along (fetch's default, stated): sign-in reads the device cookie. */
export const browserTransport: Transport = {
  async send({ method, url, headers, body, cache, keepalive }) {
    const response = await fetch(url, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      ...(cache && { cache }),
      ...(keepalive && { keepalive }),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    return { status: response.status, body: answer };
  },
};

/** The call of this browser's page, for anything outside a loader (forms, the admin app). */
export const call = createCall(browserTransport);

export type FieldErrors = Record<string, string>;

/**
 * The one field-error mapper: the server names fields in `data.errors`; each field gets its first message, under the
 * name the form gives it (`rename`), so the form shows each message under its field.
 */
export function fieldErrorsOf(
  error: unknown,
  rename: (field: string) => string = (field) => field,
): FieldErrors {
  const found: FieldErrors = {};
  if (!(error instanceof ApiRequestError)) return found;
  for (const { field, message } of error.body?.data?.errors ?? []) {
    found[rename(field.replace(/^body\./, ''))] ??= message;
  }
  return found;
}
