import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AppContext } from '../../context.ts';
import { knownMigrations, latestMigration, type Executor } from '../../db/database.ts';
import { RELEASE } from '../../lib/release.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { readSetting, writeSetting } from '../../settings/settings.repository.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  readHeader,
  readRecords,
  totalRows,
  type BackupHeader,
  type BackupRecord,
} from './backup-format.ts';
import {
  countRows,
  currentSchema,
  deleteAllRows,
  resetSequences,
  rowInserter,
  storageKeysInUse,
  storedBlobTotals,
} from './backup.repository.ts';
import { BackupChecker, schemaStep } from './backup-check.ts';
import { upgradeBackup, withScratchFolder } from './backup-upgrade.ts';
import { databaseSource, writeBackupFile } from './backup-writer.ts';
import { ALL_TABLES, KEPT_TABLES, type TableName } from './backup-tables.ts';

export interface BackupOptions {
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface RestoreOptions extends BackupOptions {
  /** Replace whatever the database holds; without it a database with content is refused. */
  force?: boolean;
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
  return ctx.db
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
        release: RELEASE,
        created_at: new Date().toISOString(),
        source: ctx.database.dialect,
        tables,
        blobs,
      };
      const total = header.blobs.count + totalRows(tables);
      let done = 0;
      await writeBackupFile(file, header, databaseSource(trx, ctx.storage), (label) =>
        options.onProgress?.(++done, total, label),
      );
      return header;
    });
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

/**
 * Reads the whole file before anything is changed: gzip integrity, every record, every stored file's hash and
 * size, rows only of known tables and columns in the order restore needs, and every count against the header.
 */
async function verifyBackup(ctx: AppContext, file: string): Promise<BackupHeader> {
  const columns = new Map(
    (await ourTables(ctx))
      .filter((table) => KEPT_TABLES.includes(table.name as TableName))
      .map((table) => [table.name, new Set(table.columns.map((column) => column.name))]),
  );
  const checker = new BackupChecker(columns, 'this database', KEPT_TABLES);
  for await (const record of readRecords(file)) {
    switch (record.kind) {
      case 'header':
        if (schemaStep(record.header, knownMigrations(ctx.database.dialect), RELEASE) !== 'restore') {
          throw new BackupError('the file changed while it was read');
        }
        checker.onHeader(record.header);
        break;
      case 'blob': {
        const hash = crypto.createHash('sha256');
        let size = 0;
        for await (const chunk of record.bytes) {
          hash.update(chunk);
          size += chunk.length;
        }
        if (hash.digest('hex') !== record.key) {
          throw new BackupError(`stored file ${record.key} is damaged (its bytes do not match its hash)`);
        }
        checker.onBlob(size);
        break;
      }
      case 'row':
        checker.onRow(record.table, record.row);
        break;
      case 'end':
        checker.onEnd(record);
        break;
    }
  }
  return checker.result();
}

/**
 * Restores a backup into this database and data folder: checked in full first (a damaged file changes nothing),
 * then the stored files, then every row in one transaction, with ids kept. Refuses a database that already has
 * content unless `force`, which replaces everything (stored files the old content alone used are removed).
 *
 * A backup of an older schema is migrated forward first, into a new file of this schema (backup-upgrade.ts), which
 * is then restored the same way; a backup of a newer schema, or of one no release has, is refused before anything is
 * changed. The header answered is the restored file's: for a migrated backup, `upgraded_from` says what it was.
 */
export async function restoreBackup(
  ctx: AppContext,
  file: string,
  options: RestoreOptions = {},
): Promise<BackupHeader> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const header = await readHeader(file);
  const step = schemaStep(header, knownMigrations(ctx.database.dialect), RELEASE);
  if (!options.force) {
    const existing = await existingContent(ctx.db);
    if (existing.length) {
      throw new NotEmptyError(
        `the database already holds ${existing.join(', ')}; restore into an empty database, or add --force to replace everything`,
      );
    }
  }
  if (step === 'restore') return restoreFile(ctx, file, options);
  return withScratchFolder(ctx.config.dataDir, async (folder) => {
    const upgraded = await upgradeBackup(file, header, folder, options.onProgress);
    return restoreFile(ctx, upgraded, options);
  });
}

/** Restores a backup of this signpost's schema (see restoreBackup). */
async function restoreFile(ctx: AppContext, file: string, options: RestoreOptions): Promise<BackupHeader> {
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
