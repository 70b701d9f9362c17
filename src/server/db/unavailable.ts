/**
 * Whether an error means the database cannot be reached or is too busy right now, rather than that a query is
 * wrong: the request that met it is answered 503 with Retry-After (http/errors.ts), and a pooled PostgreSQL
 * connection that met it is thrown away (database.ts). One list, so both agree.
 */

/** Thrown without asking the database while it has just been found unreachable (database.ts). */
export class DatabaseDownError extends Error {
  readonly code = 'EDATABASEDOWN';
  constructor() {
    super('the database was unreachable a moment ago; not asking it again yet');
  }
}

/** Socket errors from Node: the server is gone, restarting or out of reach; and ours above. */
const NETWORK_CODES = new Set([
  'EDATABASEDOWN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 53300 too many connections, 57014 query cancelled
 * (statement_timeout), 55P03 lock not available, 57P01-57P05 the server shutting down, starting up or idle
 * sessions ended.
 */
const POSTGRES_STATES = /^(08\d{3}|53300|57014|55P03|57P0[1-5])$/;

/** node-postgres and pg-pool say these in words only. */
const POSTGRES_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Connection ended unexpectedly',
];

/** SQLite: another connection holds the write lock past our wait (SQLITE_BUSY, _SNAPSHOT, _TIMEOUT...). */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/** Whether the connection that met this error is broken and must not be used again (vs. one query cancelled). */
export function isConnectionFailure(error: unknown): boolean {
  return classify(error) === 'connection';
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return classify(error) !== null;
}

function classify(error: unknown, depth = 0): 'connection' | 'busy' | null {
  if (!(error instanceof Error) || depth > 4) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return 'connection';
    if (SQLITE_CODES.test(code)) return 'busy';
    if (POSTGRES_STATES.test(code)) return /^(57014|55P03|53300)$/.test(code) ? 'busy' : 'connection';
  }
  if (POSTGRES_MESSAGES.some((words) => error.message.includes(words))) return 'connection';
  // Node reports a refused connection to every address of a name as one AggregateError.
  if (error instanceof AggregateError) {
    for (const inner of error.errors as unknown[]) {
      const kind = classify(inner, depth + 1);
      if (kind) return kind;
    }
  }
  return classify(error.cause, depth + 1);
}
