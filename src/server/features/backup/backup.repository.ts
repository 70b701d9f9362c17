import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Row } from './backup-format.ts';
import { ALL_TABLES, planOf, TABLE_PLAN, type TablePlan, type TableName } from './backup-tables.ts';

/** Rows read per query while writing; blobs are listed in batches of the same size. */
export const READ_BATCH = 500;

/** Rows per insert, within every database's limit on bound parameters. */
const INSERT_PARAMETERS = 4_000;

/** Tables and columns written without the typed schema: the backup handles every table the same way. */
type LooseDb = Kysely<Record<string, Row>>;
const loose = (db: Executor) => db as unknown as LooseDb;

export async function countRows(db: Executor, table: TableName): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Every row of a table in primary-key order, a batch at a time (keyset paging: no OFFSET, no full load). */
export async function* tableRows(db: Executor, table: TableName): AsyncGenerator<Row[]> {
  const key = planOf(table).key.map((column) => sql.ref(column));
  let last: unknown[] | null = null;
  for (;;) {
    const after = last ? sql`where (${sql.join(key)}) > (${sql.join(last)})` : sql``;
    const { rows } = await sql<Row>`
      select * from ${sql.table(table)} ${after} order by ${sql.join(key)} limit ${READ_BATCH}
    `.execute(db);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < READ_BATCH) return;
    const final = rows[rows.length - 1] as Row;
    last = planOf(table).key.map((column) => final[column]);
  }
}

/** Each distinct stored file once, with its size, in key order. */
export async function* storedBlobs(db: Executor): AsyncGenerator<{ key: string; size: number }[]> {
  let last: string | null = null;
  for (;;) {
    let query = db
      .selectFrom('files')
      .select('storage_key')
      .select((eb) => eb.fn.max('size').as('size'))
      .groupBy('storage_key')
      .orderBy('storage_key')
      .limit(READ_BATCH);
    if (last !== null) query = query.where('storage_key', '>', last);
    const rows = await query.execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({ key: row.storage_key, size: Number(row.size) }));
    if (rows.length < READ_BATCH) return;
    last = rows[rows.length - 1]?.storage_key ?? null;
  }
}

/** How many distinct stored files the rows name, and their bytes. */
export async function storedBlobTotals(db: Executor): Promise<{ count: number; bytes: number }> {
  const blobs = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('files')
        .select('storage_key')
        .select((e) => e.fn.max('size').as('size'))
        .groupBy('storage_key')
        .as('blobs'),
    )
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
    .executeTakeFirstOrThrow();
  return { count: Number(blobs.count), bytes: Number(blobs.bytes ?? 0) };
}

/** The storage keys the file rows use, each once. */
export async function storageKeysInUse(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('files').select('storage_key').distinct().execute();
  return rows.map((row) => row.storage_key);
}

/** PostgreSQL's schema of the connection. */
export async function currentSchema(db: Executor): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/** Empties the tables, in the order given (dependants first). */
export async function deleteAllRows(db: Executor, tables: TableName[]): Promise<void> {
  for (const table of tables) await db.deleteFrom(table).execute();
}

/** Empties tables by name, a table only an older schema had included (a scratch database's). */
export async function emptyTables(db: Executor, tables: Iterable<string>): Promise<void> {
  for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(db);
}

/** SQLite: the transaction's foreign keys are checked as it commits, not at each statement. */
export async function deferForeignKeys(trx: Executor): Promise<void> {
  await sql`pragma defer_foreign_keys = on`.execute(trx);
}

/** Inserts rows into a table as they are, ids included (a table an older schema had, too). */
export async function insertRows(db: Executor, table: string, rows: Row[]): Promise<void> {
  await loose(db).insertInto(table).values(rows).execute();
}

/** Sets a restored row's columns that point into its own table, once every row they may point to is in. */
export async function setSelfReferences(db: Executor, table: TableName, row: Row): Promise<void> {
  const { key, selfReferences = [] } = planOf(table);
  let update = loose(db)
    .updateTable(table)
    .set(Object.fromEntries(selfReferences.map((column) => [column, row[column] ?? null])));
  for (const column of key) update = update.where(column, '=', row[column] ?? null);
  await update.execute();
}

/** PostgreSQL's identity sequences continue after the restored ids, so new rows do not collide with them. */
export async function resetSequences(db: Executor): Promise<void> {
  for (const table of ALL_TABLES) {
    if (!('identity' in planOf(table))) continue;
    await sql`
      select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)
    `.execute(db);
  }
}

/** A table's plan; none for a table only an older schema had (its rows are inserted as they come). */
const planOrNone = (table: string): TablePlan | undefined => (TABLE_PLAN as Record<string, TablePlan>)[table];

/**
 * Inserts rows as a backup lists them, a table's rows together, in batches; columns pointing into the same table are
 * set after all its rows are in.
 */
export function rowInserter(db: Executor) {
  let table: string | null = null;
  let batch: Row[] = [];
  let later: Row[] = [];
  const flush = async () => {
    if (!table || batch.length === 0) return;
    await insertRows(db, table, batch);
    batch = [];
  };
  const finishTable = async () => {
    await flush();
    if (!table) return;
    for (const row of later) await setSelfReferences(db, table as TableName, row);
    later = [];
  };
  return {
    async add(name: string, row: Row) {
      if (name !== table) {
        await finishTable();
        table = name;
      }
      const selfReferences = planOrNone(name)?.selfReferences ?? [];
      if (selfReferences.some((column) => row[column] != null)) {
        later.push(row);
        row = { ...row, ...Object.fromEntries(selfReferences.map((column) => [column, null])) };
      }
      batch.push(row);
      const perInsert = Math.max(1, Math.floor(INSERT_PARAMETERS / Math.max(1, Object.keys(row).length)));
      if (batch.length >= Math.min(perInsert, READ_BATCH)) await flush();
    },
    finish: finishTable,
  };
}
