import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/api/endpoints.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { route } from '../http/route.ts';
import type { Metrics } from './metrics.ts';

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Compares hashes, so neither the token's length nor its content leaks through timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return crypto.timingSafeEqual(digest(given), digest(token));
}

export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext, metrics: Metrics): void {
  const token = ctx.config.metricsToken;
  route(app, endpoints.getMetrics, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (token && !bearerMatches(request.headers.authorization, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new ApiError(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    reply.type(metrics.registry.contentType);
    return metrics.scrape();
  });
}
