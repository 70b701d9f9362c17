import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ErrorBody, type FieldError } from '../../shared/api/common.ts';
import { ApiError } from './errors.ts';
import type { Endpoint } from '../../shared/api/endpoints.ts';

type StaticOf<T> = T extends TSchema ? Static<T> : unknown;

export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Querystring: StaticOf<E['querystring']>;
  Params: StaticOf<E['params']>;
  Body: StaticOf<E['body']>;
  Headers: StaticOf<E['headers']>;
}>;

export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<StaticOf<E['response']>>;

/**
 * Registers one endpoint of the contract: Fastify validates the input against its schemas, and the answer is
 * checked against the response schema before it leaves, so the server can never drift from what the client expects.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: { bodyLimit?: number } = {},
): void {
  const status = endpoint.status ?? 200;
  const checkResponse = Compile(endpoint.response);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    schema: {
      summary: endpoint.summary,
      tags: endpoint.tags,
      ...(endpoint.querystring && { querystring: endpoint.querystring }),
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.body && { body: endpoint.body }),
      ...(endpoint.headers && { headers: endpoint.headers }),
      response: { [status]: endpoint.response, '4xx': ErrorBody, '5xx': ErrorBody },
    },
    handler: async (request, reply) => {
      const result = await handler(request as EndpointRequest<E>, reply);
      if (!checkResponse.Check(result)) {
        const first = [...checkResponse.Errors(result)][0];
        throw new Error(
          `${endpoint.method} ${endpoint.path} answered outside its contract: ${JSON.stringify(first)}`,
        );
      }
      reply.status(status);
      return result;
    },
  });
}

/** Where a value is a number no count, id or page can be, and why. */
function unsafeNumbers(value: unknown, field: string, found: FieldError[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push({ field, message: 'must be a finite number' });
    else if (Number.isInteger(value) && !Number.isSafeInteger(value))
      found.push({ field, message: 'is too large' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unsafeNumbers(item, `${field}.${index}`, found));
  }
}

/**
 * Refuses, for every route, numbers the schema checks let through: the validator turns "Infinity" into a number
 * that passes `integer`, `minimum` and `maximum` alike, and JSON's 1e999 parses as Infinity. Run after validation,
 * on the values the handler is about to read.
 */
export async function rejectUnsafeNumbers(request: FastifyRequest): Promise<void> {
  const found: FieldError[] = [];
  for (const part of [request.params, request.query, request.body]) {
    if (!part || typeof part !== 'object' || Array.isArray(part)) continue;
    for (const [field, value] of Object.entries(part)) unsafeNumbers(value, field, found);
  }
  if (found.length) {
    throw new ApiError(400, 'invalid_request', found.map((f) => `${f.field} ${f.message}`).join('; '), found);
  }
}
