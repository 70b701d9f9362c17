import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '../../../shared/api/auth.ts';
import type { UserRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_CLIENT } from './auth.routes.ts';

describe.each(testDialects())('auth API on %s', (dialect) => {
  let t: TestApp;
  let ada: UserRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ada = await buildUser(t.ctx.db, { email: 'ada@example.com', name: 'Ada Lovelace', admin: true });
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
      expect(body.user).toEqual({ id: ada.id, name: 'Ada Lovelace', email: 'ada@example.com' });
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
      expect(response.json()).toEqual({ id: ada.id, name: 'Ada Lovelace', email: 'ada@example.com' });
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
