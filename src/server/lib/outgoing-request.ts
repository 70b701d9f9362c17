/** The most redirects any caller may follow. */
export const MAX_REDIRECTS = 3;

/** Headers that prove who is asking: never sent on to another origin than the one the operator named. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface OutgoingRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  /** The whole exchange, redirects included, is given up after this long (a TimeoutError, as fetch throws). */
  timeoutMs: number;
  /**
   * Redirects to follow (at most MAX_REDIRECTS); none by default, when a 3xx is the answer the caller reads. Each
   * target is checked again, and on another origin the credentials and `secretHeaders` are not sent, nor the body:
   * a 307 or 308 that would send it there is refused with an error.
   */
  redirects?: number;
  /** The caller's own headers that carry a secret (a webhook's signature), dropped with the credentials. */
  secretHeaders?: readonly string[];
}

/** Where a request may go: an http or https URL. Throws otherwise. */
function checkedTarget(url: string | URL, base?: URL): URL {
  const target = new URL(url, base);
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new Error(`refused to send a request to a ${target.protocol} address`);
  return target;
}

/**
 * Every request the server makes to an address an operator set (embeddings, webhook, captcha check): redirects not
 * followed unless the caller asks, each followed one checked as the first, and nothing secret handed to another
 * origin (an endpoint that moved, or one that sends its callers on to a host of someone else's).
 */
export async function outgoingRequest(url: string, request: OutgoingRequest): Promise<Response> {
  const limit = Math.min(request.redirects ?? 0, MAX_REDIRECTS);
  const signal = AbortSignal.timeout(request.timeoutMs);
  let target = checkedTarget(url);
  const origin = target.origin;
  let method = request.method ?? 'GET';
  let body = request.body;
  let headers = { ...request.headers };
  for (let followed = 0; ; followed++) {
    const response = await fetch(target, { method, headers, body, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null || limit === 0) return response;
    await response.body?.cancel();
    if (followed === limit) throw new Error(`more than ${limit} redirects from ${origin}`);
    const from = target.origin;
    target = checkedTarget(location, target);
    // As browsers do: a 303, or a 301 or 302 after a POST, asks for the new address with GET and no body.
    if (
      response.status === 303 ||
      (method === 'POST' && response.status !== 307 && response.status !== 308)
    ) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type']);
    }
    if (target.origin !== origin) {
      // A 307 or 308 asks for the body again, and a body can hold a secret (reCAPTCHA's) or private text (articles).
      if (body !== undefined)
        throw new Error(
          `refused a ${response.status} redirect from ${from} to ${target.href}: the body is not sent to another origin`,
        );
      headers = withoutHeaders(headers, [...CREDENTIAL_HEADERS, ...(request.secretHeaders ?? [])]);
    }
  }
}

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const dropped = new Set(names.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name.toLowerCase())));
}
