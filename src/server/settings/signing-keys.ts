import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { readOrCreateSecret } from './settings.repository.ts';

/**
 * A random 32-byte key kept in the settings under `name`: made by the first server that needs it, then the same for
 * every server on the database. It never changes once stored, so each database handle reads it once; a failed read
 * (the database down) is not remembered.
 */
export function signingKey(name: string): (db: Executor) => Promise<Buffer> {
  const keys = new WeakMap<Executor, Promise<Buffer>>();
  return (db) => {
    let key = keys.get(db);
    if (!key) {
      key = readOrCreateSecret(db, name, () => crypto.randomBytes(32).toString('base64')).then((secret) =>
        Buffer.from(secret, 'base64'),
      );
      key.catch(() => keys.delete(db));
      keys.set(db, key);
    }
    return key;
  };
}
