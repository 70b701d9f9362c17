import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Generated } from 'kysely';
import type { Db } from '../db/database.ts';
import {
  KEY_BATCH,
  storageKeyOf,
  TooLargeError,
  type FileStorage,
  type RemoveOptions,
} from './file-storage.ts';
import { isUniqueViolation } from '../db/constraint-errors.ts';

/** Bytes per chunk row: a download holds one chunk in memory at a time, whatever the file's size. */
export const CHUNK_BYTES = 512 * 1024;

/**
 * The storage's own tables, outside the `Database` the features see: only this module reads them, and a backup
 * carries their content as stored files, not as rows (migration 0005).
 */
type BlobTables = {
  file_blobs: { id: Generated<number>; key: string | null; size: number; created_at: number };
  file_blob_chunks: { blob_id: number; seq: number; bytes: Buffer };
};
export const STORAGE_TABLES = ['file_blobs', 'file_blob_chunks'];

const missing = (key: string) =>
  Object.assign(new Error(`stored file ${key} is missing`), { code: 'ENOENT' }) as NodeJS.ErrnoException;

const blobTables = (database: Db) => database.withTables<BlobTables>();
type BlobDb = ReturnType<typeof blobTables>;

/** One database storage: its tables, and the folder files were kept in before, if any. */
interface BlobStore {
  db: BlobDb;
  legacyDir: string | null;
}

const legacyPath = (s: BlobStore, key: string) =>
  s.legacyDir && /^[0-9a-f]{64}$/.test(key)
    ? path.join(s.legacyDir, key.slice(0, 2), key.slice(2, 4), key)
    : null;

const inLegacy = (s: BlobStore, key: string) => {
  const file = legacyPath(s, key);
  return file !== null && fs.existsSync(file);
};

const findBlob = (db: BlobDb, key: string) =>
  db.selectFrom('file_blobs').select(['id', 'size']).where('key', '=', key).executeTakeFirst();

/** Records that the bytes under `key` were written again; false when there are none. */
async function refresh(executor: BlobDb, key: string) {
  const result = await executor
    .updateTable('file_blobs')
    .set({ created_at: Date.now() })
    .where('key', '=', key)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

const writeChunk = (db: BlobDb, blobId: number, seq: number, bytes: Buffer) =>
  db.insertInto('file_blob_chunks').values({ blob_id: blobId, seq, bytes }).execute();

async function* chunksOf(s: BlobStore, key: string): AsyncGenerator<Buffer> {
  const blob = await findBlob(s.db, key);
  if (!blob) {
    const file = legacyPath(s, key);
    if (file && fs.existsSync(file)) {
      yield* fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
      return;
    }
    throw missing(key);
  }
  let seen = 0;
  for (let seq = 0; seen < blob.size; seq++) {
    const chunk = await s.db
      .selectFrom('file_blob_chunks')
      .select('bytes')
      .where('blob_id', '=', blob.id)
      .where('seq', '=', seq)
      .executeTakeFirst();
    // Removed while it was being read: an error, never a download cut short as if complete.
    if (!chunk) throw missing(key);
    seen += chunk.bytes.length;
    yield chunk.bytes;
  }
}

async function put(db: BlobDb, data: Buffer) {
  const key = storageKeyOf(data);
  if (await refresh(db, key)) return { key, size: data.length };
  await db.transaction().execute(async (trx) => {
    const blob = await trx
      .insertInto('file_blobs')
      .values({ key, size: data.length, created_at: Date.now() })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!blob) return; // stored just now by another writer
    for (let seq = 0, offset = 0; offset < data.length; seq++, offset += CHUNK_BYTES) {
      await trx
        .insertInto('file_blob_chunks')
        .values({ blob_id: blob.id, seq, bytes: data.subarray(offset, offset + CHUNK_BYTES) })
        .execute();
    }
  });
  return { key, size: data.length };
}

/**
 * Written unnamed, a chunk at a time and without a transaction held open for as long as the client sends; named
 * (made visible) once every byte is in and the hash is known.
 */
async function putStream(db: BlobDb, source: AsyncIterable<Buffer | Uint8Array>, maxBytes: number) {
  const { id } = await db
    .insertInto('file_blobs')
    .values({ key: null, size: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    const { key, size } = await writeChunks(db, id, source, maxBytes);
    await nameBlob(db, id, key, size);
    return { key, size };
  } catch (error) {
    await db
      .deleteFrom('file_blobs')
      .where('id', '=', id)
      .where('key', 'is', null)
      .execute()
      .catch(() => undefined);
    throw error;
  }
}

/** The source's bytes as the unnamed blob's chunks, hashed as they come; past `maxBytes`, TooLargeError. */
async function writeChunks(
  db: BlobDb,
  id: number,
  source: AsyncIterable<Buffer | Uint8Array>,
  maxBytes: number,
) {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const part of source) {
    const bytes = Buffer.isBuffer(part) ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    size += bytes.length;
    if (size > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
    hash.update(bytes);
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes < CHUNK_BYTES) continue;
    const joined = Buffer.concat(pending, pendingBytes);
    let offset = 0;
    for (; joined.length - offset >= CHUNK_BYTES; offset += CHUNK_BYTES) {
      await writeChunk(db, id, seq++, joined.subarray(offset, offset + CHUNK_BYTES));
    }
    pending = offset < joined.length ? [joined.subarray(offset)] : [];
    pendingBytes = joined.length - offset;
  }
  if (pendingBytes > 0) await writeChunk(db, id, seq, Buffer.concat(pending, pendingBytes));
  return { key: hash.digest('hex'), size };
}

/** The finished blob named by its hash, made visible; when the bytes are stored already, theirs are kept. */
async function nameBlob(db: BlobDb, id: number, key: string, size: number) {
  try {
    await db.transaction().execute(async (trx) => {
      // Stored already: theirs is kept, its time refreshed, and ours goes.
      if (await refresh(trx, key)) await trx.deleteFrom('file_blobs').where('id', '=', id).execute();
      else {
        const named = await trx
          .updateTable('file_blobs')
          .set({ key, size, created_at: Date.now() })
          .where('id', '=', id)
          .executeTakeFirst();
        // Swept as abandoned meanwhile: what it held is gone, so nothing is stored.
        if (named.numUpdatedRows === 0n)
          throw new Error('the upload was removed as abandoned before it finished');
      }
    });
  } catch (error) {
    // The same bytes finished uploading elsewhere at the same moment: theirs are kept, ours go below.
    if (!isUniqueViolation(error)) throw error;
    await db.deleteFrom('file_blobs').where('id', '=', id).execute();
  }
}

async function remove(s: BlobStore, key: string, options: RemoveOptions = {}) {
  const { writtenBefore } = options;
  let query = s.db.deleteFrom('file_blobs').where('key', '=', key);
  // One statement: a writer's refresh lands either before it (the row no longer matches) or after it (it finds
  // no row and writes the bytes anew).
  if (writtenBefore !== undefined) query = query.where('created_at', '<', writtenBefore);
  const removed = (await query.executeTakeFirst()).numDeletedRows > 0n;
  const file = legacyPath(s, key);
  if (!file) return removed;
  const stats = await fs.promises.stat(file).catch(() => null);
  if (!stats || (writtenBefore !== undefined && stats.mtimeMs >= writtenBefore)) return removed;
  await fs.promises.rm(file, { force: true });
  return true;
}

async function* keysWrittenBefore(db: BlobDb, time: number) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('file_blobs')
      .select('key')
      .where('key', 'is not', null)
      .where('key', '>', after)
      .where('created_at', '<', time)
      .orderBy('key')
      .limit(KEY_BATCH)
      .execute();
    const keys = rows.map((row) => row.key as string);
    if (keys.length > 0) yield keys;
    if (keys.length < KEY_BATCH) return;
    after = keys[keys.length - 1] as string;
  }
}

/**
 * File bytes in the database (both dialects), so every server on one database reads every file: the default on
 * PostgreSQL. Same contract as the disk: content-addressed, idempotent, streamed both ways.
 *
 * `legacyDir` is the folder files were kept in before (DATA_DIR/files): a key not in the database is still read
 * from there, so an install that switches keeps its files; `copyDiskFiles` moves them in.
 */
export function createDatabaseStorage(database: Db, legacyDir: string | null = null): FileStorage {
  const s: BlobStore = { db: blobTables(database), legacyDir };
  const { db } = s;
  return {
    put: (data) => put(db, data),
    putStream: (source, maxBytes) => putStream(db, source, maxBytes),
    read: (key) => Readable.from(chunksOf(s, key), { objectMode: false }),
    has: async (key) => (await findBlob(db, key)) !== undefined || inLegacy(s, key),
    remove: (key, options = {}) => remove(s, key, options),
    keysWrittenBefore: (time) => keysWrittenBefore(db, time),
    async removeAbandoned(time) {
      // An upload cut off mid-way leaves its blob unnamed; its chunks go with it (on delete cascade).
      const result = await db
        .deleteFrom('file_blobs')
        .where('key', 'is', null)
        .where('created_at', '<', time)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Left in the folder once its files are in the database, so later starts do not read it through again. */
export const COPIED_MARKER = '.copied-to-database';

/**
 * Copies the files of the folder an install kept them in before (disk storage) into the database, once: a file
 * already there is skipped, and a marker file records that it was done. The folder is left as it is (the storage
 * still reads it for anything missing); the operator removes it when satisfied. Answers how many were copied.
 */
export async function copyDiskFiles(database: Db, dir: string): Promise<number> {
  const marker = path.join(dir, COPIED_MARKER);
  if (!fs.existsSync(dir) || fs.existsSync(marker)) return 0;
  const storage = createDatabaseStorage(database);
  let copied = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/^[0-9a-f]{64}$/.test(entry.name) || (await storage.has(entry.name))) continue;
    await storage.putStream(
      fs.createReadStream(path.join(entry.parentPath, entry.name)),
      Number.MAX_SAFE_INTEGER,
    );
    copied++;
  }
  fs.writeFileSync(marker, `${copied} files copied into the database at ${new Date().toISOString()}\n`);
  return copied;
}
