import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '../../../shared/api/auth.ts';
import type { UserRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_CLIENT } from './sign-in-limits.ts';
import { DEVICE_COOKIE } from '../../accounts/device-cookie.ts';

describe.each(testDialects())('auth API on %s', (dialect) => {
  let t: TestApp;
  let ada: UserRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ada = await buildUser(t.ctx.db, { email: 'ada@example.com', name: 'Ada Lovelace', role: 'admin' });
  });
  afterAll(async () => t?.close());

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const signIn = async () => {
    const response = await login('ada@example.com', DEFAULT_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LoginResult>().token;
  };
  const me = (token?: string) =>
    t.app.inject({ url: '/api/user/me', headers: token === undefined ? {} : { 'x-auth-token': token } });
  const logout = (token?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: token === undefined ? {} : { 'x-auth-token': token },
    });

  describe('POST /api/auth/login', () => {
    it('answers a token, its expiry and the user', async () => {
      const before = Date.now();
      const response = await login('ada@example.com', DEFAULT_PASSWORD);
      expect(response.statusCode).toBe(200);
      const body = response.json<LoginResult>();
      expect(body.user).toEqual({
        id: ada.id,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'admin',
      });
      // At least 128 random bits, in a form that fits a header.
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      const expires = Date.parse(body.expires_at);
      expect(expires).toBeGreaterThan(before + 29 * 24 * 3600 * 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 24 * 3600 * 1000);
    });

    it('gives every sign-in its own token', async () => {
      const tokens = new Set([await signIn(), await signIn(), await signIn()]);
      expect(tokens.size).toBe(3);
    });

    it('takes the email in any case and with surrounding spaces', async () => {
      const response = await login('  ADA@Example.COM ', DEFAULT_PASSWORD);
      expect(response.statusCode, response.body).toBe(200);
    });

    it('answers the same 401 for a wrong password and an unknown email', async () => {
      const wrong = expectApiError(await login('ada@example.com', 'not the password'), 401, []);
      const unknown = expectApiError(await login('nobody@example.com', DEFAULT_PASSWORD), 401, []);
      expect(wrong.code).toBe('unauthorized');
      // Nothing tells a stranger which emails have accounts.
      expect(unknown).toEqual(wrong);
    });

    it('refuses sign-in from an address after too many wrong passwords, even the right one, until the hour ends', async () => {
      const from = (remoteAddress: string, email: string, password: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
      await buildUser(t.ctx.db, { email: 'grace@example.com', name: 'Grace' });
      for (let i = 0; i < SIGN_IN_FAILURES_PER_CLIENT; i++)
        expect((await from('203.0.113.7', `guess${i}@example.com`, 'guessing')).statusCode).toBe(401);
      const refused = await from('203.0.113.7', 'grace@example.com', DEFAULT_PASSWORD);
      const error = expectApiError(refused, 429, []);
      expect(error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
      // Another address is not held back by it.
      expect((await from('203.0.113.8', 'grace@example.com', DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses sign-in to an account guessed at from many addresses, and only to that account', async () => {
      const from = (remoteAddress: string, email: string, password: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
      await buildUser(t.ctx.db, { email: 'hedy@example.com', name: 'Hedy' });
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++)
        expect((await from(`198.51.100.${i}`, ' HEDY@example.com', `guess ${i}`)).statusCode).toBe(401);
      expectApiError(await from('198.51.100.200', 'hedy@example.com', DEFAULT_PASSWORD), 429, []);
      expect((await from('198.51.100.200', 'grace@example.com', DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('answers 400 naming the field for a missing or empty email or password', async () => {
      const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expectApiError(await post({ email: 'ada@example.com' }), 400, ['password']);
      expectApiError(await post({ password: DEFAULT_PASSWORD }), 400, ['email']);
      expectApiError(await post({ email: '', password: '' }), 400, ['email', 'password']);
      expectApiError(await post({ email: { $ne: '' }, password: DEFAULT_PASSWORD }), 400, ['email']);
    });

    it('answers 400 in the same shape for a body that is not JSON', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": ',
      });
      expectApiError(response, 400);
    });
  });

  describe('tokens and passwords at rest', () => {
    it('stores only a hash of the token', async () => {
      const token = await signIn();
      const rows = await t.ctx.db.selectFrom('auth_tokens').selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.token_hash).not.toBe(token);
        expect(JSON.stringify(row)).not.toContain(token);
      }
    });

    it('stores the password only as a salted scrypt hash', async () => {
      const other = await buildUser(t.ctx.db, { password: DEFAULT_PASSWORD });
      const rows = await t.ctx.db.selectFrom('users').select(['id', 'password_hash']).execute();
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$/);
        expect(row.password_hash).not.toContain(DEFAULT_PASSWORD);
      }
      const hashOf = (id: number) => rows.find((r) => r.id === id)?.password_hash;
      expect(hashOf(other.id)).not.toBe(hashOf(ada.id));
    });
  });

  describe('GET /api/user/me', () => {
    it('answers the signed-in user for a valid token', async () => {
      const response = await me(await signIn());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: ada.id,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'admin',
      });
    });

    it('answers 401 JSON without a token, with an unknown one and with an empty one', async () => {
      for (const token of [undefined, 'not-a-token', '']) {
        expect(expectApiError(await me(token), 401, []).code).toBe('unauthorized');
      }
    });

    it('answers 401 for an expired token', async () => {
      const token = await signIn();
      expect((await me(token)).statusCode).toBe(200);
      await t.ctx.db
        .updateTable('auth_tokens')
        .set({ expires_at: Date.now() - 1000 })
        .execute();
      expectApiError(await me(token), 401, []);
    });

    it('answers 400 naming the header for an absurdly long token', async () => {
      expectApiError(await me('x'.repeat(600)), 400, ['x-auth-token']);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the token it is given, and only that one', async () => {
      const token = await signIn();
      const other = await signIn();
      const response = await logout(token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expectApiError(await me(token), 401);
      expect((await me(other)).statusCode).toBe(200);
    });

    it('answers 401 for a token that is missing, unknown or already revoked', async () => {
      const token = await signIn();
      expect((await logout(token)).statusCode).toBe(200);
      expectApiError(await logout(token), 401, []);
      expectApiError(await logout('not-a-token'), 401, []);
      expectApiError(await logout(), 401, []);
    });
  });
});

describe.each(testDialects())('sign-in limits under load on %s', (dialect) => {
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await buildUser(t.ctx.db, { email: 'ada@example.com', name: 'Ada' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  const post = (password: string) =>
    fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password }),
    });

  it('checks exactly as many passwords as the bound allows when they arrive all at once, and refuses the rest', async () => {
    // Successes from the same address first: an office behind one address uses none of its guesses signing in.
    for (let i = 0; i < SIGN_IN_FAILURES_PER_CLIENT + 5; i++)
      expect((await post(DEFAULT_PASSWORD)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => post(`wrong ${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_FAILURES_PER_CLIENT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - SIGN_IN_FAILURES_PER_CLIENT);
    const refused = answers.find((a) => a.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused?.json()) as { code: string }).toMatchObject({ code: 'rate_limited' });
    // The right password is refused too, from this address, until the hour ends.
    expect((await post(DEFAULT_PASSWORD)).status).toBe(429);
  });
});

describe.each(testDialects())('the sign-in device cookie on %s', (dialect) => {
  let t: TestApp;
  let lin: UserRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    lin = await buildUser(t.ctx.db, { email: 'lin@example.com', name: 'Lin', role: 'admin' });
    await buildUser(t.ctx.db, { email: 'mo@example.com', name: 'Mo' });
    await buildUser(t.ctx.db, { email: 'kim@example.com', name: 'Kim' });
  });
  afterAll(async () => t?.close());

  const login = (remoteAddress: string, email: string, password: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress,
      headers: cookie ? { cookie } : {},
    });
  /** The cookie a successful sign-in sets, as the browser sends it back. */
  const deviceCookieOf = async (email: string) => {
    const response = await login('192.0.2.1', email, DEFAULT_PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    const cookie = response.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(cookie).toBeDefined();
    return `${DEVICE_COOKIE}=${cookie!.value}`;
  };
  const lockOut = async (email: string, cookie?: string, prefix = '198.51.100') => {
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++)
      expect((await login(`${prefix}.${i}`, email, `guess ${i}`, cookie)).statusCode).toBe(401);
  };

  it('is set by a successful sign-in: HTTP-only, same-site, for the sign-in call only, and not by a failed one', async () => {
    const ok = await login('192.0.2.1', 'kim@example.com', DEFAULT_PASSWORD);
    const cookie = ok.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(cookie).toMatchObject({ path: '/api/auth/login', httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.maxAge).toBeGreaterThan(30 * 24 * 3600);
    // The answer itself keeps its shape.
    expect(Object.keys(ok.json<LoginResult>()).sort()).toEqual(['expires_at', 'token', 'user']);
    const wrong = await login('192.0.2.1', 'kim@example.com', 'not the password');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('lets a browser that signed in to the account before past the account-wide bound, and no other', async () => {
    const linCookie = await deviceCookieOf('lin@example.com');
    const moCookie = await deviceCookieOf('mo@example.com');
    await lockOut('lin@example.com');
    // A new browser, even with the right password, waits out the hour.
    expectApiError(await login('203.0.113.1', 'lin@example.com', DEFAULT_PASSWORD), 429, []);
    // Another account's cookie does not help, nor a forged or altered one.
    expectApiError(await login('203.0.113.1', 'lin@example.com', DEFAULT_PASSWORD, moCookie), 429, []);
    const [, issued, signature] = linCookie.split('=')[1]!.split('.');
    const forged = [
      `${DEVICE_COOKIE}=${lin.id}.${issued}.${'A'.repeat(signature!.length)}`,
      `${DEVICE_COOKIE}=${lin.id}.${Number(issued) + 1}.${signature}`,
      `${DEVICE_COOKIE}=${lin.id}`,
      `${DEVICE_COOKIE}=${lin.id}.${issued}.${signature}.extra`,
      `${DEVICE_COOKIE}=${moCookie.split('=')[1]!.replace(/^\d+/, String(lin.id))}`,
    ];
    for (const cookie of forged)
      expectApiError(await login('203.0.113.1', 'lin@example.com', DEFAULT_PASSWORD, cookie), 429, []);
    // The browser that signed in before still can, from any address.
    const back = await login('203.0.113.1', 'lin@example.com', DEFAULT_PASSWORD, linCookie);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<LoginResult>().user.id).toBe(lin.id);
  });

  it('still holds that browser to the per-address bound, and counts its wrong passwords apart', async () => {
    const cookie = await deviceCookieOf('mo@example.com');
    await lockOut('mo@example.com');
    // Past the account-wide bound for strangers, the browser's guesses are still checked...
    for (let i = 0; i < SIGN_IN_FAILURES_PER_CLIENT; i++)
      expect((await login('203.0.113.9', 'mo@example.com', `guess ${i}`, cookie)).statusCode).toBe(401);
    // ...up to the bound of its address,
    expectApiError(await login('203.0.113.9', 'mo@example.com', DEFAULT_PASSWORD, cookie), 429, []);
    expect((await login('203.0.113.10', 'mo@example.com', DEFAULT_PASSWORD, cookie)).statusCode).toBe(200);
    // ...and up to a bound of its own for the account, from any address.
    for (let i = SIGN_IN_FAILURES_PER_CLIENT; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++)
      expect((await login(`203.0.114.${i}`, 'mo@example.com', `guess ${i}`, cookie)).statusCode).toBe(401);
    expectApiError(await login('203.0.113.11', 'mo@example.com', DEFAULT_PASSWORD, cookie), 429, []);
  });

  it('is marked Secure when the help centre is served over https', async () => {
    const secure = await createTestApp(dialect, { PUBLIC_URL: 'https://help.example.com' });
    try {
      await buildUser(secure.ctx.db, { email: 'sam@example.com', name: 'Sam' });
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'sam@example.com', password: DEFAULT_PASSWORD },
      });
      expect(response.cookies.find((c) => c.name === DEVICE_COOKIE)?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });
});
