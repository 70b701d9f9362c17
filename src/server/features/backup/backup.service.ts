import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { AppContext } from '../../context.ts';
import { latestMigration, type Executor } from '../../db/database.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { readSetting, writeSetting } from '../../settings/settings.repository.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  line,
  readRecords,
  type BackupHeader,
  type BackupRecord,
  type Row,
} from './backup-format.ts';
import {
  countRows,
  currentSchema,
  deleteAllRows,
  insertRows,
  READ_BATCH,
  resetSequences,
  setSelfReferences,
  storageKeysInUse,
  storedBlobs,
  storedBlobTotals,
  tableRows,
} from './backup.repository.ts';
import { ALL_TABLES, KEPT_TABLES, planOf, type TableName } from './backup-tables.ts';

export interface BackupOptions {
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface RestoreOptions extends BackupOptions {
  /** Replace whatever the database holds; without it a database with content is refused. */
  force?: boolean;
}

/** Rows per insert, within every database's limit on bound parameters. */
const INSERT_PARAMETERS = 4_000;

const totalRows = (tables: Record<string, number>) => Object.values(tables).reduce((sum, n) => sum + n, 0);

/** A stored file's bytes, checked against its content hash and size as they pass. */
async function* blobBytes(storage: FileStorage, key: string, size: number): AsyncGenerator<Buffer> {
  const hash = crypto.createHash('sha256');
  let seen = 0;
  try {
    for await (const chunk of storage.read(key)) {
      const bytes = chunk as Buffer;
      seen += bytes.length;
      if (seen > size) break;
      hash.update(bytes);
      yield bytes;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(`stored file ${key} is missing from the data folder`);
    }
    throw error;
  }
  if (seen !== size || hash.digest('hex') !== key) {
    throw new BackupError(`stored file ${key} is damaged (its bytes no longer match its hash or size)`);
  }
}

function checkValues(table: string, row: Row): void {
  for (const [column, value] of Object.entries(row)) {
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw new BackupError(
        `${table}.${column} holds a ${typeof value}, which the backup format cannot carry`,
      );
    }
  }
}

async function* backupContent(
  db: Executor,
  storage: FileStorage,
  header: BackupHeader,
  progress: (label: string) => void,
): AsyncGenerator<Buffer> {
  yield Buffer.from(line(header));
  for await (const blobs of storedBlobs(db)) {
    for (const blob of blobs) {
      yield Buffer.from(line({ blob: blob.key, size: blob.size }));
      yield* blobBytes(storage, blob.key, blob.size);
      yield Buffer.from('\n');
      progress('files');
    }
  }
  for (const table of KEPT_TABLES) {
    for await (const rows of tableRows(db, table)) {
      for (const row of rows) checkValues(table, row);
      yield Buffer.from(rows.map((row) => line({ table, row })).join(''));
      for (let i = 0; i < rows.length; i++) progress(table);
    }
  }
  yield Buffer.from(line({ end: true, rows: totalRows(header.tables), blobs: header.blobs.count }));
}

/**
 * Writes the whole help centre (rows of every kept table and every stored file) to one gzip file, from one
 * consistent snapshot of the database. The file appears under its name only once complete.
 */
export async function writeBackup(
  ctx: AppContext,
  file: string,
  options: BackupOptions = {},
): Promise<BackupHeader> {
  const target = path.resolve(file);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const header = await ctx.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const tables: Record<string, number> = {};
        for (const table of KEPT_TABLES) tables[table] = await countRows(trx, table);
        const blobs = await storedBlobTotals(trx);
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          schema: latestMigration(ctx.database.dialect),
          created_at: new Date().toISOString(),
          source: ctx.database.dialect,
          tables,
          blobs,
        };
        const total = header.blobs.count + totalRows(tables);
        let done = 0;
        const progress = (label: string) => options.onProgress?.(++done, total, label);
        await pipeline(
          Readable.from(backupContent(trx, ctx.storage, header, progress), { objectMode: false }),
          zlib.createGzip(),
          fs.createWriteStream(temp, { flags: 'wx' }),
        );
        return header;
      });
    await fs.promises.rename(temp, target);
    return header;
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** A restore refused because the database already has a help centre (and --force was not given). */
export class NotEmptyError extends Error {}

/** What the database holds besides settings, as "12 articles, 1 users"; empty when there is nothing. */
async function existingContent(db: Executor): Promise<string[]> {
  const found: string[] = [];
  for (const table of KEPT_TABLES) {
    if (table === 'settings') continue;
    const count = await countRows(db, table);
    if (count > 0) found.push(`${count} ${table.replaceAll('_', ' ')}`);
  }
  return found;
}

/** This database's tables; on PostgreSQL only those of the connection's schema, not every schema's. */
export async function ourTables(ctx: AppContext) {
  const tables = await ctx.db.introspection.getTables();
  if (ctx.database.dialect !== 'postgres') return tables;
  const schema = await currentSchema(ctx.db);
  return tables.filter((table) => table.schema === schema);
}

function checkSchema(header: BackupHeader, latest: string): void {
  if (header.schema === latest) return;
  throw new BackupError(
    header.schema < latest
      ? `the backup is of database schema ${header.schema} and this signpost's is ${latest}: restore it with the signpost version that wrote it, start that version once, then upgrade`
      : `the backup is of database schema ${header.schema}, newer than this signpost's ${latest}: upgrade signpost first`,
  );
}

/**
 * Reads the whole file before anything is changed: gzip integrity, every record, every stored file's hash and
 * size, rows only of known tables and columns in the order restore needs, and every count against the header.
 */
async function verifyBackup(ctx: AppContext, file: string): Promise<BackupHeader> {
  const columns = new Map(
    (await ourTables(ctx)).map((table) => [table.name, new Set(table.columns.map((column) => column.name))]),
  );
  let header: BackupHeader | undefined;
  const rows = new Map<string, number>();
  let blobCount = 0;
  let blobBytes = 0;
  let tableIndex = -1;
  let sawRows = false;
  for await (const record of readRecords(file)) {
    switch (record.kind) {
      case 'header':
        header = record.header;
        checkSchema(header, latestMigration(ctx.database.dialect));
        break;
      case 'blob': {
        if (sawRows) throw new BackupError('a stored file comes after the rows');
        const hash = crypto.createHash('sha256');
        let size = 0;
        for await (const chunk of record.bytes) {
          hash.update(chunk);
          size += chunk.length;
        }
        if (hash.digest('hex') !== record.key) {
          throw new BackupError(`stored file ${record.key} is damaged (its bytes do not match its hash)`);
        }
        blobCount++;
        blobBytes += size;
        break;
      }
      case 'row': {
        sawRows = true;
        const index = KEPT_TABLES.indexOf(record.table as TableName);
        if (index < 0) throw new BackupError(`the backup holds rows of an unknown table "${record.table}"`);
        if (index < tableIndex) throw new BackupError(`the rows of ${record.table} are out of order`);
        tableIndex = index;
        const known = columns.get(record.table);
        const unknown = Object.keys(record.row).filter((column) => !known?.has(column));
        if (unknown.length) {
          throw new BackupError(
            `${record.table} rows have columns this database does not: ${unknown.join(', ')}`,
          );
        }
        rows.set(record.table, (rows.get(record.table) ?? 0) + 1);
        break;
      }
      case 'end': {
        const expected = header?.tables ?? {};
        for (const table of new Set([...Object.keys(expected), ...rows.keys()])) {
          if ((expected[table] ?? 0) !== (rows.get(table) ?? 0)) {
            throw new BackupError(
              `the file holds ${rows.get(table) ?? 0} ${table} rows, its header says ${expected[table] ?? 0}`,
            );
          }
        }
        if (record.rows !== totalRows(expected) || record.blobs !== blobCount) {
          throw new BackupError('the end record does not match the content');
        }
        if (blobCount !== header?.blobs.count || blobBytes !== header.blobs.bytes) {
          throw new BackupError(
            `the file holds ${blobCount} stored files (${blobBytes} bytes), its header says ${header?.blobs.count} (${header?.blobs.bytes} bytes)`,
          );
        }
        break;
      }
    }
  }
  if (!header) throw new BackupError('this is not a signpost backup');
  return header;
}

/** Inserts a table's rows in batches; columns pointing into the same table are set after all rows are in. */
function rowInserter(db: Executor) {
  let table: TableName | null = null;
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
    for (const row of later) await setSelfReferences(db, table, row);
    later = [];
  };
  return {
    async add(name: TableName, row: Row) {
      if (name !== table) {
        await finishTable();
        table = name;
      }
      const { selfReferences = [] } = planOf(name);
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

/**
 * Restores a backup into this database and data folder: checked in full first (a damaged file changes nothing),
 * then the stored files, then every row in one transaction, with ids kept. Refuses a database that already has
 * content unless `force`, which replaces everything (stored files the old content alone used are removed).
 */
export async function restoreBackup(
  ctx: AppContext,
  file: string,
  options: RestoreOptions = {},
): Promise<BackupHeader> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  if (!options.force) {
    const existing = await existingContent(ctx.db);
    if (existing.length) {
      throw new NotEmptyError(
        `the database already holds ${existing.join(', ')}; restore into an empty database, or add --force to replace everything`,
      );
    }
  }
  const header = await verifyBackup(ctx, file);
  const total = header.blobs.count + totalRows(header.tables);
  let done = 0;
  const progress = (label: string) => options.onProgress?.(++done, total, label);

  const records = readRecords(file)[Symbol.asyncIterator]();
  const next = async (): Promise<BackupRecord | null> => {
    const result = await records.next();
    return result.done ? null : result.value;
  };
  const written: string[] = [];
  try {
    let record = await next(); // the header, checked above
    record = await next();
    while (record?.kind === 'blob') {
      const { key, size, bytes } = record;
      if (await ctx.storage.has(key)) {
        for await (const chunk of bytes) void chunk;
      } else {
        const stored = await ctx.storage.putStream(bytes, size);
        written.push(stored.key);
        if (stored.key !== key) throw new BackupError(`stored file ${key} changed while it was restored`);
      }
      progress('files');
      record = await next();
    }
    const previousKeys = await ctx.db.transaction().execute(async (trx) => {
      const previous = options.force ? await storageKeysInUse(trx) : [];
      const revisionBefore = Number(await readSetting<number>(trx, 'content_revision')) || 0;
      await deleteAllRows(trx, [...ALL_TABLES].reverse());
      const inserter = rowInserter(trx);
      while (record?.kind === 'row') {
        await inserter.add(record.table as TableName, record.row);
        progress(record.table);
        record = await next();
      }
      await inserter.finish();
      if (record?.kind !== 'end') throw new BackupError('the file changed while it was restored');
      if (ctx.database.dialect === 'postgres') await resetSequences(trx);
      // Searches, caches and pages follow the revision: every server sees the restored help centre as new. The
      // counter goes on from the higher of the two, never back to a value a server may have known other content by.
      const restored = Number(await readSetting<number>(trx, 'content_revision')) || 0;
      await writeSetting(trx, 'content_revision', Math.max(restored, revisionBefore));
      // The votes search learns from were replaced too, which `*` alone does not say.
      await touchContent(trx, ['*', 'learned']);
      return previous;
    });
    // The replaced help centre's files that nothing restored uses.
    const kept = new Set(await storageKeysInUse(ctx.db));
    for (const key of previousKeys) if (!kept.has(key)) await ctx.storage.remove(key);
    return header;
  } catch (error) {
    for (const key of written) await ctx.storage.remove(key).catch(() => undefined);
    throw error;
  } finally {
    await records.return?.(undefined);
  }
}
