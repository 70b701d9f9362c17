import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { endpoints, type Endpoint } from '../../shared/api/endpoints.ts';
import type { Language } from '../../shared/constants.ts';
import type { Transport, TransportRequest } from '../../web/api/call.ts';
import type { PageReaders, ReadReply } from '../content/reader.ts';
import { errorAnswerOf } from '../http/errors.ts';
import { cacheTagsOf } from '../http/response-cache.ts';
import { answerInProcess } from '../http/route.ts';

export interface CallAnswer {
  status: number;
  body: unknown;
}

/**
 * Answers one of the calls a page is rendered from: `answer()` is this server's own answer. The article preview
 * uses it to show an unsaved article as if it were published.
 */
export type CallOverride = (path: string, answer: () => Promise<CallAnswer>) => Promise<CallAnswer>;

export interface PageCalls {
  /** How the page's loaders reach the API while it renders. */
  transport: Transport;
  /** The tags of every call made: what the page depends on. */
  tags: Set<string>;
  /** False once a call failed (an error page is not the content) or answered from an index still catching up. */
  cacheable: boolean;
  /** A call found the database unavailable: the page answers 503 too. */
  unavailable: boolean;
}

/**
 * The page's calls, answered by this very server in process. A public read in the page's language is answered by
 * its handler with the readers the page resolved as it came in (its input and answer held to the contract by
 * answerInProcess, as route() holds them over HTTP); any other call (who is signed in, the portal's, a read in
 * another language) goes through the app as a request, with the signed-in visitor's cookie.
 */
export function createPageCalls(
  app: FastifyInstance,
  readers: PageReaders,
  override: CallOverride,
  cookie: string | undefined,
): PageCalls {
  const calls: PageCalls = {
    transport: { send: () => Promise.reject() },
    tags: new Set(),
    cacheable: true,
    unavailable: false,
  };
  const noted = (answer: CallAnswer, noStore: boolean): CallAnswer => {
    if (answer.status === 503) calls.unavailable = true;
    if (answer.status >= 500 || noStore) calls.cacheable = false;
    return answer;
  };

  const read = async (endpoint: Endpoint & { response: TSchema }, request: TransportRequest) => {
    const handler = app.readers.reads.get(endpoint)!;
    // As route() holds it: only a read that identifies its caller reads as the signed-in visitor.
    const reader = endpoint.identifies ? readers.visitor : readers.anonymous;
    let noStore = false;
    const reply: ReadReply = {
      header: (name, value) => (noStore ||= name.toLowerCase() === 'cache-control' && /no-store/.test(value)),
    };
    try {
      const body = await answerInProcess(endpoint, request.input, (input) => handler(reader, input, reply));
      // As the page would have read it over HTTP: its own copy, in JSON's values.
      return noted(
        { status: endpoint.status ?? 200, body: JSON.parse(JSON.stringify(body)) as unknown },
        noStore,
      );
    } catch (error) {
      const body = errorAnswerOf(error, app.log);
      return noted({ status: body.status, body }, false);
    }
  };

  const inject = async ({ method, url, headers, body }: TransportRequest) => {
    const response = await app.inject({
      method,
      url,
      headers: cookie ? { ...headers, cookie } : headers,
      ...(body !== undefined && { body }),
    });
    const noStore = /no-store/.test(String(response.headers['cache-control'] ?? ''));
    return noted({ status: response.statusCode, body: parseJson(response.body) }, noStore);
  };

  /** The page's own read: one of readerRoute's, in the language the page reads (none asked: the page's). */
  const pageRead = (request: TransportRequest) => {
    const endpoint = endpoints[request.name] as Endpoint;
    if (request.method !== 'GET' || !app.readers.reads.has(endpoint) || endpoint.response === 'stream')
      return null;
    const asked = (request.input.query as { lang?: Language } | undefined)?.lang ?? readers.visitor.site;
    return asked === readers.visitor.lang ? (endpoint as Endpoint & { response: TSchema }) : null;
  };

  calls.transport = {
    send: (request) =>
      override(request.url, async () => {
        const endpoint = pageRead(request);
        const answer = await (endpoint ? read(endpoint, request) : inject(request));
        for (const tag of cacheTagsOf(request.url)) calls.tags.add(tag);
        return answer;
      }),
  };
  return calls;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
