import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../privacy/daily-key.ts';
import { buildArticle, buildSection } from '../testing/factories.ts';
import { createTestEnvironment, testDialects } from '../testing/test-context.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/database.ts';
import { factorOf, LEARNING_WINDOW_DAYS, loadLearned, loadLearnedKey, weighAll } from './learning.ts';

const DAY = 86_400_000;

describe.each(testDialects())('what was learned, read from the votes on %s', (dialect) => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  const now = Date.now();
  let keys: string[];

  beforeAll(async () => {
    const environment = await createTestEnvironment(dialect);
    cleanup = () => environment.cleanup();
    handle = openDatabase(environment.config.database);
    await migrateToLatest(handle);
    const { db } = handle;
    const section = await buildSection(db);
    const articles: number[] = [];
    for (let i = 0; i < 6; i++) articles.push((await buildArticle(db, { section_id: section.id })).id);
    // 40 queries, each with votes on one to three articles over the window and beyond it, some days with many
    // votes for one query (more than a page), some queries with a single vote: what visitors leave.
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    keys = Array.from({ length: 40 }, (_, k) => `query${k} word${(k * 37) % 11}`);
    const votes: { query_key: string; day: string; voter: string; article_id: number }[] = [];
    for (const [k, key] of keys.entries()) {
      const count = k % 10 === 0 ? 1 : 5 + Math.floor(random() * 30);
      for (let v = 0; v < count; v++) {
        const age = k % 7 === 0 ? 3 : Math.floor(random() * (LEARNING_WINDOW_DAYS + 20));
        votes.push({
          query_key: key,
          day: dayOf(now - age * DAY),
          voter: `${k}-${v}`,
          article_id: articles[(k + Math.floor(random() * 3)) % articles.length] as number,
        });
      }
    }
    for (let i = 0; i < votes.length; i += 200)
      await db
        .insertInto('search_votes')
        .values(votes.slice(i, i + 200))
        .execute();
  });
  afterAll(async () => {
    await handle?.close();
    await cleanup?.();
  });

  it('reads all votes a page at a time and learns exactly what one read of them learns', async () => {
    const { db } = handle;
    const whole = await loadLearned(db, now, 1_000_000);
    expect(whole.size).toBeGreaterThan(10);
    // Pages of one vote (each takes its query's whole day), of a few, and of the default size.
    for (const pageRows of [1, 7, 50, undefined]) {
      expect(await loadLearned(db, now, pageRows), String(pageRows)).toEqual(whole);
      expect(await weighAll(db, now, pageRows), String(pageRows)).toEqual(await weighAll(db, now, 1_000_000));
    }
    // Each query's own read gives what the whole read has for it, nothing where that has nothing.
    for (const key of keys) expect(await loadLearnedKey(db, key, now), key).toEqual(whole.get(key));
  });

  it('weighs what it reads as the votes say: by age, within the window', async () => {
    const { db } = handle;
    const rows = await db.selectFrom('search_votes').selectAll().execute();
    const cutoff = dayOf(now - LEARNING_WINDOW_DAYS * DAY);
    const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
    const expected = new Map<string, Map<number, number>>();
    for (const row of rows) {
      if (row.day < cutoff) continue;
      const age = (today - Date.parse(`${row.day}T00:00:00Z`)) / DAY;
      const articles = expected.get(row.query_key) ?? new Map<number, number>();
      articles.set(row.article_id, (articles.get(row.article_id) ?? 0) + 0.5 ** (age / 14));
      expected.set(row.query_key, articles);
    }
    const learned = await loadLearned(db, now, 7);
    const expectedKeys = [...expected].filter(([, articles]) =>
      [...articles.values()].some((weight) => factorOf(weight) > 1),
    );
    expect([...learned.keys()].sort()).toEqual(expectedKeys.map(([key]) => key).sort());
    for (const [key, articles] of expectedKeys) {
      for (const [id, weight] of articles) {
        if (factorOf(weight) > 1) expect(learned.get(key)?.get(id)).toBeCloseTo(factorOf(weight), 10);
        else expect(learned.get(key)?.has(id)).toBe(false);
      }
    }
  });
});
