import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Headers by which proxies and CDNs say a request is relayed, besides every `X-Forwarded-*`. */
const RELAY_HEADERS = ['forwarded', 'via', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip'];

const relayed = (headers: FastifyRequest['headers']) =>
  Object.keys(headers).some((name) => name.startsWith('x-forwarded-') || RELAY_HEADERS.includes(name));

/**
 * A scraper on this machine itself: the connection comes from a loopback address and carries no sign of a proxy
 * relaying someone else's request. A proxy on the same machine connects from loopback too: the ones set up as the
 * deployment guide says add X-Forwarded-For, which a client cannot take away. One that adds no such header at all
 * makes every request it relays look local, so its operator sets METRICS_TOKEN or refuses /metrics there.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  return !relayed(request.headers) && LOOPBACK.test(request.socket.remoteAddress ?? '');
}

export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext, metrics: Metrics): void {
  const { metricsToken: token, metricsPublic } = ctx.config;
  route(app, endpoints.getMetrics, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (token && !bearerMatches(request.headers.authorization, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new ApiError(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    if (!token && !metricsPublic && !fromThisMachine(request)) {
      throw new ApiError(
        403,
        'forbidden',
        'GET /metrics answers only on this machine (a loopback connection that no proxy relays): set METRICS_TOKEN to scrape from elsewhere, or METRICS_PUBLIC=true',
      );
    }
    reply.type(metrics.registry.contentType);
    return metrics.scrape();
  });
}
