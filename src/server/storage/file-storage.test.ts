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
  /** Writes begun and not finished: temporary files, unnamed blobs. */
  partialCount: (ctx: AppContext) => Promise<number>;
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

const countUnnamedBlobs = async (ctx: AppContext) =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from file_blobs where key is null`.execute(ctx.db)).rows[0]
      ?.n,
  );
const countDiskTemporaries = (ctx: AppContext) => {
  const dir = path.join(ctx.config.dataDir, 'contract');
  if (!fs.existsSync(dir)) return Promise.resolve(0);
  return Promise.resolve(
    fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.name.endsWith('.tmp'))
      .length,
  );
};

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Bytes that arrive in two parts, the second only once `release` is called: an upload under way. */
function heldUpload(data: Buffer, split: number) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const source = (async function* () {
    yield data.subarray(0, split);
    await held;
    yield data.subarray(split);
  })();
  return { source, release: () => release() };
}

const subjects: Subject[] = [
  {
    name: 'disk',
    dialect: 'sqlite',
    storage: (ctx) => createDiskStorage(path.join(ctx.config.dataDir, 'contract')),
    blobCount: countDiskFiles,
    partialCount: countDiskTemporaries,
  },
  ...testDialects().map((dialect): Subject => ({
    name: `database on ${dialect}`,
    dialect,
    storage: (ctx) => createDatabaseStorage(ctx.db),
    blobCount: countDatabaseBlobs,
    partialCount: countUnnamedBlobs,
  })),
];

describe.each(subjects)('file storage contract: $name', (subject) => {
  const { dialect, storage: open, blobCount, partialCount } = subject;
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

  it('stops cleanly when the stream fails or grows too large while a piece is still being written', async () => {
    // A small piece is taken at once and its write is still under way when the next piece breaks the stream: the
    // write finishing after the storage gave up must not surface as an uncaught error that stops the process.
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const before = { blobs: await blobCount(ctx), partial: await partialCount(ctx) };
      for (let round = 0; round < 20; round++) {
        // The first piece waits for the file to open; the second is written as the third breaks the stream.
        const tooLarge = (async function* () {
          yield crypto.randomBytes(1000);
          await sleep(5);
          yield crypto.randomBytes(1000);
          yield crypto.randomBytes(CHUNK_BYTES * 2);
        })();
        await expect(storage.putStream(tooLarge, CHUNK_BYTES)).rejects.toBeInstanceOf(TooLargeError);
        const goneAway = (async function* () {
          yield crypto.randomBytes(1000);
          await sleep(5);
          yield crypto.randomBytes(1000);
          throw new Error('the client went away');
        })();
        await expect(storage.putStream(goneAway, CHUNK_BYTES)).rejects.toThrow('the client went away');
      }
      await sleep(100);
      expect(uncaught).toEqual([]);
      expect(await blobCount(ctx)).toBe(before.blobs);
      expect(await partialCount(ctx)).toBe(before.partial);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('removes what a write cut off mid-way left once nobody has written to it since the moment, never a write under way', async () => {
    const before = { blobs: await blobCount(ctx), partial: await partialCount(ctx) };
    const data = crypto.randomBytes(CHUNK_BYTES + 1000);

    // Under way: written to moments ago, so it stays, and finishes as any other.
    const live = heldUpload(data, CHUNK_BYTES + 10);
    const finishing = storage.putStream(live.source, data.length);
    await waitFor('the upload to begin', async () => (await partialCount(ctx)) === before.partial + 1);
    await sleep(20);
    expect(await storage.removeAbandoned(Date.now() - 10_000)).toBe(0);
    live.release();
    const blob = await finishing;
    expect((await readAll(storage, blob.key)).equals(data)).toBe(true);
    await storage.remove(blob.key);
    expect(await partialCount(ctx)).toBe(before.partial);

    // Cut off: nothing written to it since the moment (its server was killed, say); it goes with everything in it.
    const cut = heldUpload(data, CHUNK_BYTES + 10);
    const abandoned = storage.putStream(cut.source, data.length);
    await waitFor('the upload to begin', async () => (await partialCount(ctx)) === before.partial + 1);
    await sleep(20);
    expect(await storage.removeAbandoned(Date.now())).toBe(1);
    expect(await partialCount(ctx)).toBe(before.partial);
    expect(await blobCount(ctx)).toBe(before.blobs);
    // Were it still being sent after all, it fails rather than store what it no longer has.
    cut.release();
    await expect(abandoned).rejects.toThrow();
    expect(await storage.has(sha256(data))).toBe(false);
    expect(await blobCount(ctx)).toBe(before.blobs);
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

describe('disk storage after a crash', () => {
  it('removes the temporary file of a write cut off before its rename and puts back bytes a cut-off removal set aside', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-crashed-'));
    try {
      const storage = createDiskStorage(root);
      const fileOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), key);
      const leave = (file: string, data: Buffer | string, age: number) => {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, data);
        const time = new Date(Date.now() - age);
        fs.utimesSync(file, time, time);
      };
      // A removal killed after it moved the bytes aside, before it removed them or put them back: a file row may
      // hold them (they were written again meanwhile), so they go back.
      const aside = await storage.put(Buffer.from('set aside'));
      fs.renameSync(fileOf(aside.key), `${fileOf(aside.key)}.4242.0123456789ab.removing`);
      const time = new Date(Date.now() - 60_000);
      fs.utimesSync(`${fileOf(aside.key)}.4242.0123456789ab.removing`, time, time);
      // The same, but the bytes were written anew since: the copy set aside goes.
      const again = await storage.put(Buffer.from('written again'));
      leave(`${fileOf(again.key)}.4242.0123456789ab.removing`, 'written again', 60_000);
      // Writes killed before their rename (a whole file's, a streamed upload's), and one under way.
      const never = storageKeyOf(Buffer.from('never finished'));
      leave(`${fileOf(never)}.4242.0123456789ab.tmp`, 'never fin', 60_000);
      leave(path.join(root, 'upload.4242.0123456789abcdef.tmp'), 'half an upl', 60_000);
      leave(path.join(root, 'upload.4243.0123456789abcdef.tmp'), 'under way', 0);

      expect(await storage.removeAbandoned(Date.now() - 10_000)).toBe(4);
      expect((await readAll(storage, aside.key)).toString()).toBe('set aside');
      // Put back as written now: the sweep of unused bytes gives them another day.
      for await (const keys of storage.keysWrittenBefore(Date.now() - 10_000))
        expect(keys).not.toContain(aside.key);
      expect((await readAll(storage, again.key)).toString()).toBe('written again');
      const left = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(left.map((e) => e.name).sort()).toEqual(
        [aside.key, again.key, 'upload.4243.0123456789abcdef.tmp'].sort(),
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
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
