import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../testing/test-context.ts';
import { CHUNK_BYTES, COPIED_MARKER, copyDiskFiles, createDatabaseStorage } from './database-storage.ts';
import { createDiskStorage, readAll, storageKeyOf, TooLargeError, type FileStorage } from './file-storage.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** Bytes in pieces of `piece`, as a request body arrives. */
function pieces(data: Buffer, piece: number): AsyncIterable<Buffer> {
  return (async function* () {
    for (let offset = 0; offset < data.length; offset += piece) yield data.subarray(offset, offset + piece);
  })();
}

async function readFailure(storage: FileStorage, key: string): Promise<NodeJS.ErrnoException> {
  try {
    await readAll(storage, key);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error('the read succeeded');
}

interface Subject {
  name: string;
  dialect: 'sqlite' | 'postgres';
  storage: (ctx: AppContext) => FileStorage;
  /** Blobs the storage holds, finished or not (nothing may stay behind a failed write). */
  blobCount: (ctx: AppContext) => Promise<number>;
}

const countDatabaseBlobs = async (ctx: AppContext) =>
  Number((await sql<{ n: number }>`select count(*) as n from file_blobs`.execute(ctx.db)).rows[0]?.n);
const countDiskFiles = (ctx: AppContext) => {
  const dir = path.join(ctx.config.dataDir, 'contract');
  if (!fs.existsSync(dir)) return Promise.resolve(0);
  return Promise.resolve(
    fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
  );
};

const subjects: Subject[] = [
  {
    name: 'disk',
    dialect: 'sqlite',
    storage: (ctx) => createDiskStorage(path.join(ctx.config.dataDir, 'contract')),
    blobCount: countDiskFiles,
  },
  ...testDialects().map((dialect): Subject => ({
    name: `database on ${dialect}`,
    dialect,
    storage: (ctx) => createDatabaseStorage(ctx.db),
    blobCount: countDatabaseBlobs,
  })),
];

describe.each(subjects)('file storage contract: $name', ({ dialect, storage: open, blobCount }) => {
  let environment: TestEnvironment;
  let ctx: AppContext;
  let storage: FileStorage;
  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
    ctx = await createContext(environment.config);
    storage = open(ctx);
  });
  afterAll(async () => {
    await ctx.database.close();
    await environment.cleanup();
  });

  it('stores bytes under their SHA-256, answers has, reads them back, and removes them', async () => {
    const data = Buffer.from(`hello ${Math.random()}`);
    const blob = await storage.put(data);
    expect(blob).toEqual({ key: sha256(data), size: data.length });
    expect(await storage.has(blob.key)).toBe(true);
    expect((await readAll(storage, blob.key)).equals(data)).toBe(true);
    await storage.remove(blob.key);
    expect(await storage.has(blob.key)).toBe(false);
  });

  it('keeps the same bytes once, however often and however they are put', async () => {
    const before = await blobCount(ctx);
    const data = crypto.randomBytes(3000);
    const first = await storage.put(data);
    expect(await storage.put(data)).toEqual(first);
    expect(await storage.putStream(pieces(data, 100), data.length)).toEqual(first);
    // Two uploads of the same bytes finishing together.
    const both = await Promise.all([
      storage.putStream(pieces(data, 700), data.length),
      storage.putStream(pieces(data, 900), data.length),
    ]);
    expect(both).toEqual([first, first]);
    expect(await blobCount(ctx)).toBe(before + 1);
    await storage.remove(first.key);
    expect(await storage.has(first.key)).toBe(false);
    expect(await blobCount(ctx)).toBe(before);
  });

  it('stores an empty file', async () => {
    const blob = await storage.putStream(pieces(Buffer.alloc(0), 10), 10);
    expect(blob).toEqual({ key: sha256(Buffer.alloc(0)), size: 0 });
    expect(await storage.has(blob.key)).toBe(true);
    expect((await readAll(storage, blob.key)).length).toBe(0);
  });

  it('streams a 25 MB file in and out a piece at a time', async () => {
    const data = crypto.randomBytes(25 * 1024 * 1024);
    const blob = await storage.putStream(pieces(data, 64 * 1024), data.length);
    expect(blob).toEqual({ key: sha256(data), size: data.length });

    const hash = crypto.createHash('sha256');
    let size = 0;
    let largest = 0;
    let reads = 0;
    for await (const chunk of storage.read(blob.key)) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      size += bytes.length;
      largest = Math.max(largest, bytes.length);
      reads++;
    }
    expect(size).toBe(data.length);
    expect(hash.digest('hex')).toBe(blob.key);
    // Never the whole file at once.
    expect(reads).toBeGreaterThanOrEqual(data.length / CHUNK_BYTES);
    expect(largest).toBeLessThanOrEqual(CHUNK_BYTES);
    await storage.remove(blob.key);
  }, 60_000);

  it('refuses a stream past the limit and keeps nothing of it', async () => {
    const before = await blobCount(ctx);
    const data = crypto.randomBytes(CHUNK_BYTES * 3);
    await expect(storage.putStream(pieces(data, 64 * 1024), CHUNK_BYTES * 2)).rejects.toBeInstanceOf(
      TooLargeError,
    );
    expect(await storage.has(sha256(data))).toBe(false);
    expect(await blobCount(ctx)).toBe(before);
  });

  it('keeps nothing of a stream that fails half-way', async () => {
    const before = await blobCount(ctx);
    const failing = (async function* () {
      yield crypto.randomBytes(CHUNK_BYTES + 10);
      throw new Error('the client went away');
    })();
    await expect(storage.putStream(failing, 10 * CHUNK_BYTES)).rejects.toThrow('the client went away');
    expect(await blobCount(ctx)).toBe(before);
  });

  it('keeps bytes written again after a removal was decided: the same file uploaded while a clean-up runs', async () => {
    const data = crypto.randomBytes(2000);
    const { key } = await storage.put(data);
    await sleep(5);
    // The clean-up found no file row holding the key, from this moment on...
    const decidedAt = Date.now();
    await sleep(5);
    // ...and a visitor uploads the same bytes (a file row will hold them) before it removes them.
    expect(await storage.putStream(pieces(data, 500), data.length)).toEqual({ key, size: data.length });
    expect(await storage.remove(key, { writtenBefore: decidedAt })).toBe(false);
    expect((await readAll(storage, key)).equals(data)).toBe(true);
    await sleep(5);
    const again = Date.now();
    await sleep(5);
    await storage.put(data);
    expect(await storage.remove(key, { writtenBefore: again })).toBe(false);
    expect(await storage.has(key)).toBe(true);
    // Not written since: removed.
    expect(await storage.remove(key, { writtenBefore: Date.now() + 1 })).toBe(true);
    expect(await storage.has(key)).toBe(false);
  });

  it('lists the keys not written since a moment, for the sweep', async () => {
    const old = await storage.put(crypto.randomBytes(100));
    await sleep(5);
    const moment = Date.now();
    await sleep(5);
    const recent = await storage.put(crypto.randomBytes(100));
    const listed: string[] = [];
    for await (const keys of storage.keysWrittenBefore(moment)) listed.push(...keys);
    expect(listed).toContain(old.key);
    expect(listed).not.toContain(recent.key);
    // Each key once, and nothing that is not a finished blob.
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.every((key) => /^[0-9a-f]{64}$/.test(key))).toBe(true);
    await storage.remove(old.key);
    await storage.remove(recent.key);
  });

  it('answers a missing key: has is false, a read fails with ENOENT, remove does nothing', async () => {
    const key = storageKeyOf(Buffer.from('never stored'));
    expect(await storage.has(key)).toBe(false);
    expect((await readFailure(storage, key)).code).toBe('ENOENT');
    await expect(storage.remove(key)).resolves.toBe(false);
  });
});

describe.each(testDialects())('database storage on %s, switching from disk', (dialect) => {
  it('reads files an earlier install kept on disk, and copies them in once', async () => {
    const environment = await createTestEnvironment(dialect);
    const ctx = await createContext(environment.config);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-legacy-'));
    try {
      const data = crypto.randomBytes(CHUNK_BYTES + 1);
      const { key } = await createDiskStorage(dir).put(data);

      const storage = createDatabaseStorage(ctx.db, dir);
      expect(await storage.has(key)).toBe(true);
      expect((await readAll(storage, key)).equals(data)).toBe(true);
      expect(await createDatabaseStorage(ctx.db).has(key)).toBe(false);

      expect(await copyDiskFiles(ctx.db, dir)).toBe(1);
      expect(fs.existsSync(path.join(dir, COPIED_MARKER))).toBe(true);
      expect(await copyDiskFiles(ctx.db, dir)).toBe(0);
      const inDatabase = createDatabaseStorage(ctx.db);
      expect((await readAll(inDatabase, key)).equals(data)).toBe(true);

      // Removed, it is gone from both places: the folder does not bring it back.
      await storage.remove(key);
      expect(await storage.has(key)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await ctx.database.close();
      await environment.cleanup();
    }
  });
});

describe('FILE_STORAGE', () => {
  const pg = 'postgres://u@localhost/db';
  it('keeps files in the database on PostgreSQL and on disk with SQLite, unless told', () => {
    expect(loadConfig({ DATA_DIR: '/srv/sp', DATABASE_URL: pg }).fileStorage).toEqual({
      kind: 'database',
      dir: '/srv/sp/files',
    });
    expect(loadConfig({ DATA_DIR: '/srv/sp' }).fileStorage).toEqual({ kind: 'disk', dir: '/srv/sp/files' });
    expect(
      loadConfig({ DATABASE_URL: pg, FILE_STORAGE: 'disk', FILE_STORAGE_DIR: '/mnt/shared' }).fileStorage,
    ).toEqual({ kind: 'disk', dir: '/mnt/shared' });
    expect(loadConfig({ FILE_STORAGE: 'database' }).fileStorage.kind).toBe('database');
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => loadConfig({ FILE_STORAGE: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ FILE_STORAGE: 's3' })).toThrow(/^FILE_STORAGE: must be database or disk/);
    expect(() => loadConfig({ DATABASE_TIMEOUT_MS: 'soon' })).toThrow(/^DATABASE_TIMEOUT_MS:/);
    expect(loadConfig({}).database.timeoutMs).toBe(5_000);
  });
});
