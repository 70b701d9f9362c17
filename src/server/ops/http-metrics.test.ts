import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createHttpMetrics } from './http-metrics.ts';

describe('the HTTP request metrics', () => {
  it("write the same exposition as prom-client's Counter and Histogram fed the same requests", async () => {
    const reference = new Registry();
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'signpost_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status code',
      labelNames,
      registers: [reference],
    });
    const duration = new Histogram({
      name: 'signpost_http_request_duration_seconds',
      help: 'Time from the request to the last byte of the answer, by route pattern and status code',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [reference],
    });
    const serverErrors = new Counter({
      name: 'signpost_http_server_errors_total',
      help: 'HTTP requests answered with a 5xx status, by route pattern',
      labelNames: ['method', 'route'] as const,
      registers: [reference],
    });
    const ours = new Registry();
    const metrics = createHttpMetrics(ours);

    const answered: [string, string, number, number][] = [
      ['GET', '/knowledge/*', 200, 0.0004],
      ['GET', '/knowledge/*', 200, 0.005],
      ['GET', '/knowledge/*', 304, 0.0002],
      ['GET', '/api/knowledge/instruction/:id', 200, 0.02],
      ['POST', '/panel/api/issue-open', 503, 3],
      ['GET', '/readyz', 500, 40],
      ['GET', '/readyz', 503, 0.3],
      ['GET', '(unmatched)', 404, 0.001],
    ];
    for (const [method, route, status, seconds] of answered) {
      const labels = { method, route, status_code: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      if (status >= 500) serverErrors.inc({ method, route });
      metrics.observe(method, route, status, seconds);
    }
    const expected = await reference.metrics();
    expect(expected).toContain('signpost_http_server_errors_total{method="GET",route="/readyz"} 2');
    expect(await ours.metrics()).toBe(expected);
  });
});
