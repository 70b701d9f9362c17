import fs from 'node:fs';
import path from 'node:path';
import { latestMigration, migrateTo, migrateToLatest, openDatabase, type Db } from '../../db/database.ts';
import { RELEASE } from '../../lib/release.ts';
import { STORAGE_TABLES } from '../../storage/database-storage.ts';
import { BACKUP_FORMAT, BACKUP_VERSION, readRecords, totalRows, type BackupHeader } from './backup-format.ts';
import { countRows, deferForeignKeys, emptyTables, rowInserter } from './backup.repository.ts';
import { BackupChecker } from './backup-check.ts';
import { keptRows, writeBackupFile, type BlobEntry } from './backup-writer.ts';
import { isDerivedTable, KEPT_TABLES } from './backup-tables.ts';

/** The start of a scratch folder's name in the data folder. */
const SCRATCH_PREFIX = 'restore-upgrade-';

/** Scratch folders older than this were left by a restore that was killed: none runs for a day. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Runs `work` with a folder of its own, removed afterwards whatever happens. It is made in the data folder, which has
 * room for the help centre, rather than the system's temporary folder (often a small memory disk); a data folder made
 * for it and still empty afterwards (PostgreSQL with files in the database) goes with it. Scratch folders a killed
 * restore left behind a day or more ago are removed first.
 */
export async function withScratchFolder<T>(
  dataDir: string,
  work: (folder: string) => Promise<T>,
): Promise<T> {
  const made = await fs.promises.mkdir(dataDir, { recursive: true });
  await removeStaleScratch(dataDir);
  const folder = await fs.promises.mkdtemp(path.join(dataDir, SCRATCH_PREFIX));
  try {
    return await work(folder);
  } finally {
    await fs.promises.rm(folder, { recursive: true, force: true });
    if (made) await removeEmptyFolders(dataDir, made);
  }
}

/** Removes `dir` and its parents up to `top` while they are empty (restored files may have gone into one). */
async function removeEmptyFolders(dir: string, top: string): Promise<void> {
  for (let folder = dir; ; folder = path.dirname(folder)) {
    const removed = await fs.promises.rmdir(folder).then(
      () => true,
      () => false, // not empty: it keeps what the restore put there
    );
    if (!removed || folder === top || folder === path.dirname(folder)) return;
  }
}

async function removeStaleScratch(dataDir: string): Promise<void> {
  for (const name of await fs.promises.readdir(dataDir)) {
    if (!name.startsWith(SCRATCH_PREFIX)) continue;
    const folder = path.join(dataDir, name);
    const { mtimeMs } = await fs.promises.stat(folder);
    if (Date.now() - mtimeMs > STALE_AFTER_MS) await fs.promises.rm(folder, { recursive: true, force: true });
  }
}

/** The scratch database's tables a backup's rows may be of, with their columns. */
async function tablesOf(db: Db): Promise<Map<string, Set<string>>> {
  const tables = await db.introspection.getTables();
  return new Map(
    tables
      .filter((table) => !table.isView && !isDerivedTable(table.name) && !STORAGE_TABLES.includes(table.name))
      .map((table) => [table.name, new Set(table.columns.map((column) => column.name))]),
  );
}

/** The stored files of a backup file, read from it as they come: they are the same at every schema. */
async function* blobsOf(file: string): AsyncGenerator<BlobEntry> {
  for await (const record of readRecords(file)) {
    if (record.kind === 'blob') yield record;
    else if (record.kind !== 'header') return;
  }
}

/**
 * Migrates a backup of an older schema forward, into a new backup file in `folder` at this signpost's schema, as a
 * database of that schema would be migrated in place: a scratch SQLite database in `folder` is migrated only as far as
 * the backup's schema, takes the backup's rows (checked against that schema), and is migrated the rest of the way.
 * The new file holds the scratch's rows and the older file's stored files, copied as they are; its header keeps the
 * older one's date and source, and says what it was upgraded from. The caller restores it as any other backup
 * (which checks it in full) and removes the folder.
 */
export async function upgradeBackup(
  file: string,
  header: BackupHeader,
  folder: string,
  onProgress?: (done: number, total: number, label: string) => void,
): Promise<string> {
  const scratch = openDatabase({ dialect: 'sqlite', file: path.join(folder, 'scratch.db'), timeoutMs: 0 });
  try {
    await migrateTo(scratch, header.schema);
    const total = header.blobs.count + totalRows(header.tables);
    let done = 0;
    const progress = (label: string) => onProgress?.(++done, total, `migrating ${label}`);
    await loadRows(scratch.db, file, header.schema, progress);
    await migrateToLatest(scratch);

    const tables: Record<string, number> = {};
    for (const table of KEPT_TABLES) tables[table] = await countRows(scratch.db, table);
    const upgraded: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      schema: latestMigration(scratch.dialect),
      release: RELEASE,
      upgraded_from: { schema: header.schema, ...(header.release ? { release: header.release } : {}) },
      created_at: header.created_at,
      source: header.source,
      tables,
      blobs: header.blobs,
    };
    const target = path.join(folder, 'upgraded.signpost.gz');
    await writeBackupFile(target, upgraded, { blobs: blobsOf(file), rows: keptRows(scratch.db) });
    return target;
  } finally {
    await scratch.close();
  }
}

/** Puts a backup's rows into the scratch database, in one transaction, in place of what its migrations inserted. */
async function loadRows(db: Db, file: string, schema: string, progress: (label: string) => void) {
  const tables = await tablesOf(db);
  const checker = new BackupChecker(tables, `database schema ${schema}`);
  await db.transaction().execute(async (trx) => {
    // The rows come in the order the older code wrote them, which met its own references; checked as a whole.
    await deferForeignKeys(trx);
    // What the migrations inserted (settings among them) is in the backup already, as its database had it.
    await emptyTables(trx, tables.keys());
    const inserter = rowInserter(trx);
    for await (const record of readRecords(file)) {
      switch (record.kind) {
        case 'header':
          checker.onHeader(record.header);
          break;
        case 'blob': {
          // Checked by hash when the new file, which copies them, is restored.
          let size = 0;
          for await (const chunk of record.bytes) size += chunk.length;
          checker.onBlob(size);
          progress('files');
          break;
        }
        case 'row':
          checker.onRow(record.table, record.row);
          await inserter.add(record.table, record.row);
          progress(record.table);
          break;
        case 'end':
          await inserter.finish();
          checker.onEnd(record);
          break;
      }
    }
    checker.result();
  });
}
