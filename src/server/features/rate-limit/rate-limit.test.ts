import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { giveBack, RateLimitError, takeAllowance } from './rate-limit.ts';

describe.each(testDialects())('allowances on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const HOUR = 3_600_000;
  const now = Date.UTC(2026, 0, 5, 10, 15);

  it('takes amounts up to the limit and refuses one that would pass it, taking nothing', async () => {
    await takeAllowance(t.ctx.db, 'bytes', 'a', 10, 4, now);
    await takeAllowance(t.ctx.db, 'bytes', 'a', 10, 4, now);
    const refused = await takeAllowance(t.ctx.db, 'bytes', 'a', 10, 4, now).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).retryAfterSeconds).toBe(45 * 60);
    // The refusal took nothing: what is left still fits.
    await takeAllowance(t.ctx.db, 'bytes', 'a', 10, 2, now);
    await expect(takeAllowance(t.ctx.db, 'bytes', 'a', 10, 1, now)).rejects.toBeInstanceOf(RateLimitError);
    // Another client, and the next hour, start afresh.
    await takeAllowance(t.ctx.db, 'bytes', 'b', 10, 10, now);
    await takeAllowance(t.ctx.db, 'bytes', 'a', 10, 10, now + HOUR);
  });

  it('refuses an amount larger than the limit outright', async () => {
    await expect(takeAllowance(t.ctx.db, 'bytes', 'c', 10, 11, now)).rejects.toBeInstanceOf(RateLimitError);
    await takeAllowance(t.ctx.db, 'bytes', 'c', 10, 10, now);
  });

  it('gives back to the hour it was taken from, never below nothing', async () => {
    await takeAllowance(t.ctx.db, 'sign-in', 'd', 3, 3, now);
    await expect(takeAllowance(t.ctx.db, 'sign-in', 'd', 3, 1, now)).rejects.toBeInstanceOf(RateLimitError);
    await giveBack(t.ctx.db, 'sign-in', 'd', 2, now);
    await takeAllowance(t.ctx.db, 'sign-in', 'd', 3, 2, now);
    await giveBack(t.ctx.db, 'sign-in', 'd', 50, now);
    await takeAllowance(t.ctx.db, 'sign-in', 'd', 3, 3, now);
    // Giving back where nothing was taken does nothing.
    await giveBack(t.ctx.db, 'sign-in', 'e', 1, now);
    await takeAllowance(t.ctx.db, 'sign-in', 'e', 3, 3, now);
  });

  it('lets exactly the limit through when takers arrive together', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => takeAllowance(t.ctx.db, 'together', 'f', 7, 1, now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RateLimitError);
  });
});
