import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface StoredBlob {
  key: string;
  size: number;
}

/**
 * Where file bytes live. Keys are content hashes, so storing the same bytes twice stores them once and a key never
 * contains anything a visitor wrote. One interface, so another backend (database, object store) can replace the disk.
 */
export class TooLargeError extends Error {}

export interface FileStorage {
  put(data: Buffer): Promise<StoredBlob>;
  /** Streams bytes in, hashing as they come; past `maxBytes` it stops, keeps nothing and throws TooLargeError. */
  putStream(source: AsyncIterable<Buffer | Uint8Array>, maxBytes: number): Promise<StoredBlob>;
  read(key: string): Readable;
  has(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

export const storageKeyOf = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

const KEY_PATTERN = /^[0-9a-f]{64}$/;

export function createDiskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  };

  return {
    async put(data) {
      const key = storageKeyOf(data);
      const target = pathOf(key);
      if (!fs.existsSync(target)) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const temp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
        await fs.promises.writeFile(temp, data);
        await fs.promises.rename(temp, target);
      }
      return { key, size: data.length };
    },
    async putStream(source, maxBytes) {
      await fs.promises.mkdir(root, { recursive: true });
      const temp = path.join(root, `upload.${process.pid}.${crypto.randomBytes(8).toString('hex')}.tmp`);
      const hash = crypto.createHash('sha256');
      const out = fs.createWriteStream(temp);
      let size = 0;
      try {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes) throw new TooLargeError(`more than ${maxBytes} bytes`);
          hash.update(chunk);
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        const key = hash.digest('hex');
        const target = pathOf(key);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(temp, target);
        return { key, size };
      } catch (error) {
        // The file opens asynchronously: wait for the stream to close, or it could appear after we removed it.
        await new Promise<void>((resolve) => {
          if (out.closed) resolve();
          else out.once('close', () => resolve()).destroy();
        });
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },
    read(key) {
      return fs.createReadStream(pathOf(key));
    },
    async has(key) {
      return fs.existsSync(pathOf(key));
    },
    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },
  };
}

export async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
