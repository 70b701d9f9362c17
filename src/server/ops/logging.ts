import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a caller may hand us as a request id: short, and nothing that could forge or break a log line. */
const ACCEPTED_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * The request's id: the caller's `x-request-id` when it is a sensible token (a proxy or load balancer that already
 * named the request), else a new UUID, unique across servers and restarts unlike Fastify's counter.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : crypto.randomUUID();
}

/** Query parameters whose values grant access (the signed links to ticket files) and never reach a log. */
const SECRET_PARAMS = /^(signature|token|password|secret|key)$/i;

/** A parameter name as the server will read it; a malformed escape is kept as written (it names no secret). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** The URL for a log line. Never throws: it runs on every request, outside any handler, before any validation. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      return value.length && SECRET_PARAMS.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

const SECRET_HEADERS = ['authorization', 'cookie', '["x-auth-token"]'];

/**
 * Pino options for the server's JSON logs: each request's lines carry its id (`reqId`), URLs lose their signatures,
 * and the headers that carry credentials are censored wherever a request or its headers are logged.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  const headerPaths = (prefix: string) =>
    SECRET_HEADERS.map((h) => `${prefix}${h.startsWith('[') ? '' : '.'}${h}`);
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        ...headerPaths('req.headers'),
        ...headerPaths('headers'),
        ...headerPaths('request.headers'),
        'res.headers["set-cookie"]',
        'password',
        'body.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        // As the client sent it: public addresses are routed without the parameters they do not read.
        url: redactUrl(request.originalUrl),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
