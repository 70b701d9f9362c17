import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';

/**
 * Kysely's SQLite dialect, except for how a locked database is waited for. SQLite's own busy_timeout waits inside the
 * synchronous call, which would freeze the whole server (reads included) for as long as another process (a second
 * worker, a CLI command, a backup tool) holds the write lock. Here a write that finds the database locked gives the
 * connection back, waits on a timer and tries again, up to `waitMs`, then fails with SQLITE_BUSY (answered 503).
 * Meanwhile reads go on: in WAL mode they never wait for the writer.
 *
 * Transactions begin IMMEDIATE, so a transaction takes the write lock (waiting as above) before it reads anything;
 * a deferred one that read first could only fail when it came to write (SQLITE_BUSY_SNAPSHOT), waiting would not help.
 */
export class PatientSqliteDialect extends SqliteDialect {
  readonly #database: SQLite.Database;
  readonly #waitMs: number;

  constructor(database: SQLite.Database, waitMs: number) {
    super({ database });
    this.#database = database;
    this.#waitMs = waitMs;
  }

  override createDriver(): Driver {
    return new PatientSqliteDriver(this.#database, this.#waitMs);
  }
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' &&
  (error as { code: string }).code.startsWith('SQLITE_BUSY');

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
  readonly #db: SQLite.Database;
  readonly #mutex: Mutex;
  readonly #waitMs: number;

  constructor(db: SQLite.Database, mutex: Mutex, waitMs: number) {
    this.#db = db;
    this.#mutex = mutex;
    this.#waitMs = waitMs;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.#waitMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return this.#run<R>(query);
      } catch (error) {
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
  readonly #statements = new Map<string, SQLite.Statement>();

  #prepare(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (statement) {
      this.#statements.delete(sql);
    } else {
      statement = this.#db.prepare(sql);
      if (this.#statements.size >= STATEMENTS_KEPT) {
        this.#statements.delete(this.#statements.keys().next().value as string);
      }
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  #run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.#prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only select queries');
    const statement = this.#db.prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }
}

class PatientSqliteDriver implements Driver {
  readonly #db: SQLite.Database;
  readonly #mutex = new Mutex();
  readonly #connection: PatientConnection;

  constructor(db: SQLite.Database, waitMs: number) {
    this.#db = db;
    this.#connection = new PatientConnection(db, this.#mutex, waitMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    this.#connection.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.#connection.inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#connection.inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
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
