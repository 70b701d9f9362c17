import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely's SQLite dialect on Node's built-in SQLite (node:sqlite), with our own driver for how a locked database is
 * waited for. SQLite's own busy_timeout waits inside the
 * synchronous call, which would freeze the whole server (reads included) for as long as another process (a second
 * worker, a CLI command, a backup tool) holds the write lock. Here a write that finds the database locked gives the
 * connection back, waits on a timer and tries again, up to `waitMs`, then fails with SQLITE_BUSY (answered 503).
 * Meanwhile reads go on: in WAL mode they never wait for the writer.
 *
 * Transactions begin IMMEDIATE, so a transaction takes the write lock (waiting as above) before it reads anything;
 * a deferred one that read first could only fail when it came to write (SQLITE_BUSY_SNAPSHOT), waiting would not help.
 */
export class PatientSqliteDialect implements Dialect {
  readonly #database: DatabaseSync;
  readonly #waitMs: number;

  constructor(database: DatabaseSync, waitMs: number) {
    this.#database = database;
    this.#waitMs = waitMs;
  }

  createDriver(): Driver {
    return new PatientSqliteDriver(this.#database, this.#waitMs);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SelfLendingSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * SQLite as Kysely knows it, except that the driver lends its one connection itself. Told the dialect has one
 * connection, Kysely (0.29 on) holds a lock of its own from acquiring the connection to releasing it, across the
 * driver's wait for a locked database, and reads would queue behind a waiting write again.
 */
class SelfLendingSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * SQLite's result codes by number (extended codes included), named as SQLite names them. node:sqlite reports every
 * failure as ERR_SQLITE_ERROR with the number in `errcode`; the rest of the server (503 on a busy database, 409 on a
 * duplicate) reads the name from `code`, as it does PostgreSQL's SQLSTATE, so a failure gets its name here.
 */
const SQLITE_CODES: Record<number, string> = {
  5: 'SQLITE_BUSY',
  261: 'SQLITE_BUSY_RECOVERY',
  517: 'SQLITE_BUSY_SNAPSHOT',
  773: 'SQLITE_BUSY_TIMEOUT',
  6: 'SQLITE_LOCKED',
  262: 'SQLITE_LOCKED_SHAREDCACHE',
  19: 'SQLITE_CONSTRAINT',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
  13: 'SQLITE_FULL',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  8: 'SQLITE_READONLY',
};

/** Gives a node:sqlite failure SQLite's name for it in `code` (SQLITE_ERROR for one without a name here). */
export function named(error: unknown): unknown {
  const failure = error as { code?: unknown; errcode?: unknown };
  if (failure?.code === 'ERR_SQLITE_ERROR' && typeof failure.errcode === 'number') {
    failure.code = SQLITE_CODES[failure.errcode] ?? SQLITE_CODES[failure.errcode & 0xff] ?? 'SQLITE_ERROR';
  }
  return error;
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' &&
  (error as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * No named parameters: given first, node:sqlite would take any object there (a Date, say) for a set of named ones and
 * bind the rest one place early. With this empty set first, every value is bound by its place, and one SQLite cannot
 * hold is refused, as the driver before node:sqlite refused it.
 */
const POSITIONAL: Record<string, SQLInputValue> = Object.freeze({});

/** Parameters as SQLite binds them: `undefined` as NULL, as the driver before node:sqlite did (node:sqlite refuses it). */
const bound = (parameters: ReadonlyArray<unknown>): SQLInputValue[] =>
  parameters.map((value) => (value === undefined ? null : (value as SQLInputValue)));

/**
 * Values as the server reads them: node:sqlite gives a blob as a Uint8Array, the rest of the server (and the
 * PostgreSQL driver) a Buffer, which is one without copying.
 */
function plain<R>(row: Record<string, unknown>): R {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
      row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return row as R;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection (SQLite has one writer anyway), lent to one query or transaction at a time. */
class Mutex {
  #held: Promise<void> | null = null;
  #release: (() => void) | null = null;

  async lock(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = null;
    this.#release = null;
    release?.();
  }
}

/** Distinct statements kept prepared (queries with lists of ids make many; the common ones stay). */
const STATEMENTS_KEPT = 500;

class PatientConnection implements DatabaseConnection {
  inTransaction = false;
  readonly #db: DatabaseSync;
  readonly #mutex: Mutex;
  readonly #waitMs: number;

  constructor(db: DatabaseSync, mutex: Mutex, waitMs: number) {
    this.#db = db;
    this.#mutex = mutex;
    this.#waitMs = waitMs;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.#waitMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return this.#run<R>(query);
      } catch (failure) {
        const error = named(failure);
        // Inside a transaction we hold the write lock already; a statement failing there is not ours to repeat.
        if (this.inTransaction || !isBusy(error) || Date.now() + pause > deadline) throw error;
      }
      // The statement changed nothing: let other requests use the connection while we wait.
      this.#mutex.unlock();
      await sleep(pause);
      await this.#mutex.lock();
    }
  }

  /**
   * Prepared statements by their SQL, the most recently used kept. Preparing anew for every query cost CPU, and each
   * statement holds native memory until the garbage collector finalises its small JavaScript wrapper, which it
   * is in no hurry to do: the process's resident memory grew with the query rate.
   */
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>();

  #prepare(sql: string): { statement: StatementSync; reader: boolean } {
    let statement = this.#statements.get(sql);
    if (statement) {
      this.#statements.delete(sql);
    } else {
      const prepared = this.#db.prepare(sql);
      // A statement that yields rows (a select, or a write with `returning`) is read; any other is run.
      statement = { statement: prepared, reader: prepared.columns().length > 0 };
      if (this.#statements.size >= STATEMENTS_KEPT) {
        this.#statements.delete(this.#statements.keys().next().value as string);
      }
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  #run<R>(query: CompiledQuery): QueryResult<R> {
    const { statement, reader } = this.#prepare(query.sql);
    const parameters = bound(query.parameters);
    if (reader) return { rows: statement.all(POSITIONAL, ...parameters).map((row) => plain<R>(row)) };
    const { changes, lastInsertRowid } = statement.run(POSITIONAL, ...parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only select queries');
    try {
      const statement = this.#db.prepare(query.sql);
      for (const row of statement.iterate(POSITIONAL, ...bound(query.parameters))) {
        yield { rows: [plain<R>(row)] };
      }
    } catch (error) {
      throw named(error);
    }
  }
}

class PatientSqliteDriver implements Driver {
  readonly #db: DatabaseSync;
  readonly #mutex = new Mutex();
  readonly #connection: PatientConnection;

  constructor(db: DatabaseSync, waitMs: number) {
    this.#db = db;
    this.#connection = new PatientConnection(db, this.#mutex, waitMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  /**
   * The settings Kysely passes (the backup asks for a read-only repeatable read) need no statement of their own here:
   * SQLite's transactions are serializable, and one begun immediate sees one snapshot throughout.
   */
  async beginTransaction(connection: DatabaseConnection, _settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    this.#connection.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.#connection.inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // Still in the transaction while it is rolled back: a busy answer here must not lend the connection to others.
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.#connection.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name.replaceAll('"', '""')}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name.replaceAll('"', '""')}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name.replaceAll('"', '""')}"`));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#db.close();
  }
}
