import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../server/context-factory.ts';
import { recordSearchEvent, weekOf, isoWeekName } from '../server/features/search/search-analytics.ts';
import { buildArticle } from '../server/testing/factories.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../server/testing/test-context.ts';
import { signpost } from '../server/testing/run-cli.ts';

// Each test runs the real command in child processes, several of them, each a second or more while the other test
// files keep both cores busy: the default 30 s is too tight a bound for that.
vi.setConfig({ testTimeout: 90_000 });

const WEEK_MS = 7 * 86_400_000;

describe.each(testDialects())('signpost search-report on %s', (dialect) => {
  let environment: TestEnvironment;
  let empty: TestEnvironment;
  let articleId: number;
  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
    empty = await createTestEnvironment(dialect);
    const ctx = await createContext(environment.config);
    for (let i = 0; i < 3; i++)
      await recordSearchEvent(ctx.db, { type: 'search', query: 'Reset password', found: 2 });
    await recordSearchEvent(ctx.db, { type: 'open', query: 'reset password', id: 1 });
    await recordSearchEvent(ctx.db, { type: 'search', query: 'teleport', found: 0 });
    await recordSearchEvent(ctx.db, { type: 'search', query: 'router lights', found: 4 });
    await recordSearchEvent(ctx.db, { type: 'search', query: 'router lights', found: 4 });
    const article = await buildArticle(ctx.db, { title: 'Reset your router' });
    articleId = article.id;
    const now = Date.now();
    for (let i = 0; i < 3; i++)
      await recordSearchEvent(ctx.db, { type: 'suggestion_open', id: articleId }, now);
    await recordSearchEvent(ctx.db, { type: 'request_sent', opened: [articleId] }, now);
    await recordSearchEvent(ctx.db, { type: 'suggestion_open', id: articleId }, now - 4 * WEEK_MS);
    await ctx.db
      .insertInto('article_feedback')
      .values(
        [0, 0, 1].map((helpful, i) => ({
          article_id: articleId,
          visitor_key: `key-${i}`,
          helpful: helpful as 0 | 1,
          reason: null,
          comment: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await ctx.database.close();
  });
  afterAll(async () => {
    await environment?.cleanup();
    await empty?.cleanup();
  });

  it('prints every part of the report in its own section', async () => {
    const run = await signpost(['search-report', '--limit', '5'], environment.env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/Most frequent queries:\n\s+3 {2}reset password {2}\(searched 3, opened 1\)/);
    expect(run.stdout).toMatch(/Queries that found nothing:\n\s+1 {2}teleport/);
    expect(run.stdout).toMatch(
      /Queries whose results nobody opened:\n\s+2 {2}router lights {2}\(searched 2, opened 0\)\n\n/,
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `Articles readers found unhelpful:\\n\\s+2 {2}Reset your router {2}\\(article ${articleId}: 2 no, 1 yes\\)`,
      ),
    );
    const thisWeek = weekOf(Date.now());
    const earlier = weekOf(Date.now() - 4 * WEEK_MS);
    expect(run.stdout).toContain('Requests avoided by suggested articles (last 12 weeks):');
    expect(run.stdout).toMatch(/\n\s+Week\s+Starts\s+Opened\s+Sent\s+Avoided\s+Article\n/);
    expect(run.stdout).toMatch(
      new RegExp(
        `${isoWeekName(thisWeek)}\\s+${thisWeek}\\s+3\\s+1\\s+2\\s+Reset your router \\(${articleId}\\)`,
      ),
    );
    expect(run.stdout).toMatch(new RegExp(`${isoWeekName(earlier)}\\s+${earlier}\\s+1\\s+0\\s+1\\s+Reset`));
    expect(run.stdout).toContain('Total avoided: 3');

    const recent = await signpost(['search-report', '--weeks', '2'], environment.env);
    expect(recent.stdout).toContain('(last 2 weeks)');
    expect(recent.stdout).not.toContain(earlier);
    expect(recent.stdout).toContain('Total avoided: 2');
  });

  it('says when a part has nothing yet, and refuses bad numbers', async () => {
    const run = await signpost(['search-report'], empty.env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Queries whose results nobody opened:\n  (none yet)');
    expect(run.stdout).toContain('Articles readers found unhelpful:\n  (no article has been rated yet)');
    expect(run.stdout).toContain('Requests avoided by suggested articles (last 12 weeks):\n  (none yet)');

    const bad = await signpost(['search-report', '--limit', '0'], environment.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 500');
    const badWeeks = await signpost(['search-report', '--weeks', '53'], environment.env);
    expect(badWeeks.code).toBe(1);
    expect(badWeeks.stderr).toContain('--weeks must be a whole number from 1 to 52');
  });
});
