import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult, MailSentResult, UpdateMeResult } from '../../../shared/api/auth.ts';
import { findUserByEmail } from '../../accounts/users.repository.ts';
import { findTicket } from '../../tickets/tickets.repository.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { ACCOUNT_MAILS_PER_ADDRESS } from '../../mail/account-mail.ts';
import { updateBranding } from '../../settings/branding.ts';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from './sign-in-limits.ts';

type MailServer = Awaited<ReturnType<typeof startMailServer>>;

describe.each(testDialects())('portal accounts on %s', (dialect) => {
  let t: TestApp;
  let smtp: MailServer;
  // Each test its own client address, so the sign-in allowance of one does not run out in another.
  let client = 0;
  const nextClient = () => `10.1.0.${++client}`;

  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, CAPTCHA_PROVIDER: 'none', TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: unknown, ip = nextClient(), token?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { 'x-forwarded-for': ip, ...(token && { 'x-auth-token': token }) },
    });
  const login = (email: string, password: string) => post('/api/auth/login', { email, password });
  const me = (token: string) => t.app.inject({ url: '/api/user/me', headers: { 'x-auth-token': token } });
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  const lastMailTo = async (address: string) => {
    await expect.poll(() => mailsTo(address).length).toBeGreaterThan(0);
    return textOf(mailsTo(address).at(-1)!.raw);
  };
  /** The token of the last link of this kind mailed to the address: the part after '#'. */
  const linkIn = async (address: string, page: 'verify-email' | 'new-password') => {
    const text = await lastMailTo(address);
    const match = new RegExp(`http://localhost:3000/${page}#([A-Za-z0-9_.-]+)`).exec(text);
    expect(match, text).not.toBeNull();
    return match![1]!;
  };
  const signUp = (email: string, password = 'a good password', name = 'New Customer') =>
    post('/api/auth/signup', { name, email, password });

  it('signs up, mails a link, and signs in only once the email is confirmed; the link works once', async () => {
    const response = await signUp('Nina@Example.com');
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json<MailSentResult>()).toEqual({ ok: true, sent_to: 'nina@example.com' });
    expect((await findUserByEmail(t.ctx.db, 'nina@example.com'))?.email_verified_at).toBeNull();
    expectApiError(await login('nina@example.com', 'a good password'), 401);

    const token = await linkIn('nina@example.com', 'verify-email');
    const verified = await post('/api/auth/verify-email', { token });
    expect(verified.statusCode, verified.body).toBe(200);
    const session = verified.json<LoginResult>();
    expect(session.user).toMatchObject({ email: 'nina@example.com', name: 'New Customer', role: 'customer' });
    expect((await me(session.token)).statusCode).toBe(200);
    expect((await login('nina@example.com', 'a good password')).statusCode).toBe(200);
    expectApiError(await post('/api/auth/verify-email', { token }), 400, ['token']);
  });

  it('answers a sign-up for a taken email as for a new one, mails its owner instead, and changes nothing', async () => {
    const owner = await buildUser(t.ctx.db, { email: 'taken@example.com' });
    const response = await signUp('taken@example.com', 'an attacker password');
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true, sent_to: 'taken@example.com' });
    expect(await lastMailTo('taken@example.com')).toContain('already has an account');
    expect((await login('taken@example.com', DEFAULT_PASSWORD)).statusCode).toBe(200);
    expectApiError(await login('taken@example.com', 'an attacker password'), 401);
    expect((await findUserByEmail(t.ctx.db, 'taken@example.com'))?.password_hash).toBe(owner.password_hash);
  });

  it('signing up again before confirming sends a new link and voids the old one', async () => {
    await signUp('twice@example.com', 'first password');
    const first = await linkIn('twice@example.com', 'verify-email');
    await signUp('twice@example.com', 'second password');
    await expect.poll(() => mailsTo('twice@example.com').length).toBe(2);
    const second = await linkIn('twice@example.com', 'verify-email');
    expect(second).not.toBe(first);
    expectApiError(await post('/api/auth/verify-email', { token: first }), 400, ['token']);
    expect((await post('/api/auth/verify-email', { token: second })).statusCode).toBe(200);
    expect((await login('twice@example.com', 'second password')).statusCode).toBe(200);
  });

  it('refuses a forged or altered link', async () => {
    await signUp('forge@example.com');
    const token = await linkIn('forge@example.com', 'verify-email');
    const [payload, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, x: Date.now() + 1e12 })).toString('base64url');
    for (const bad of [`${altered}.${signature}`, `${payload}.${signature.slice(1)}x`, payload, 'a.b.c'])
      expectApiError(await post('/api/auth/verify-email', { token: bad }), 400, ['token']);
  });

  it('gives a confirmed account the requests its email sent without one', async () => {
    const opened = await post('/panel/api/issue-open', {
      title: 'Help',
      description: 'Before I had an account',
      name: 'Lea',
      email: 'LEA@example.com',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const { data, link } = opened.json<{ data: { id: number }; link: string }>();
    // Sent without an account: its private link carries the key.
    expect(link).toMatch(new RegExp(`^/issues/${data.id}\\?key=[A-Za-z0-9_-]{43}$`));
    await signUp('lea@example.com');
    const session = (
      await post('/api/auth/verify-email', { token: await linkIn('lea@example.com', 'verify-email') })
    ).json<LoginResult>();
    const mine = await t.app.inject({
      url: '/api/portal/issues',
      headers: { 'x-auth-token': session.token },
    });
    expect(mine.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([data.id]);
  });

  it('resets a password by link: signs out every device, clears the lockout, and the link works once', async () => {
    const user = await buildUser(t.ctx.db, { email: 'reset@example.com' });
    const old = (await login(user.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    // Locked out by guesses from everywhere.
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++) await login(user.email, `wrong ${i}`);
    expectApiError(await login(user.email, DEFAULT_PASSWORD), 429);

    const asked = await post('/api/auth/password-reset', { email: 'Reset@example.com' });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ ok: true, sent_to: 'reset@example.com' });
    const token = await linkIn(user.email, 'new-password');
    expectApiError(await post('/api/auth/new-password', { token, password: 'short' }), 400, ['password']);
    const done = await post('/api/auth/new-password', { token, password: 'a brand new password' });
    expect(done.statusCode, done.body).toBe(200);
    expect((await me(done.json<LoginResult>().token)).statusCode).toBe(200);
    expectApiError(await me(old), 401);
    expect((await login(user.email, 'a brand new password')).statusCode).toBe(200);
    expectApiError(await post('/api/auth/new-password', { token, password: 'yet another one' }), 400, [
      'token',
    ]);
  });

  it('answers a reset for an unknown email as for a known one, and mails a note instead of a link', async () => {
    const response = await post('/api/auth/password-reset', { email: 'nobody@example.com' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ ok: true, sent_to: 'nobody@example.com' });
    const text = await lastMailTo('nobody@example.com');
    expect(text).toContain('has no account');
    expect(text).toContain('http://localhost:3000/signup');
    expect(await findUserByEmail(t.ctx.db, 'nobody@example.com')).toBeUndefined();
  });

  it(`mails one address at most ${ACCOUNT_MAILS_PER_ADDRESS} times an hour, whoever asks`, async () => {
    await buildUser(t.ctx.db, { email: 'flooded@example.com' });
    for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS; i++)
      expect((await post('/api/auth/password-reset', { email: 'flooded@example.com' })).statusCode).toBe(202);
    expectApiError(await post('/api/auth/password-reset', { email: 'flooded@example.com' }), 429);
    await expect.poll(() => mailsTo('flooded@example.com').length).toBe(ACCOUNT_MAILS_PER_ADDRESS);
  });

  it('names each field a sign-up gets wrong, and stores nothing', async () => {
    const response = await post('/api/auth/signup', { name: ' ', email: 'not-an-email', password: 'short' });
    expectApiError(response, 400, ['name', 'email', 'password']);
    expect(await findUserByEmail(t.ctx.db, 'not-an-email')).toBeUndefined();
  });

  it('changes the name; the password with the current one; the email once the new address confirms', async () => {
    const user = await buildUser(t.ctx.db, { email: 'profile@example.com' });
    const token = (await login(user.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    const other = (await login(user.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/user/me', payload, headers: { 'x-auth-token': token } });

    const renamed = await patch({ name: '  Grace Hopper ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<UpdateMeResult>()).toMatchObject({
      user: { name: 'Grace Hopper' },
      email_change_sent_to: null,
    });

    expectApiError(await patch({ password: 'a new password' }), 400, ['current_password']);
    expectApiError(await patch({ password: 'a new password', current_password: 'wrong one' }), 400, [
      'current_password',
    ]);
    expect((await patch({ password: 'a new password', current_password: DEFAULT_PASSWORD })).statusCode).toBe(
      200,
    );
    expect((await me(token)).statusCode).toBe(200);
    expectApiError(await me(other), 401);

    const moved = await patch({ email: 'grace@example.com', current_password: 'a new password' });
    expect(moved.json<UpdateMeResult>()).toMatchObject({
      user: { email: 'profile@example.com' },
      email_change_sent_to: 'grace@example.com',
    });
    const verified = await post('/api/auth/verify-email', {
      token: await linkIn('grace@example.com', 'verify-email'),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json<LoginResult>().user.email).toBe('grace@example.com');
    expect((await login('grace@example.com', 'a new password')).statusCode).toBe(200);
    expectApiError(await login('profile@example.com', 'a new password'), 401);
  });

  it('deletes my account with my password: my requests stay for the team, without me, closed', async () => {
    const user = await buildUser(t.ctx.db, { email: 'leaving@example.com', name: 'Leaving' });
    const token = (await login(user.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    const opened = await post(
      '/panel/api/issue-open',
      { title: 'Bye', description: 'x', name: 'Leaving', email: user.email },
      nextClient(),
      token,
    );
    const id = opened.json<{ data: { id: number } }>().data.id;
    const remove = (password: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/user/me',
        payload: { password },
        headers: { 'x-auth-token': token },
      });

    expectApiError(await remove('not mine'), 400, ['password']);
    expect((await remove(DEFAULT_PASSWORD)).statusCode).toBe(200);
    expectApiError(await me(token), 401);
    expect(await findUserByEmail(t.ctx.db, user.email)).toBeUndefined();
    expect(await findTicket(t.ctx.db, id)).toMatchObject({
      user_id: null,
      name: '',
      email: '',
      status: 'closed',
      description: 'x',
    });
  });

  it("keeps a team member's account to the administrators, and signs out of every device", async () => {
    const agent = await buildUser(t.ctx.db, { role: 'agent' });
    const first = (await login(agent.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    const second = (await login(agent.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    expectApiError(
      await t.app.inject({
        method: 'DELETE',
        url: '/api/user/me',
        payload: { password: DEFAULT_PASSWORD },
        headers: { 'x-auth-token': first },
      }),
      403,
    );
    expect((await post('/api/auth/logout-everywhere', {}, nextClient(), first)).statusCode).toBe(200);
    expectApiError(await me(first), 401);
    expectApiError(await me(second), 401);
  });
});

describe.each(testDialects())('who may sign up on %s', (dialect) => {
  const tryConfig = async (env: Record<string, string>, email: string) => {
    const smtp = await startMailServer();
    const t = await createTestApp(dialect, { SMTP_URL: smtp.url, CAPTCHA_PROVIDER: 'none', ...env });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { name: 'Someone', email, password: 'a good password' },
      });
      return { response, stored: await findUserByEmail(t.ctx.db, email), mails: smtp.mails.length };
    } finally {
      await t.close();
      await smtp.close();
    }
  };

  it('takes only the named domains with SIGNUP=domains', async () => {
    const refused = await tryConfig({ SIGNUP: 'domains:example.com' }, 'someone@elsewhere.org');
    expect(expectApiError(refused.response, 400, ['email']).data.errors[0]?.message).toContain('example.com');
    expect(refused.stored).toBeUndefined();
    expect(
      (await tryConfig({ SIGNUP: 'domains:example.com' }, 'someone@example.com')).response.statusCode,
    ).toBe(202);
  });

  it('takes no sign-up with SIGNUP=invite or off, nor without mail', async () => {
    for (const mode of ['invite', 'off']) {
      const { response, stored, mails } = await tryConfig({ SIGNUP: mode }, 'someone@example.com');
      expect(expectApiError(response, 403).code).toBe('signup_closed');
      expect(stored).toBeUndefined();
      expect(mails).toBe(0);
    }
    const t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none' });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { name: 'Someone', email: 'someone@example.com', password: 'a good password' },
      });
      expect(expectApiError(response, 403).code).toBe('mail_unavailable');
      expect(await findUserByEmail(t.ctx.db, 'someone@example.com')).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('says what is wrong in the help centre’s language, the captcha included', async () => {
    const smtp = await startMailServer();
    const t = await createTestApp(dialect, {
      SMTP_URL: smtp.url,
      CAPTCHA_PROVIDER: 'altcha',
      SIGNUP: 'domains:example.com',
    });
    try {
      await updateBranding(t.ctx.db, { lang: 'ru' });
      const signUp = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
      const messages = (response: Awaited<ReturnType<typeof signUp>>) =>
        Object.fromEntries(
          expectApiError(response, response.statusCode).data.errors.map((e) => [e.field, e.message]),
        );
      expect(messages(await signUp({ name: 'Нина', email: 'not-an-email', password: 'short' }))).toEqual({
        email: 'Введите правильный адрес электронной почты',
        password: 'Не короче 8 символов',
      });
      expect(
        messages(await signUp({ name: 'Нина', email: 'nina@elsewhere.org', password: 'a good password' })),
      ).toEqual({ email: 'Нужен адрес в домене example.com' });
      expect(
        messages(await signUp({ name: 'Нина', email: 'nina@example.com', password: 'a good password' })),
      ).toEqual({ g_recaptcha_response: 'Подтвердите, что вы не робот' });
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/new-password',
        payload: { token: 'no.such-link', password: 'a good password' },
      });
      expect(messages(reset)).toEqual({ token: 'Ссылка устарела или уже использована; запросите новую' });
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('asks for the captcha when one is configured', async () => {
    const { response, stored } = await tryConfig({ CAPTCHA_PROVIDER: 'altcha' }, 'robot@example.com');
    expectApiError(response, 422, ['g_recaptcha_response']);
    expect(stored).toBeUndefined();
  });
});
