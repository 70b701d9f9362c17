import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type Transaction,
} from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator } from 'kysely/migration';
import type { DatabaseConfig } from '../config/config.ts';
import type { Database } from './tables.ts';
import type { Dialect } from './schema-helpers.ts';
import { migrationsFor } from './migrations/index.ts';
import { PatientSqliteDialect } from './sqlite-driver.ts';
import { DatabaseDownError, isConnectionFailure } from './unavailable.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Repositories take either the database or a transaction as their first argument. */
export type Executor = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (counts, sizes, millisecond times) as JavaScript numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** How long a request waits to get a PostgreSQL connection before it is answered 503. */
export const CONNECT_TIMEOUT_MS = 3_000;

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.dialect === 'postgres') {
    const timeout = config.timeoutMs;
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      connectionTimeoutMillis: timeout ? Math.min(CONNECT_TIMEOUT_MS, timeout) : CONNECT_TIMEOUT_MS,
      // The server cancels a slow statement itself (the connection stays usable); the client-side limit is for a
      // server that answers nothing at all (stopped, or the network gone), whose connection is then thrown away.
      ...(timeout ? { statement_timeout: Math.max(timeout - 250, 1), query_timeout: timeout } : {}),
      // Finds a peer that vanished without closing (a network cut) on idle connections.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client errors when the server restarts; unhandled, that would kill the process. pg-pool drops the
    // client itself, and the next query opens a new connection.
    pool.on('error', () => {});
    // So does a client lent out (Kysely listens to none) whose connection drops: its query fails, and pg-pool
    // drops the client when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: discardingBroken(pool) }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }

  if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
  // Opening waits up to 5 s inside SQLite for a lock (turning WAL on in a new file, another process's recovery);
  // afterwards a locked database is waited for on a timer by the dialect, never inside SQLite (that would block the
  // server): SQLite's own busy timeout goes to 0.
  const sqlite = new DatabaseSync(config.file, { timeout: 5_000 });
  sqlite.exec('pragma journal_mode = WAL');
  sqlite.exec('pragma synchronous = NORMAL');
  sqlite.exec('pragma foreign_keys = ON');
  // 16 MB of pages cached per connection, as the SQLite driver used before node:sqlite was built (SQLite's own
  // default is 2 MB): the inbox's and the search's larger reads stay in memory.
  sqlite.exec('pragma cache_size = -16000');
  sqlite.exec('pragma busy_timeout = 0');
  const db = new Kysely<Database>({
    dialect: new PatientSqliteDialect(sqlite, config.timeoutMs || 24 * 60 * 60 * 1000),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** After a connection failure, how long queries fail at once instead of each waiting for its own timeout. */
export const DOWN_FOR_MS = 1_000;

/**
 * Lends pool clients to Kysely, with two rules for a database that went away. A client whose connection failed
 * (reset, timed out, server shutting down) goes back to the pool as broken at once, so it is closed, and any further
 * query of the same request or transaction fails at once instead of queueing behind a query that will never
 * answer. And for DOWN_FOR_MS after any connection failure, new queries fail at once (503) rather than each waiting
 * out a timeout: a request waits for at most one timeout however many queries it makes, and once the time is up
 * the next query tries again, so service resumes within about a second of the database's return.
 */
function discardingBroken(pool: pg.Pool): PostgresPool {
  let downUntil = 0;
  const noteFailure = (error: unknown) => {
    if (isConnectionFailure(error)) downUntil = Date.now() + DOWN_FOR_MS;
  };
  return {
    async connect() {
      if (Date.now() < downUntil) throw new DatabaseDownError();
      const client = await pool.connect().catch((error: unknown) => {
        noteFailure(error);
        throw error;
      });
      let broken: Error | null = null;
      const query = (text: unknown, parameters?: ReadonlyArray<unknown>) => {
        if (typeof text !== 'string') return client.query(text as pg.Submittable);
        if (broken) return Promise.reject(broken);
        return client.query(text, parameters as unknown[]).catch((error: unknown) => {
          if (!broken && isConnectionFailure(error)) {
            noteFailure(error);
            broken = error as Error;
            client.release(broken);
          }
          throw error;
        });
      };
      return {
        query: query as unknown as PostgresPoolClient['query'],
        // Kysely asks for the client to be destroyed when a rollback failed (the connection's state is unknown).
        release: (destroy?: boolean) => {
          if (!broken) client.release(destroy);
        },
      };
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

/**
 * On PostgreSQL the migration tables live in the connection's current schema. Left to itself, Kysely looks for them
 * in every schema and would take another schema's tables for ours.
 */
async function createMigrator(handle: DatabaseHandle): Promise<Migrator> {
  const schema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrationsFor(handle.dialect) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = await createMigrator(handle);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs the known migrations up to `name` and no further (a backup's schema, to read an older backup into). */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<string[]> {
  const migrator = await createMigrator(handle);
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Every migration's name, in the order they run. */
export const knownMigrations = (dialect: Dialect): string[] => Object.keys(migrationsFor(dialect)).sort();

/**
 * Known migrations the database has not run yet, in order (readiness; empty once migrated). Read straight from the
 * migration table in the connection's schema: Kysely's migrator introspects every column of every table in every
 * schema to learn whether its table exists, too much for a probe a load balancer sends every few seconds, and it
 * fails when another schema is dropped meanwhile.
 */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const known = knownMigrations(handle.dialect);
  const table =
    handle.dialect === 'postgres'
      ? sql<{ found: string | null }>`select to_regclass(${DEFAULT_MIGRATION_TABLE}) as found`
      : sql<{
          found: string | null;
        }>`select name as found from sqlite_master where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}`;
  if (!(await table.execute(handle.db)).rows[0]?.found) return known;
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(handle.db);
  const applied = new Set(rows.map((row) => row.name));
  return known.filter((name) => !applied.has(name));
}

/**
 * Takes a lock held until the transaction ends, so that holders of the same key take turns: PostgreSQL's advisory
 * lock. SQLite's transactions take its one write lock from the start, which serialises them already.
 */
export async function takeTransactionLock(trx: Tx, dialect: Dialect, key: number): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
}

/** One round trip to the database (the readiness probe): rejects when it cannot answer. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The newest known migration: the schema version a backup records and a restore expects. */
export function latestMigration(dialect: Dialect): string {
  return knownMigrations(dialect).at(-1) ?? '';
}

export const now = (): number => Date.now();
