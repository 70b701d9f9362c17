import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { perRevision } from './per-revision.ts';
import { touchContent } from './revision.repository.ts';

describe.each(testDialects())('values kept per content revision on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('makes a value once while the revision stands, and again once a change moves it', async () => {
    const remember = perRevision(t.ctx.revisions);
    let made = 0;
    const make = async () => ++made;
    expect(await remember('a', make)).toBe(1);
    expect(await remember('a', make)).toBe(1);
    // Another key is its own value.
    expect(await remember('b', make)).toBe(2);
    await touchContent(t.ctx.db);
    t.ctx.revisions.invalidate();
    expect(await remember('a', make)).toBe(3);
    expect(await remember('a', make)).toBe(3);
    expect(await remember('b', make)).toBe(4);
  });

  it('shares one making between calls that come together, and keeps no failure', async () => {
    const remember = perRevision(t.ctx.revisions);
    let made = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++made), 20));
    expect(await Promise.all([remember('x', slow), remember('x', slow)])).toEqual([1, 1]);
    await expect(remember('y', () => Promise.reject(new Error('database away')))).rejects.toThrow('away');
    expect(await remember('y', async () => 'made again')).toBe('made again');
  });
});
