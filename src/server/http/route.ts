import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { ErrorBody, type FieldError } from '../../shared/api/common.ts';
import { invalidInput, validationFields } from './errors.ts';
import type { BodyLimit, Endpoint, RateLimit, Role } from '../../shared/api/endpoints.ts';
import type { UserRow } from '../db/tables.ts';

type StaticOf<T> = T extends TSchema ? Static<T> : unknown;

/** What a handler answers: a value of the response schema, or, for a download, the reply it sent the bytes on. */
export type AnswerOf<E extends Endpoint> = E['response'] extends TSchema
  ? Static<E['response']>
  : FastifyReply;

export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Querystring: StaticOf<E['querystring']>;
  Params: StaticOf<E['params']>;
  Body: StaticOf<E['body']>;
  Headers: StaticOf<E['headers']>;
}>;

/** The signed-in caller of an endpoint whose role is not public, and the token they sent. */
export interface Session {
  user: UserRow;
  token: string;
  /** On a download (`identifies: 'files'`): an admin known by the token header or the files cookie, the editor. */
  editor?: true;
}

/**
 * On a download (`identifies: 'files'`): who asks, looked up the first time the handler asks and never again, so a
 * file everyone may read costs no token lookup.
 */
export type WhoAsks = () => Promise<Session | null>;

/**
 * Answers whether the request may call an endpoint of this role: its session, null for a public endpoint (or, when
 * the endpoint identifies its caller, the session of a valid token, else null).
 */
export type RoleCheck = (
  role: Role,
  request: FastifyRequest,
  reply: FastifyReply,
  identifies?: Endpoint['identifies'],
) => Promise<Session | null>;

/** What route() tells the error handler about a route: the field a body past its limit is refused naming. */
export interface RouteConfig {
  bodyLimit?: BodyLimit;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges route()'s config into Fastify's
  interface FastifyContextConfig extends RouteConfig {}
  interface FastifyInstance {
    /** Set once by the app (from the auth feature), before any route that is not public is registered. */
    roleCheck: RoleCheck;
    /**
     * Who a page is rendered for: the user of its session cookie, if valid, as the reads that identify their caller
     * would take it (a page's address carries no token header). Set with roleCheck.
     */
    pageVisitor: (request: FastifyRequest) => Promise<UserRow | null>;
    /** Counts a call against the endpoint's limit and refuses past it (429); set once by the app. */
    rateLimitCheck: (limit: RateLimit, request: FastifyRequest) => Promise<void>;
  }
}

export type SessionOf<E extends Endpoint> = E['role'] extends 'public'
  ? E extends { identifies: 'files' }
    ? WhoAsks
    : E extends { identifies: true }
      ? Session | null
      : null
  : Session;

export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
  session: SessionOf<E>,
) => Promise<AnswerOf<E>>;

/**
 * Registers one endpoint of the contract: Fastify validates the input against its schemas, the caller is held to
 * the endpoint's role (after validation, so a malformed request is refused as such whoever sends it), and the answer
 * is checked against the response schema before it leaves, so the server can never drift from what the client
 * expects.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
): void {
  const status = endpoint.status ?? 200;
  const { response, body } = endpoint;
  const checkResponse = response === 'stream' ? null : Compile(response);
  const checksRole = endpoint.role !== 'public' || endpoint.identifies !== undefined;
  if (checksRole && !app.hasDecorator('roleCheck')) {
    throw new Error(`${endpoint.method} ${endpoint.path} needs a role check; none is registered`);
  }
  if (endpoint.rateLimit && !app.hasDecorator('rateLimitCheck')) {
    throw new Error(`${endpoint.method} ${endpoint.path} needs a rate limit; none is registered`);
  }
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.bodyLimit && {
      bodyLimit: endpoint.bodyLimit.bytes,
      config: { bodyLimit: endpoint.bodyLimit } satisfies RouteConfig,
    }),
    schema: {
      summary: endpoint.summary,
      tags: endpoint.tags,
      ...(endpoint.querystring && { querystring: endpoint.querystring }),
      ...(endpoint.params && { params: endpoint.params }),
      // A multipart body is the handler's to stream (no schema reads it whole); a download's bytes have no schema.
      ...(body && body !== 'multipart' && { body: endpoint.role === 'public' ? body : closed(body) }),
      ...(endpoint.headers && { headers: endpoint.headers }),
      ...(response !== 'stream' && { response: { [status]: response, '4xx': ErrorBody, '5xx': ErrorBody } }),
    },
    handler: async (request, reply) => {
      const session =
        endpoint.identifies === 'files'
          ? once(() => app.roleCheck(endpoint.role, request, reply, endpoint.identifies))
          : checksRole
            ? await app.roleCheck(endpoint.role, request, reply, endpoint.identifies)
            : null;
      if (endpoint.rateLimit) await app.rateLimitCheck(endpoint.rateLimit, request);
      const result = await handler(request as EndpointRequest<E>, reply, session as SessionOf<E>);
      if (!checkResponse) return result;
      holdToContract(endpoint, checkResponse, result);
      reply.status(status);
      return result;
    },
  });
}

function holdToContract(endpoint: Endpoint, check: ReturnType<typeof Compile>, result: unknown): void {
  if (check.Check(result)) return;
  const first = [...check.Errors(result)][0];
  throw new Error(
    `${endpoint.method} ${endpoint.path} answered outside its contract: ${JSON.stringify(first)}`,
  );
}

/** What a call answered in process takes: the values of its address, as the client gave them. */
export interface CallInput {
  params?: unknown;
  query?: unknown;
}

interface InProcessChecks {
  params: ReturnType<typeof Compile> | null;
  querystring: ReturnType<typeof Compile> | null;
  response: ReturnType<typeof Compile>;
}

const inProcessChecks = new WeakMap<Endpoint, InProcessChecks>();

function checksOf(endpoint: Endpoint & { response: TSchema }): InProcessChecks {
  let checks = inProcessChecks.get(endpoint);
  if (!checks) {
    checks = {
      params: endpoint.params ? Compile(endpoint.params) : null,
      querystring: endpoint.querystring ? Compile(endpoint.querystring) : null,
      response: Compile(endpoint.response),
    };
    inProcessChecks.set(endpoint, checks);
  }
  return checks;
}

/** The values given, without those left undefined (an address carries none of them). */
const given = (values: unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined));

/**
 * Answers one call of a public read without a request: a page's own reads, while the server renders it, take the
 * Reader the page resolved instead of coming in again over HTTP. The input is held to the endpoint's schemas and
 * refused as route() refuses it (400, every bad field named, values no column can hold included), and the answer
 * to the response schema; who reads is the page's, resolved as it came in.
 */
export async function answerInProcess<E extends Endpoint & { response: TSchema }>(
  endpoint: E,
  input: CallInput,
  handler: (input: {
    params: StaticOf<E['params']>;
    query: StaticOf<E['querystring']>;
  }) => Promise<AnswerOf<E>>,
): Promise<AnswerOf<E>> {
  const checks = checksOf(endpoint);
  const values = { params: given(input.params), querystring: given(input.query) };
  const fields: FieldError[] = [];
  for (const part of ['params', 'querystring'] as const) {
    const check = checks[part];
    if (check && !check.Check(values[part]))
      fields.push(...validationFields([...check.Errors(values[part])], part));
  }
  if (fields.length) throw invalidInput(fields);
  for (const part of ['params', 'querystring'] as const)
    if (checks[part])
      for (const [field, value] of Object.entries(values[part])) unstorable(value, field, fields);
  if (fields.length) throw invalidInput(fields);
  const result = await handler({
    params: values.params as StaticOf<E['params']>,
    query: values.querystring as StaticOf<E['querystring']>,
  });
  holdToContract(endpoint, checks.response, result);
  // Only what the contract names, as Fastify's serialiser writes an answer over HTTP: a field the schema lacks (a
  // key stored by an older release, a row spread whole) never reaches the page.
  return Value.Clean(endpoint.response, structuredClone(result)) as AnswerOf<E>;
}

/** The promise of the first call, for every call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * A body schema that refuses the fields it does not name (400, "is not a known field"): the team's and signed-in
 * calls say so rather than ignore a field, so a client sending one that is gone or misspelt (an old admin app's
 * `is_admin`) learns it instead of getting 200 and no change. The public calls, which front ends written against the
 * specification send, keep ignoring fields they do not read.
 */
function closed(schema: TSchema): TSchema {
  const object = schema as TSchema & { type?: unknown; additionalProperties?: unknown };
  return object.type === 'object' && object.additionalProperties === undefined
    ? ({ ...object, additionalProperties: false } as TSchema)
    : schema;
}

/** Deeper than any request of the contract nests (a body, an array of ids), and shallow enough to walk by recursion. */
const MAX_NESTING = 32;

/**
 * Where a value is one no database column can hold, and why: recursing through arrays and objects, to a depth past
 * which the value is refused as a whole (10,000 levels in a field no schema names overflowed the stack).
 */
function unstorable(value: unknown, field: string, found: FieldError[], top = field, depth = 0): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push({ field, message: 'must be a finite number' });
    else if (Number.isInteger(value) && !Number.isSafeInteger(value))
      found.push({ field, message: 'is too large' });
  } else if (typeof value === 'string') {
    // PostgreSQL's text cannot hold it (SQLite can): refused on both, so neither stores what the other cannot.
    if (value.includes('\u0000')) found.push({ field, message: 'must not contain the NUL character' });
  } else if (value && typeof value === 'object' && depth >= MAX_NESTING) {
    found.push({ field: top, message: `is nested too deeply (more than ${MAX_NESTING} levels)` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unstorable(item, `${field}.${index}`, found, top, depth + 1));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      unstorable(item, `${field}.${key}`, found, top, depth + 1);
  }
}

const PARTS = ['params', 'querystring', 'body'] as const;

/**
 * Refuses, for every route, values its schema lets through that no handler should see: the validator turns
 * "Infinity" into a number that passes `integer`, `minimum` and `maximum` alike, JSON's 1e999 parses as Infinity,
 * and a NUL character makes PostgreSQL fail the query. Only the parts a route declares a schema for are checked
 * (a page reads its query as it likes). Run after validation, on the values the handler is about to read.
 */
export async function rejectUnstorableInput(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema;
  if (!schema) return;
  const found: FieldError[] = [];
  for (const part of PARTS) {
    const values = part === 'querystring' ? request.query : request[part];
    if (!schema[part] || !values || typeof values !== 'object' || Array.isArray(values)) continue;
    for (const [field, value] of Object.entries(values)) unstorable(value, field, found);
  }
  if (found.length) throw invalidInput(found);
}

const DECIMAL = { integer: /^-?\d{1,20}$/, number: /^-?\d{1,20}(\.\d{1,20})?$/ } as const;

/** The JSON-Schema type a route declares for one parameter of its address, if it is a number. */
function numericType(schema: unknown, field: string): 'integer' | 'number' | null {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  const type = properties && Object.hasOwn(properties, field) ? properties[field]?.type : undefined;
  return type === 'integer' || type === 'number' ? type : null;
}

/**
 * Makes the validator refuse a number in the address written any way but plain decimal digits. It converts with
 * JavaScript's own rules, so `0x10`, `1e1`, `0b1` and ` 1 ` were ids 16, 10, 1 and 1 (`DELETE .../0x10` deleted row
 * 16): an address that names a row names it one way. Runs before validation, on the strings as they came, and marks
 * such a value as not a number, so it is refused with the validator's own message, listed with any other bad field.
 */
export async function rejectLooseNumbers(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema;
  if (!schema) return;
  for (const part of ['params', 'querystring'] as const) {
    const values = (part === 'querystring' ? request.query : request.params) as Record<
      string,
      unknown
    > | null;
    if (!schema[part] || !values || typeof values !== 'object') continue;
    for (const [field, value] of Object.entries(values)) {
      const type = numericType(schema[part], field);
      if (!type) continue;
      const loose = (each: unknown) => typeof each === 'string' && !DECIMAL[type].test(each);
      // Not a number by any rule, so the validator says what it says of any other word.
      const marked = (each: unknown) => (loose(each) ? `not decimal: ${String(each)}` : each);
      values[field] = Array.isArray(value) ? value.map(marked) : marked(value);
    }
  }
}
