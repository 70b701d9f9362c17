import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../server/context-factory.ts';
import { recordSearchEvent } from '../server/features/search/search-analytics.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../server/testing/test-context.ts';
import { signpost } from '../server/testing/run-cli.ts';

// Each test runs the real command in child processes, several of them, each a second or more while the other test
// files keep both cores busy: the default 30 s is too tight a bound for that.
vi.setConfig({ testTimeout: 90_000 });

describe.each(testDialects())('signpost search-report on %s', (dialect) => {
  let environment: TestEnvironment;
  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
    const ctx = await createContext(environment.config);
    for (let i = 0; i < 3; i++)
      await recordSearchEvent(ctx.db, { type: 'search', query: 'Reset password', found: 2 });
    await recordSearchEvent(ctx.db, { type: 'open', query: 'reset password', id: 1 });
    await recordSearchEvent(ctx.db, { type: 'search', query: 'teleport', found: 0 });
    await ctx.database.close();
  });
  afterAll(async () => environment?.cleanup());

  it('prints the most frequent queries and those that found nothing', async () => {
    const run = await signpost(['search-report', '--limit', '5'], environment.env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/Most frequent queries:\n\s+3 {2}reset password {2}\(searched 3, opened 1\)/);
    expect(run.stdout).toMatch(/Queries that found nothing:\n\s+1 {2}teleport/);
    const bad = await signpost(['search-report', '--limit', '0'], environment.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 500');
  });
});
