import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerHealthRoutes } from './health.routes.ts';
import { REQUEST_ID_HEADER } from './logging.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { registerMetricsRoute } from './metrics.routes.ts';

/**
 * What operators need from every app: the request id echoed on every answer (the same id is on every log line of
 * the request), request metrics per route pattern, /healthz, /readyz and /metrics. Registered before the features'
 * routes so its hooks see all of them.
 */
export function registerOperations(
  app: FastifyInstance,
  ctx: AppContext,
  cacheStats?: () => { entries: number; bytes: number },
): Metrics {
  const metrics = createMetrics(ctx, app.log, cacheStats);
  // A request in flight when the server begins to stop finishes, and its keep-alive connection closes with it
  // rather than idling until the keep-alive timeout holds the exit back.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // On send, not on request: answers made early (the response cache, errors) carry it too.
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (closing) reply.header('Connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the URL: one series per route, whatever ids and queries visitors send.
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  registerHealthRoutes(app, ctx);
  registerMetricsRoute(app, ctx, metrics);
  return metrics;
}
