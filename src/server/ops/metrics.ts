import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { outboxBacklog, unmatchedMailCounts } from './metrics.repository.ts';
import { pageCacheHits, pageCacheMisses } from '../http/cache-metrics.ts';
import { createHttpMetrics } from './http-metrics.ts';

/** The label of a request that matched no route: one series for all of them, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

type CacheStatsReader = () => { entries: number; bytes: number };
type Log = FastifyInstance['log'];

/** The page cache's size and the search index's, read at scrape time. */
function registerMemoryGauges(registry: Registry, ctx: AppContext, cacheStats: CacheStatsReader) {
  new Gauge({
    name: 'signpost_page_cache_entries',
    help: 'Public answers kept in this process’s memory',
    registers: [registry],
    collect() {
      this.set(cacheStats().entries);
    },
  });
  new Gauge({
    name: 'signpost_page_cache_bytes',
    help: 'Bytes of the public answers kept in memory, their compressed forms included (at most CACHE_MAX_MB)',
    registers: [registry],
    collect() {
      this.set(cacheStats().bytes);
    },
  });
  new Gauge({
    name: 'signpost_search_index_documents',
    help: 'Articles in this process’s search index (0 until the first build)',
    registers: [registry],
    collect() {
      this.set(ctx.search.size);
    },
  });
}

/** The outbox's three gauges and how they are read: at scrape time, once for the three. */
function outboxGauges(registry: Registry, ctx: AppContext, log: Log) {
  const pending = new Gauge({
    name: 'signpost_outbox_pending',
    help: 'Ticket deliveries waiting to be sent, by target',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'signpost_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest ticket delivery still pending, by target',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const failed = new Gauge({
    name: 'signpost_outbox_failed',
    help: 'Ticket deliveries given up after every retry, by target (see signpost tickets show)',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const resetBacklog = () => [pending, oldest, failed].forEach((gauge) => gauge.reset());
  return async (): Promise<void> => {
    try {
      const rows = await outboxBacklog(ctx.db);
      resetBacklog();
      const now = Date.now();
      for (const row of rows) {
        if (row.status === 'failed') failed.set({ target: row.target }, Number(row.count));
        else {
          pending.set({ target: row.target }, Number(row.count));
          oldest.set({ target: row.target }, Math.max(0, (now - Number(row.oldest)) / 1000));
        }
      }
    } catch (error) {
      // No figures rather than stale ones; the rest of the scrape still answers (readyz reports the database).
      resetBacklog();
      log.warn({ err: error }, 'metrics: cannot read the outbox');
    }
  };
}

/** The mails the mailbox reader left for the team, by reason, and how they are read at scrape time. */
function unmatchedMailGauge(registry: Registry, ctx: AppContext, log: Log) {
  const unmatchedMail = new Gauge({
    name: 'signpost_mail_replies_unmatched',
    help: 'Mails in the IMAP_URL mailbox that joined no request and were left unread for the team, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return async (): Promise<void> => {
    if (!ctx.config.imap) return;
    try {
      const rows = await unmatchedMailCounts(ctx.db);
      unmatchedMail.reset();
      for (const row of rows) unmatchedMail.set({ reason: row.reason ?? 'unknown' }, Number(row.count));
    } catch (error) {
      unmatchedMail.reset();
      log.warn({ err: error }, 'metrics: cannot read the mail replies');
    }
  };
}

/**
 * One registry per app (tests build several apps in one process): HTTP rate, latency and errors per route pattern,
 * the outbox backlog and the search index read at scrape time, the page cache counters and Node's process metrics.
 */
export function createMetrics(
  ctx: AppContext,
  log: Log,
  cacheStats: CacheStatsReader = () => ({ entries: 0, bytes: 0 }),
) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(pageCacheHits);
  registry.registerMetric(pageCacheMisses);
  const http = createHttpMetrics(registry);
  registerMemoryGauges(registry, ctx, cacheStats);
  const readBacklog = outboxGauges(registry, ctx, log);
  const readUnmatchedMail = unmatchedMailGauge(registry, ctx, log);
  return {
    registry,
    /** The text exposition, with the figures read from the database brought up to date first. */
    async scrape(): Promise<string> {
      await Promise.all([readBacklog(), readUnmatchedMail()]);
      return registry.metrics();
    },
    observe(method: string, route: string | undefined, status: number, seconds: number) {
      http.observe(method, route ?? UNMATCHED_ROUTE, status, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
