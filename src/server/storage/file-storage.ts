import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredBlob {
  key: string;
  size: number;
}

export class TooLargeError extends Error {}

export interface RemoveOptions {
  /**
   * Remove the bytes only if nobody wrote them, or the same bytes again, at or after this moment (ms since the
   * epoch). A remover takes the moment before it checks that no file row holds the key; a writer of the same bytes
   * in between refreshes their time, so its file row never ends up pointing at nothing.
   */
  writtenBefore?: number;
}

/**
 * Where file bytes live. Keys are content hashes, so storing the same bytes twice stores them once and a key never
 * contains anything a visitor wrote. Every write, a repeated one included, records when the bytes were last written;
 * removal can be made conditional on it (see RemoveOptions). One interface, so another backend (database, object
 * store) can replace the disk.
 */

export interface FileStorage {
  put(data: Buffer): Promise<StoredBlob>;
  /** Streams bytes in, hashing as they come; past `maxBytes` it stops, keeps nothing and throws TooLargeError. */
  putStream(source: AsyncIterable<Buffer | Uint8Array>, maxBytes: number): Promise<StoredBlob>;
  read(key: string): Readable;
  has(key: string): Promise<boolean>;
  /** Answers whether bytes were removed. */
  remove(key: string, options?: RemoveOptions): Promise<boolean>;
  /** The keys of finished blobs last written before `time`, in batches, for the sweep of unused bytes. */
  keysWrittenBefore(time: number): AsyncIterable<string[]>;
  /**
   * Clears what writes that never finished left behind, such as a process killed mid-upload leaves (a temporary
   * file, an unnamed blob and its chunks), if nobody has written to it since `time` (the database: begun before
   * it). A write under way, by this process or another, is never older than a request may take, far less than the
   * grace the sweep gives. Answers how many were cleared.
   */
  removeAbandoned(time: number): Promise<number>;
}

/** Keys per batch of keysWrittenBefore. */
export const KEY_BATCH = 500;

export const storageKeyOf = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

const KEY_PATTERN = /^[0-9a-f]{64}$/;
/** Disk names of writes under way: `<key or upload>.<pid>.<random>.tmp`, and bytes a removal moved aside. */
const TEMPORARY_PATTERN = /\.\d+\.[0-9a-f]+\.tmp$/;
const ASIDE_PATTERN = /^([0-9a-f]{64})\.\d+\.[0-9a-f]+\.removing$/;
const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * Sets a file's modification time to now, the time of its last write as removal reads it (the file system's own
 * clock lags by up to a tick); false when there is no such file.
 */
async function touch(file: string): Promise<boolean> {
  const now = new Date();
  try {
    await fs.promises.utimes(file, now, now);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

function diskPathOf(root: string, key: string) {
  if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
}

async function putOnDisk(root: string, data: Buffer) {
  const key = storageKeyOf(data);
  const target = diskPathOf(root, key);
  // Stored already: its time refreshed (and if a removal took it just now, written anew).
  if (!(await touch(target))) {
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.promises.writeFile(temp, data);
    await touch(temp);
    await fs.promises.rename(temp, target);
  }
  return { key, size: data.length };
}

async function putStreamOnDisk(root: string, source: AsyncIterable<Buffer | Uint8Array>, maxBytes: number) {
  await fs.promises.mkdir(root, { recursive: true });
  const temp = path.join(root, `upload.${process.pid}.${crypto.randomBytes(8).toString('hex')}.tmp`);
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(temp);
  // The pipeline reports every failure. A write still under way when it gave up fails once the stream is
  // destroyed, after the pipeline stopped listening: that late error is expected and must not stop the process.
  out.on('error', () => {});
  let size = 0;
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer | Uint8Array>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          if (size > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
          hash.update(chunk);
          yield chunk;
        }
      },
      out,
    );
    const key = hash.digest('hex');
    const target = diskPathOf(root, key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await touch(temp);
    await fs.promises.rename(temp, target);
    return { key, size };
  } catch (error) {
    // The file opens asynchronously and a write may still be under way: wait for the stream to close, or the
    // file could appear after we removed it.
    if (!out.closed) {
      await new Promise<void>((resolve) => {
        out.once('close', () => resolve()).destroy();
      });
    }
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

async function removeFromDisk(root: string, key: string, options: RemoveOptions = {}) {
  const target = diskPathOf(root, key);
  if (options.writtenBefore === undefined) {
    try {
      await fs.promises.unlink(target);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
  // Moved aside first, atomically: a writer of the same bytes either touched the file before (it is kept, put
  // back) or finds it gone and writes it anew.
  const aside = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.removing`;
  try {
    await fs.promises.rename(target, aside);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  const stats = await fs.promises.stat(aside).catch((error: unknown) => {
    if (isMissing(error)) return null;
    throw error;
  });
  // Put back meanwhile by a sweep that took it for a crash's leftover: kept, for a later sweep to judge.
  if (!stats) return false;
  if (stats.mtimeMs < options.writtenBefore) {
    await fs.promises.rm(aside, { force: true });
    return true;
  }
  await fs.promises.rename(aside, target);
  return false;
}

async function* diskKeysWrittenBefore(root: string, time: number) {
  let batch: string[] = [];
  for (const first of (await readdirOrEmpty(root)).filter((name) => /^[0-9a-f]{2}$/.test(name)).sort()) {
    for (const second of (await readdirOrEmpty(path.join(root, first))).sort()) {
      const dir = path.join(root, first, second);
      for (const name of (await readdirOrEmpty(dir)).sort()) {
        if (!KEY_PATTERN.test(name)) continue;
        const stats = await fs.promises.stat(path.join(dir, name)).catch(() => null);
        if (!stats || stats.mtimeMs >= time) continue;
        batch.push(name);
        if (batch.length >= KEY_BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** What writes that never finished left in one folder, older than `time`: answers how many were cleared. */
async function clearAbandoned(dir: string, time: number) {
  let cleared = 0;
  for (const name of await readdirOrEmpty(dir)) {
    const aside = ASIDE_PATTERN.exec(name);
    if (!aside && !TEMPORARY_PATTERN.test(name)) continue;
    const file = path.join(dir, name);
    const stats = await fs.promises.stat(file).catch(() => null);
    if (!stats || stats.mtimeMs >= time) continue;
    if (aside) {
      // A removal killed between moving the bytes aside and deciding: a file row written meanwhile may hold
      // them, so they go back (unless written anew since), counted as written now, never back with their old
      // time for a removal to take; a later sweep removes them if nothing holds them. Replacing a copy
      // written at the same moment is harmless: the bytes are the same.
      const target = path.join(dir, aside[1] as string);
      if ((await touch(file)) && !fs.existsSync(target)) {
        await fs.promises.rename(file, target).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
      }
    }
    await fs.promises.rm(file, { force: true });
    cleared++;
  }
  return cleared;
}

async function removeAbandonedOnDisk(root: string, time: number) {
  let cleared = await clearAbandoned(root, time);
  for (const first of (await readdirOrEmpty(root)).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const second of await readdirOrEmpty(path.join(root, first)))
      cleared += await clearAbandoned(path.join(root, first, second), time);
  }
  return cleared;
}

export function createDiskStorage(root: string): FileStorage {
  return {
    put: (data) => putOnDisk(root, data),
    putStream: (source, maxBytes) => putStreamOnDisk(root, source, maxBytes),
    read: (key) => fs.createReadStream(diskPathOf(root, key)),
    has: async (key) => fs.existsSync(diskPathOf(root, key)),
    remove: (key, options = {}) => removeFromDisk(root, key, options),
    keysWrittenBefore: (time) => diskKeysWrittenBefore(root, time),
    removeAbandoned: (time) => removeAbandonedOnDisk(root, time),
  };
}

export async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
