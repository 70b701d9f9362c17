import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Executor } from '../../db/database.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { BackupError, line, totalRows, type BackupHeader, type Row } from './backup-format.ts';
import { storedBlobs, tableRows } from './backup.repository.ts';
import { KEPT_TABLES, type TableName } from './backup-tables.ts';

/** A stored file as a backup carries it. */
export interface BlobEntry {
  key: string;
  size: number;
  bytes: AsyncIterable<Buffer>;
}

/**
 * What a backup file is written from: every stored file once, then the rows of every kept table in TABLE_PLAN order.
 * A help centre's database and storage give both; a backup migrated forward takes its files from the older file.
 */
export interface BackupSource {
  blobs: AsyncIterable<BlobEntry>;
  rows: AsyncIterable<{ table: TableName; rows: Row[] }>;
}

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

/** The rows of every kept table, in TABLE_PLAN order, a batch at a time. */
export async function* keptRows(db: Executor): AsyncGenerator<{ table: TableName; rows: Row[] }> {
  for (const table of KEPT_TABLES) {
    for await (const rows of tableRows(db, table)) yield { table, rows };
  }
}

/** The stored files the database's rows name, read from the storage, and the rows of every kept table. */
export function databaseSource(db: Executor, storage: FileStorage): BackupSource {
  return {
    blobs: (async function* () {
      for await (const blobs of storedBlobs(db)) {
        for (const blob of blobs) yield { ...blob, bytes: blobBytes(storage, blob.key, blob.size) };
      }
    })(),
    rows: keptRows(db),
  };
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
  header: BackupHeader,
  source: BackupSource,
  progress: (label: string) => void,
): AsyncGenerator<Buffer> {
  yield Buffer.from(line(header));
  for await (const blob of source.blobs) {
    yield Buffer.from(line({ blob: blob.key, size: blob.size }));
    yield* blob.bytes;
    yield Buffer.from('\n');
    progress('files');
  }
  for await (const { table, rows } of source.rows) {
    for (const row of rows) checkValues(table, row);
    yield Buffer.from(rows.map((row) => line({ table, row })).join(''));
    for (let i = 0; i < rows.length; i++) progress(table);
  }
  yield Buffer.from(line({ end: true, rows: totalRows(header.tables), blobs: header.blobs.count }));
}

/**
 * Writes a backup file: the header, then the source's files and rows as they stream. The file appears under its
 * name only once complete; a failure leaves nothing behind.
 */
export async function writeBackupFile(
  file: string,
  header: BackupHeader,
  source: BackupSource,
  progress: (label: string) => void = () => {},
): Promise<void> {
  const target = path.resolve(file);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`,
  );
  const out = fs.createWriteStream(temp, { flags: 'wx' });
  // The pipeline reports every failure; a write under way when it gave up fails late, after it stopped listening.
  out.on('error', () => {});
  try {
    await pipeline(
      Readable.from(backupContent(header, source, progress), { objectMode: false }),
      zlib.createGzip(),
      out,
    );
    await fs.promises.rename(temp, target);
  } catch (error) {
    // Closed first, so no write lands after the removal.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
