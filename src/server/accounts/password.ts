import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { PasswordConfig } from '../config/config.ts';
import { ApiError } from '../http/errors.ts';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const R = 8;
const P = 1;
const KEY_LENGTH = 64;
/** Stored hashes are trusted up to the largest cost the configuration accepts. */
const MAX_N = 1_048_576;

/** Every hashing turn is taken: the client may try again in a moment (sent with Retry-After). */
export class PasswordsBusyError extends ApiError {
  readonly retryAfterSeconds = 2;
  constructor() {
    super(503, 'busy', 'The server is busy checking other passwords; try again in a few seconds');
  }
}

export interface PasswordCheck {
  matches: boolean;
  /** The stored hash is cheaper than the configured cost, so it should be replaced once the password is known. */
  outdated: boolean;
}

/** Password hashing at the configured cost, a few hashes at a time per process (see createPasswords). */
export interface Passwords {
  /** `scrypt$N$r$p$salt$hash`, so the cost can be raised later without breaking stored hashes. */
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<PasswordCheck>;
  /** The work of checking a password at the configured cost, for an unknown email, so that answer takes as long. */
  burn(password: string): Promise<void>;
}

/**
 * What scrypt needs: 128 * r * (N + 2) bytes for its table and 128 * r * p for its blocks (OpenSSL refuses past
 * `maxmem`), and a margin. About 128 MiB at N=2^17.
 */
const maxmemFor = (n: number, r: number, p: number) => 128 * r * (n + 2) + 128 * r * p + 1024 * 1024;

const isPowerOfTwo = (n: number) => Number.isSafeInteger(n) && n > 1 && (n & (n - 1)) === 0;

/**
 * Runs at most `concurrency` tasks at once with at most `queue` waiting; past that it refuses at once
 * (PasswordsBusyError), so a flood of sign-ins costs a bounded amount of CPU and memory (each scrypt hash at
 * N=2^17 holds 128 MiB) instead of all of it.
 */
function createLimiter(concurrency: number, queue: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (running < concurrency) running++;
    else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve));
    else throw new PasswordsBusyError();
    try {
      return await task();
    } finally {
      // The turn passes straight to the next in line, or is freed.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export function createPasswords(config: PasswordConfig): Passwords {
  const limited = createLimiter(config.hashingConcurrency, config.hashingQueue);
  const N = config.scryptN;
  const derive = (password: string, salt: Buffer, keylen: number, n: number, r: number, p: number) =>
    limited(() => scrypt(password, salt, keylen, { N: n, r, p, maxmem: maxmemFor(n, r, p) }));

  return {
    async hash(password) {
      const salt = crypto.randomBytes(16);
      const hash = await derive(password, salt, KEY_LENGTH, N, R, P);
      return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
    },

    async verify(password, stored) {
      const [scheme, n, r, p, salt, hash] = stored.split('$');
      const cost = { n: Number(n), r: Number(r), p: Number(p) };
      const readable =
        scheme === 'scrypt' &&
        salt &&
        hash &&
        isPowerOfTwo(cost.n) &&
        cost.n <= MAX_N &&
        Number.isInteger(cost.r) &&
        cost.r >= 1 &&
        cost.r <= 32 &&
        Number.isInteger(cost.p) &&
        cost.p >= 1 &&
        cost.p <= 16;
      if (!readable) return { matches: false, outdated: false };
      const expected = Buffer.from(hash, 'base64');
      if (expected.length === 0) return { matches: false, outdated: false };
      const actual = await derive(
        password,
        Buffer.from(salt, 'base64'),
        expected.length,
        cost.n,
        cost.r,
        cost.p,
      );
      return {
        matches: crypto.timingSafeEqual(actual, expected),
        outdated: cost.n * cost.r * cost.p < N * R * P,
      };
    },

    async burn(password) {
      await derive(password, crypto.randomBytes(16), KEY_LENGTH, N, R, P);
    },
  };
}
