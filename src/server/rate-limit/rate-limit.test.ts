import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { giveBack, RateLimitError, recentUse, takeAllowance } from './rate-limit.ts';

const HOUR = 60 * 60 * 1000;

describe.each(testDialects())('hourly allowances on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  // A fixed moment inside one hour: nothing here depends on when the test runs.
  const now = Math.floor(Date.now() / HOUR) * HOUR + 10 * 60 * 1000;

  it('lets takers at the same moment together take no more than the limit, each all or nothing', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => takeAllowance(t.ctx.db, 'test', 'a', 10, 3, now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect(refused.reason).toBeInstanceOf(RateLimitError);
      expect((refused.reason as RateLimitError).retryAfterSeconds).toBe(50 * 60);
    }
    expect(await recentUse(t.ctx.db, 'test', 'a', now)).toBe(9);
    // One more fits exactly; then nothing does.
    expect(await takeAllowance(t.ctx.db, 'test', 'a', 10, 1, now)).toBe(10);
    await expect(takeAllowance(t.ctx.db, 'test', 'a', 10, 1, now)).rejects.toBeInstanceOf(RateLimitError);
  });

  it('refuses more than the limit at once, and keeps clients and hours apart', async () => {
    await expect(takeAllowance(t.ctx.db, 'test', 'b', 10, 11, now)).rejects.toBeInstanceOf(RateLimitError);
    expect(await recentUse(t.ctx.db, 'test', 'b', now)).toBe(0);
    expect(await takeAllowance(t.ctx.db, 'test', 'b', 10, 10, now)).toBe(10);
    expect(await takeAllowance(t.ctx.db, 'test', 'b', 10, 10, now + HOUR)).toBe(10);
    expect(await takeAllowance(t.ctx.db, 'test', 'c', 10, 10, now)).toBe(10);
    // This hour's use and the last one's.
    expect(await recentUse(t.ctx.db, 'test', 'b', now + HOUR)).toBe(20);
    expect(await recentUse(t.ctx.db, 'test', 'b', now + 2 * HOUR)).toBe(10);
  });

  it('gives back to the hour it was taken in, never below nothing', async () => {
    await takeAllowance(t.ctx.db, 'test', 'd', 10, 8, now);
    await giveBack(t.ctx.db, 'test', 'd', 5, now);
    expect(await recentUse(t.ctx.db, 'test', 'd', now)).toBe(3);
    await giveBack(t.ctx.db, 'test', 'd', 5, now);
    expect(await recentUse(t.ctx.db, 'test', 'd', now)).toBe(0);
    await giveBack(t.ctx.db, 'test', 'never-took', 5, now);
    expect(await takeAllowance(t.ctx.db, 'test', 'd', 10, 10, now)).toBe(10);
  });
});
