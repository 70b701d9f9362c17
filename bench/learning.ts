/**
 * What reading the votes search learns from costs at the scale of a busy help centre: a table of BENCH_LEARNING_VOTES
 * votes (default 250,000) over BENCH_LEARNING_KEYS query keys (5,000), each key's votes on 1-3 of 200 articles and
 * spread over four weeks, as search_votes holds them. Prints the time of a full reload of what was learned (as a
 * server makes it when the day turns, a page at a time) and the longest stall of the event loop meanwhile (a 1 ms
 * timer's longest gap: what every request on the server waits at worst), the same read in one page (as every server
 * read them on every revision move before they were read in pages), then the time of one query key's reload (as
 * after a tell).
 *
 *   npm run bench:learning
 *   BENCH_LEARNING_PAGE_ROWS=2000 (votes per page; the server's VOTE_PAGE_ROWS by default)
 *   BENCH_LEARNING_DIALECT=postgres BENCH_DATABASE_URL=postgres://... npm run bench:learning
 *     (a fresh schema in that database, dropped after)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../src/server/db/database.ts';
import { dayOf } from '../src/server/privacy/daily-key.ts';
import { loadLearned, loadLearnedKey, VOTE_PAGE_ROWS } from '../src/server/search/learning.ts';
import { buildArticle, buildSection } from '../src/server/testing/factories.ts';
import { longestStall } from './support/event-loop.ts';

const VOTES = Number(process.env.BENCH_LEARNING_VOTES ?? 250_000);
const KEYS = Number(process.env.BENCH_LEARNING_KEYS ?? 5_000);
const ARTICLES = 200;
const RUNS = 3;
const PAGE_ROWS = Number(process.env.BENCH_LEARNING_PAGE_ROWS ?? VOTE_PAGE_ROWS);
const dialect = process.env.BENCH_LEARNING_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const schema = `bench_learning_${crypto.randomBytes(5).toString('hex')}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-learning-'));
let url = baseUrl;
if (dialect === 'postgres') {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const withSchema = new URL(baseUrl);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  url = withSchema.toString();
}
const handle = openDatabase(
  dialect === 'postgres'
    ? { dialect, url, timeoutMs: 0 }
    : { dialect, file: path.join(dir, 'signpost.db'), timeoutMs: 0 },
);
try {
  await migrateToLatest(handle);
  const { db } = handle;
  const section = await buildSection(db);
  const articles: number[] = [];
  for (let i = 0; i < ARTICLES; i++) articles.push((await buildArticle(db, { section_id: section.id })).id);

  const now = Date.now();
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const keyOf = (k: number) => `key${k.toString(36).padStart(4, '0')} word${(k * 7919) % 1000}`;
  const filling = performance.now();
  let batch: { query_key: string; day: string; voter: string; article_id: number }[] = [];
  for (let v = 0; v < VOTES; v++) {
    const k = v % KEYS;
    const chosen = Math.floor(random() * 3);
    batch.push({
      query_key: keyOf(k),
      day: dayOf(now - Math.floor(random() * 28) * 86_400_000),
      voter: v.toString(16).padStart(64, '0'),
      article_id: articles[(k * 3 + chosen) % ARTICLES] as number,
    });
    if (batch.length === 500) {
      await db.insertInto('search_votes').values(batch).execute();
      batch = [];
    }
  }
  if (batch.length) await db.insertInto('search_votes').values(batch).execute();
  // Planned on the table's real size, as a server's would be after autovacuum.
  if (dialect === 'postgres') await sql`analyze search_votes`.execute(db);
  console.log(
    `${dialect}: ${VOTES.toLocaleString('en')} votes over ${KEYS.toLocaleString('en')} query keys ` +
      `(written in ${Math.round(performance.now() - filling)} ms)`,
  );

  // The floor: the timer's longest gap with the event loop idle for as long (the machine's own scheduling).
  const idle = await longestStall(() => new Promise((resolve) => setTimeout(resolve, 500)));
  console.log(`idle for 500 ms: longest event-loop stall ${idle.stall.toFixed(1)} ms`);
  const keys: string[] = [];
  for (const [label, pageRows] of [
    [`in pages of ${PAGE_ROWS.toLocaleString('en')} votes`, PAGE_ROWS],
    ['in one read', Number.MAX_SAFE_INTEGER],
  ] as const) {
    for (let run = 1; run <= RUNS; run++) {
      const full = await longestStall(() => loadLearned(db, now, pageRows));
      if (!keys.length) keys.push(...full.result.keys());
      console.log(
        `full reload ${label}: ${Math.round(full.ms)} ms, ${full.result.size} keys learned, ` +
          `longest event-loop stall ${full.stall.toFixed(1)} ms`,
      );
    }
  }
  const timings: number[] = [];
  for (let k = 0; k < 50; k++) {
    const started = performance.now();
    await loadLearnedKey(db, keys[Math.floor((k * keys.length) / 50)] as string, now);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  console.log(
    `one query key's reload: median ${(timings[25] as number).toFixed(2)} ms, ` +
      `slowest of 50 ${(timings.at(-1) as number).toFixed(2)} ms`,
  );
} finally {
  await handle.close();
  if (process.env.BENCH_LEARNING_KEEP) console.log(`kept ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
