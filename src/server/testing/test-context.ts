import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../config/config.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import type { Dialect } from '../db/schema-helpers.ts';
import { buildApp, type AppOptions } from '../app.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The dialects every data test runs on; narrow with TEST_DIALECTS=sqlite (or postgres). */
export function testDialects(): Dialect[] {
  const names = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres') throw new Error(`TEST_DIALECTS: unknown dialect "${name}"`);
  }
  return names as Dialect[];
}

let workerDatabaseReady: Promise<string> | undefined;

/**
 * The database this test worker makes its schemas in: TEST_DATABASE_URL's own, suffixed with the worker's number
 * (made the first time). Test files run two at a time, and Kysely's migrator reads every schema of its database to
 * learn whether its table exists: beside another worker's schemas being made and dropped, that read failed now and
 * then ("schema … does not exist"). A database of its own per worker keeps each worker's catalog to itself.
 */
function workerDatabase(): Promise<string> {
  const worker = process.env.VITEST_POOL_ID;
  if (!worker) return Promise.resolve(TEST_DATABASE_URL);
  workerDatabaseReady ??= (async () => {
    const url = new URL(TEST_DATABASE_URL);
    const name = `${url.pathname.slice(1) || 'postgres'}_w${Number(worker)}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      for (let attempt = 0; ; attempt++) {
        const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (rowCount) break;
        try {
          await admin.query(`CREATE DATABASE "${name}"`);
          break;
        } catch (error) {
          // Made meanwhile by another process (42P04, 23505), or the template busy with another CREATE (55006).
          const code = (error as { code?: string }).code;
          if (!['42P04', '23505', '55006'].includes(code ?? '') || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    } finally {
      await admin.end();
    }
    url.pathname = `/${name}`;
    return url.toString();
  })();
  workerDatabaseReady.catch(() => (workerDatabaseReady = undefined));
  return workerDatabaseReady;
}

export interface TestEnvironment {
  dialect: Dialect;
  /** The environment a child process (CLI, server) needs to reach the same database and data folder. */
  env: Record<string, string>;
  config: Config;
  /** PostgreSQL schema of this environment, if any. */
  schema?: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh, empty place to keep data: a temporary data folder and either a new SQLite file or a new PostgreSQL schema
 * (reached through search_path in the connection URL, so child processes land in it too).
 */
export async function createTestEnvironment(dialect: Dialect, overrides: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-test-'));
  // Tests change the database directly and look at once: the revision is read on every request.
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REVISION_CHECK_MS: '0',
    // The cheapest cost the configuration takes: tests sign in often, and a real hash takes a few tenths of a second.
    PASSWORD_SCRYPT_N: '1024',
    ...overrides,
  };
  let schema: string | undefined;
  const databaseUrl = dialect === 'postgres' ? await workerDatabase() : TEST_DATABASE_URL;
  if (dialect === 'postgres') {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }
  const config = loadConfig(env);
  const environment: TestEnvironment = {
    dialect,
    env,
    config,
    schema,
    async cleanup() {
      if (schema) {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return environment;
}

export interface TestApp {
  ctx: AppContext;
  app: FastifyInstance;
  environment: TestEnvironment;
  close(): Promise<void>;
}

/** A migrated database, its file storage and the real HTTP app on top, for one test file. */
export async function createTestApp(
  dialect: Dialect,
  overrides: Record<string, string> = {},
  appOptions: AppOptions = {},
  /** The context the app is built on, changed first (a database handle with a plugin that counts queries). */
  adapt?: (ctx: AppContext) => AppContext,
): Promise<TestApp> {
  const environment = await createTestEnvironment(dialect, overrides);
  const made = await createContext(environment.config);
  const ctx = adapt ? adapt(made) : made;
  // A browser may hold sockets open (preconnects); a test server drops them instead of waiting.
  const app = await buildApp(ctx, { forceCloseConnections: true, ...appOptions });
  return {
    ctx,
    app,
    environment,
    async close() {
      await app.close();
      await ctx.database.close();
      await environment.cleanup();
    },
  };
}
