import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { expectApiError } from '../testing/api-expect.ts';
import { DEFAULT_PASSWORD } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { createUser } from './accounts.service.ts';
import { createPasswords } from './password.ts';

/** The cost OWASP recommends at least: N=2^17, r=8, p=1 (128 MiB and a few tenths of a second a hash). */
const REAL_N = 131072;
const costOf = (hash: string) => hash.split('$').slice(0, 4).join('$');

describe('the password cost', () => {
  it('is N=2^17, r=8, p=1 unless configured, with two hashes at once and sixteen waiting', () => {
    expect(loadConfig({}).passwords).toEqual({ scryptN: REAL_N, hashingConcurrency: 2, hashingQueue: 16 });
    expect(
      loadConfig({
        PASSWORD_SCRYPT_N: '1024',
        PASSWORD_HASHING_CONCURRENCY: '4',
        PASSWORD_HASHING_QUEUE: '0',
      }).passwords,
    ).toEqual({ scryptN: 1024, hashingConcurrency: 4, hashingQueue: 0 });
  });

  it.each([
    ['PASSWORD_SCRYPT_N', '100000'],
    ['PASSWORD_SCRYPT_N', '512'],
    ['PASSWORD_SCRYPT_N', '2097152'],
    ['PASSWORD_SCRYPT_N', 'lots'],
    ['PASSWORD_HASHING_CONCURRENCY', '0'],
    ['PASSWORD_HASHING_CONCURRENCY', 'two'],
    ['PASSWORD_HASHING_QUEUE', '-1'],
  ])('refuses %s=%s naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^${variable}: `));
  });

  it('hashes and checks at the real cost', async () => {
    const passwords = createPasswords(loadConfig({}).passwords);
    const hash = await passwords.hash(DEFAULT_PASSWORD);
    expect(costOf(hash)).toBe(`scrypt$${REAL_N}$8$1`);
    expect(await passwords.verify(DEFAULT_PASSWORD, hash)).toEqual({ matches: true, outdated: false });
    expect(await passwords.verify('not the password', hash)).toEqual({ matches: false, outdated: false });
  });
});

describe.each(testDialects())('sign-in at the real cost on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      PASSWORD_SCRYPT_N: String(REAL_N),
      PASSWORD_HASHING_CONCURRENCY: '1',
      PASSWORD_HASHING_QUEUE: '1',
    });
  });
  afterAll(async () => t?.close());

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const storedHash = async (email: string) => {
    const row = await t.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  };

  it('upgrades a cheaper stored hash on the next successful sign-in, and only then', async () => {
    const cheap = createPasswords({ scryptN: 1024, hashingConcurrency: 1, hashingQueue: 0 });
    await createUser(t.ctx.db, cheap, {
      email: 'old@example.com',
      name: 'Old',
      password: DEFAULT_PASSWORD,
      role: 'customer',
    });
    const before = await storedHash('old@example.com');
    expect(costOf(before)).toBe('scrypt$1024$8$1');
    expectApiError(await login('old@example.com', 'not the password'), 401, []);
    expect(await storedHash('old@example.com')).toBe(before);
    expect((await login('old@example.com', DEFAULT_PASSWORD)).statusCode).toBe(200);
    const after = await storedHash('old@example.com');
    expect(costOf(after)).toBe(`scrypt$${REAL_N}$8$1`);
    // The upgraded hash takes the same password, and is kept as it is.
    expect((await login('old@example.com', DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect(await storedHash('old@example.com')).toBe(after);
  });

  it('answers 503 busy to a sign-in past the hashing queue, counting no guess', async () => {
    await createUser(t.ctx.db, t.ctx.passwords, {
      email: 'busy@example.com',
      name: 'Busy',
      password: DEFAULT_PASSWORD,
      role: 'customer',
    });
    const counted = () =>
      t.ctx.db
        .selectFrom('rate_limits')
        .select(['key', 'count'])
        .where('count', '>', 0)
        .orderBy('key')
        .execute();
    const before = await counted();
    // One hash at a time and one waiting: of three sign-ins sent together, the third finds the queue full.
    const answers = await Promise.all([1, 2, 3].map(() => login('busy@example.com', DEFAULT_PASSWORD)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 503]);
    const busy = answers.find((a) => a.statusCode === 503)!;
    expect(expectApiError(busy, 503, []).code).toBe('busy');
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counted()).toEqual(before);
  });
});
