import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { signingKey } from '../settings/signing-keys.ts';

/**
 * Links that let whoever holds them download one file until they expire, without signing in: an HMAC of the file's
 * id and the expiry under a key kept in the settings (`keyName`), within a `scope` so that a link of one kind never
 * opens a file of another.
 */
export function signedLinks(keyName: string, scope: string) {
  const linkKey = signingKey(keyName);
  const signatureOf = (key: Buffer, fileId: number, expires: number) =>
    crypto.createHmac('sha256', key).update(`${scope}:${fileId}:${expires}`).digest('hex');
  return {
    /** Signs with the key read once: the query (`expires=…&signature=…`) of a file's link valid until `expires`. */
    async signer(db: Executor): Promise<(fileId: number, expires: number) => string> {
      const key = await linkKey(db);
      return (fileId, expires) => `expires=${expires}&signature=${signatureOf(key, fileId, expires)}`;
    },
    async isValid(
      db: Executor,
      fileId: number,
      expires: string | undefined,
      signature: string | undefined,
      now = Date.now(),
    ): Promise<boolean> {
      if (!expires || !signature || !/^\d{1,15}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
        return false;
      if (Number(expires) <= now) return false;
      const expected = Buffer.from(signatureOf(await linkKey(db), fileId, Number(expires)), 'hex');
      return crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'));
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The next midnight (UTC): links signed from it read the same all day, so an answer read twice carries the same. */
export const nextMidnight = (now: number) => Math.ceil(now / DAY_MS) * DAY_MS;
