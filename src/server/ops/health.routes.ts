import type { FastifyInstance } from 'fastify';
import type { FieldError } from '../../shared/api/common.ts';
import { endpoints } from '../../shared/api/endpoints.ts';
import type { AppContext } from '../context.ts';
import { pendingMigrations, pingDatabase } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { route } from '../http/route.ts';

/** A probe must answer quickly even when PostgreSQL does not: past this, the database counts as unreachable. */
const DATABASE_TIMEOUT_MS = 3_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The checks that failed, each named as a field of the 503 answer; none means ready. */
async function failedChecks(ctx: AppContext, log: FastifyInstance['log']): Promise<FieldError[]> {
  const failed: FieldError[] = [];
  try {
    await withTimeout(pingDatabase(ctx.db), DATABASE_TIMEOUT_MS);
    const pending = await withTimeout(pendingMigrations(ctx.database), DATABASE_TIMEOUT_MS);
    if (pending.length) failed.push({ field: 'migrations', message: `not applied: ${pending.join(', ')}` });
  } catch (error) {
    // The probe is public: the cause goes to the log, not to the answer.
    log.warn({ err: error }, 'readiness: the database is unreachable');
    failed.push({ field: 'database', message: 'unreachable' });
  }
  if (!ctx.search.ready) failed.push({ field: 'search', message: 'the index is not built yet' });
  return failed;
}

/** Liveness (the process answers) and readiness (it can serve: database, schema, search index). */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.getHealth, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' as const };
  });

  route(app, endpoints.getReadiness, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const failed = await failedChecks(ctx, request.log);
    if (failed.length) {
      throw new ApiError(
        503,
        'not_ready',
        `not ready: ${failed.map((f) => `${f.field} ${f.message}`).join('; ')}`,
        failed,
      );
    }
    return { status: 'ready' as const, checks: { database: 'ok', migrations: 'ok', search: 'ok' } as const };
  });
}
