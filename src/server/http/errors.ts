import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, FieldError } from '../../shared/api/common.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** An error the client is meant to read: its status, a stable code and, for bad input, which fields and why. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
  }
}

/** The database cannot be reached or is locked: the client may try again shortly (sent with Retry-After). */
export class DatabaseUnavailableError extends ApiError {
  readonly retryAfterSeconds = 5;
  constructor(message = 'The database is unavailable; try again in a few seconds') {
    super(503, 'database_unavailable', message);
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} was not found`);
export const badRequest = (field: string, message: string) =>
  new ApiError(400, 'invalid_request', `${field} ${message}`, [{ field, message }]);

export function errorBody(
  status: number,
  code: string,
  message: string,
  fields: FieldError[] = [],
): ErrorBody {
  return { status, code, message, data: { errors: fields } };
}

export interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function describeIssue(issue: AjvIssue): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'type':
      return p.type === 'integer' ? 'must be a whole number' : `must be of type ${String(p.type)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'format':
      return p.format === 'email' ? 'must be a valid email address' : `must be a valid ${String(p.format)}`;
    case 'anyOf':
    case 'const':
    case 'enum':
      return 'has a value that is not allowed';
    default:
      return issue.message ?? 'is invalid';
  }
}

function fieldOf(issue: AjvIssue, context: string | undefined): string {
  const base = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.keyword === 'additionalProperties'
        ? String(issue.params.additionalProperty)
        : '';
  const field = [base, extra].filter(Boolean).join('.');
  return field || (context === 'body' ? 'body' : (context ?? 'request'));
}

export function validationFields(issues: AjvIssue[], context: string | undefined): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const issue of issues) {
    const field = fieldOf(issue, context);
    // anyOf reports every branch; the first message per field is the one a person needs.
    if (!seen.has(field)) seen.set(field, { field, message: describeIssue(issue) });
  }
  return [...seen.values()];
}

/** The refusal of input its schema does not admit (400), every bad field named. */
export function invalidInput(fields: FieldError[]): ApiError {
  return new ApiError(
    400,
    'invalid_request',
    fields.map((f) => `${f.field} ${f.message}`).join('; '),
    fields,
  );
}

/** Our stable names for the errors Fastify and its plugins raise before a handler runs. */
const FRAMEWORK_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_FILES_LIMIT: 'too_many_files',
  FST_PARTS_LIMIT: 'too_many_parts',
  FST_FIELDS_LIMIT: 'too_many_fields',
  FST_REQ_FILE_TOO_LARGE: 'file_too_large',
  FST_PROTO_VIOLATION: 'invalid_json',
};

/** Addresses the API answers in JSON; any other page address belongs to the help centre's not-found screen. */
const isApiPath = (path: string) => /^\/(api|panel|files|assets|healthz|readyz|metrics)(\/|$)/.test(path);

/**
 * Fastify's own refusals before any route runs (a URL that cannot be decoded, a path parameter past its length), in
 * the error shape; a page address goes to the not-found screen, as every unknown page does.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? request.url;
  if (request.method === 'GET' && !isApiPath(path)) return reply.redirect('/knowledge/404', 302);
  const [status, code, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'url_too_long', 'a part of the address is too long']
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'invalid_url', 'the address has a malformed %-escape']
        : [error.statusCode ?? 400, 'bad_request', error.message];
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(status, code, `url: ${message}`, [{ field: 'url', message }]));
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'request', 'was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'headers', 'are larger than the server accepts (16 KB)'],
};

/**
 * A request Node's HTTP parser refused before Fastify saw it (headers too large, bytes that are not HTTP): answered
 * in the error shape, then the connection is closed, as Node does.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, field, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'bad_request',
    'request',
    'is not a valid HTTP request',
  ];
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, code, `${field} ${message}`, [{ field, message }]));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** A thrown error as the refusal it is answered with: ours as it is, a database outage as 503; null for anything else. */
export function refusalOf(thrown: unknown, log: Pick<FastifyBaseLogger, 'warn'>): ApiError | null {
  if (thrown instanceof ApiError) return thrown;
  if (!isDatabaseUnavailable(thrown)) return null;
  log.warn({ err: thrown }, 'database unavailable');
  return new DatabaseUnavailableError();
}

/** The body of a refusal, and the body of anything else a handler threw (500, its cause only logged). */
export function errorAnswerOf(thrown: unknown, log: Pick<FastifyBaseLogger, 'warn' | 'error'>): ErrorBody {
  const refusal = refusalOf(thrown, log);
  if (refusal) return errorBody(refusal.status, refusal.code, refusal.message, refusal.fields);
  log.error({ err: thrown }, 'request failed');
  return errorBody(500, 'internal_error', INTERNAL_ERROR);
}

const INTERNAL_ERROR = 'An error has occured on the server';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError & { validation?: AjvIssue[] }, request, reply) => {
    // A download stream can fail after its type was set; the error must still go out as JSON.
    reply.type('application/json; charset=utf-8');
    const error = refusalOf(thrown, request.log) ?? thrown;
    if (error instanceof ApiError) {
      const retryAfter = (error as ApiError & { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
      return reply
        .status(error.status)
        .send(errorBody(error.status, error.code, error.message, error.fields));
    }
    if (error.validation) {
      const refusal = invalidInput(validationFields(error.validation, error.validationContext));
      return reply.status(400).send(errorBody(400, refusal.code, refusal.message, refusal.fields));
    }
    const status = error.statusCode ?? 500;
    const bodyLimit = request.routeOptions.config.bodyLimit;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimit) {
      // A route that takes a large field names it: that is what the writer has to shorten.
      const { bytes, field, message } = bodyLimit;
      const refusal = errorBody(413, 'body_too_large', `The request is larger than ${bytes} bytes`, [
        { field, message },
      ]);
      return reply.status(413).send(refusal);
    }
    if (status >= 400 && status < 500) {
      // The body as a whole could not be read: that is the field a client has to fix.
      const fields = /^FST_ERR_CTP_/.test(error.code ?? '')
        ? [{ field: 'body', message: error.message }]
        : [];
      return reply
        .status(status)
        .send(errorBody(status, FRAMEWORK_CODES[error.code ?? ''] ?? 'bad_request', error.message, fields));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody(500, 'internal_error', INTERNAL_ERROR));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    // The specification sends every page address outside /knowledge to its not-found screen.
    if (request.method === 'GET' && !isApiPath(path)) {
      return reply.redirect('/knowledge/404', 302);
    }
    return reply.status(404).send(errorBody(404, 'not_found', `No route for ${request.method} ${path}`));
  });
}
