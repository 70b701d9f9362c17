import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginResult, MailSentResult, UpdateMeResult } from '../../../shared/api/auth.ts';
import { findUserByEmail, insertUser } from '../../accounts/users.repository.ts';
import { findTicket } from '../../tickets/index.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { ACCOUNT_MAILS_PER_ADDRESS, ACCOUNT_MAILS_PER_ADDRESS_CEILING } from '../../mail/account-mail.ts';
import { NO_PASSWORD } from '../../accounts/accounts.service.ts';
import { FLOW_COOKIE } from './flow-cookie.ts';
import { DEVICE_COOKIE } from '../../accounts/device-cookie.ts';
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

  const post = (url: string, payload: unknown, ip = nextClient(), token?: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { 'x-forwarded-for': ip, ...(token && { 'x-auth-token': token }), ...(cookie && { cookie }) },
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
  const signUp = (email: string, password = 'a good password', name = 'New Customer', ip = nextClient()) =>
    post('/api/auth/signup', { name, email, password }, ip);
  /** The flow cookie a sign-up (or an email change) gave the browser, as that browser sends it back. */
  const flowOf = (response: { headers: Record<string, unknown> }) => {
    const cookies = [response.headers['set-cookie'] ?? []].flat() as string[];
    const flow = cookies.find((cookie) => cookie.startsWith(`${FLOW_COOKIE}=`));
    expect(flow, cookies.join('\n')).toBeDefined();
    expect(flow).toMatch(/; HttpOnly; SameSite=Strict; /);
    return flow!.split(';')[0]!;
  };
  /** Confirms by link in the browser holding `cookie` (the one that signed up), or in another with none. */
  const verify = (token: string, cookie?: string, password?: string, name?: string) =>
    post(
      '/api/auth/verify-email',
      { token, ...(password !== undefined && { password }), ...(name !== undefined && { name }) },
      nextClient(),
      undefined,
      cookie,
    );
  const accountMailsTo = (address: string) =>
    t.ctx.db.selectFrom('account_mails').selectAll().where('to_address', '=', address).execute();

  it('signs up, mails a link, and signs in only once the email is confirmed; the link works once', async () => {
    const response = await signUp('Nina@Example.com');
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json<MailSentResult>()).toEqual({ ok: true, sent_to: 'nina@example.com' });
    expect((await findUserByEmail(t.ctx.db, 'nina@example.com'))?.email_verified_at).toBeNull();
    expectApiError(await login('nina@example.com', 'a good password'), 401);

    const token = await linkIn('nina@example.com', 'verify-email');
    const verified = await verify(token, flowOf(response));
    expect(verified.statusCode, verified.body).toBe(200);
    const session = verified.json<LoginResult>();
    expect(session.user).toMatchObject({ email: 'nina@example.com', name: 'New Customer', role: 'customer' });
    expect((await me(session.token)).statusCode).toBe(200);
    expect((await login('nina@example.com', 'a good password')).statusCode).toBe(200);
    expectApiError(await verify(token, flowOf(response)), 400, ['token']);
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

  it('a sign-up for an address waiting for its confirmation changes nothing; its owner is mailed a way in', async () => {
    const owner = await signUp('waiting@example.com', 'the owner password', 'The Owner');
    const ownerLink = await linkIn('waiting@example.com', 'verify-email');
    const before = await findUserByEmail(t.ctx.db, 'waiting@example.com');

    const stranger = await signUp('waiting@example.com', 'a stranger password', 'A Stranger');
    expect(stranger.statusCode).toBe(202);
    expect(stranger.json()).toEqual(owner.json());
    await expect.poll(() => mailsTo('waiting@example.com').length).toBe(2);
    const note = await lastMailTo('waiting@example.com');
    expect(note).toContain('already has an account');
    expect(note).toMatch(/http:\/\/localhost:3000\/new-password#/);
    expect(await findUserByEmail(t.ctx.db, 'waiting@example.com')).toEqual(before);

    // The stranger's browser holds a flow cookie of its own, which the owner's link does not take.
    expectApiError(await verify(ownerLink, flowOf(stranger)), 400, ['password']);
    expectApiError(await login('waiting@example.com', 'a stranger password'), 401);

    // The note's link chooses the password, which proves the address as well; or the owner's own link confirms.
    const reset = await post('/api/auth/new-password', {
      token: await linkIn('waiting@example.com', 'new-password'),
      password: 'chosen from the note',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // Never confirmed, its name may be a stranger's: the address's local part replaces it.
    expect(reset.json<LoginResult>().user.name).toBe('waiting');
    expect((await login('waiting@example.com', 'chosen from the note')).statusCode).toBe(200);
    expectApiError(await login('waiting@example.com', 'a stranger password'), 401);
  });

  it("a sign-up for a waiting address leaves its owner's confirmation link working in their browser", async () => {
    const owner = await signUp('still-waiting@example.com', 'the owner password', 'The Owner');
    const ownerLink = await linkIn('still-waiting@example.com', 'verify-email');
    await signUp('still-waiting@example.com', 'a stranger password', 'A Stranger');
    await expect.poll(() => mailsTo('still-waiting@example.com').length).toBe(2);
    const confirmed = await verify(ownerLink, flowOf(owner));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<LoginResult>().user.name).toBe('The Owner');
    expect((await login('still-waiting@example.com', 'the owner password')).statusCode).toBe(200);
    expectApiError(await login('still-waiting@example.com', 'a stranger password'), 401);
  });

  it('a sign-up for an invited address leaves the invitation whole: name, link and all', async () => {
    const admin = await buildUser(t.ctx.db, { role: 'admin' });
    const adminToken = (await login(admin.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    const invited = await post(
      '/api/admin/invitations',
      { email: 'guest@example.com', name: 'Invited Guest' },
      nextClient(),
      adminToken,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const invitation = /accept-invite#([A-Za-z0-9_.-]+)/.exec(await lastMailTo('guest@example.com'))![1]!;
    const before = await findUserByEmail(t.ctx.db, 'guest@example.com');
    expect(before).toMatchObject({
      name: 'Invited Guest',
      password_hash: NO_PASSWORD,
      email_verified_at: null,
    });

    expect((await signUp('guest@example.com', 'a stranger password', 'A Stranger')).statusCode).toBe(202);
    await expect.poll(() => mailsTo('guest@example.com').length).toBe(2);
    expect(await lastMailTo('guest@example.com')).toContain('already has an account');
    expect(await findUserByEmail(t.ctx.db, 'guest@example.com')).toEqual(before);
    expectApiError(await login('guest@example.com', 'a stranger password'), 401);

    const accepted = await post('/api/auth/accept-invite', {
      token: invitation,
      password: 'the guest password',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<LoginResult>().user.name).toBe('Invited Guest');
  });

  it('a link opened in another browser asks for a password, and requests join the account only with it', async () => {
    const opened = await post('/panel/api/issue-open', {
      title: 'Private',
      description: 'Sent before any account',
      name: 'Vera',
      email: 'vera@example.com',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const ticketId = opened.json<{ data: { id: number } }>().data.id;
    // A stranger signs up with Vera's address; Vera opens the mail's link in her own browser.
    await signUp('vera@example.com', 'a stranger password', 'Not Vera');
    const token = await linkIn('vera@example.com', 'verify-email');

    const asked = expectApiError(await verify(token), 400, ['password']);
    expect(asked.code).toBe('password_needed');
    expect(asked.data.errors[0]?.message).toContain('vera@example.com');
    expect((await findUserByEmail(t.ctx.db, 'vera@example.com'))?.email_verified_at).toBeNull();
    expect((await findTicket(t.ctx.db, ticketId))?.user_id).toBeNull();
    expectApiError(await verify(token, undefined, 'short', 'Vera'), 400, ['password']);

    const confirmed = await verify(token, undefined, 'vera chose this', 'Vera');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const session = confirmed.json<LoginResult>();
    expect((await findTicket(t.ctx.db, ticketId))?.user_id).toBe(session.user.id);
    expect((await login('vera@example.com', 'vera chose this')).statusCode).toBe(200);
    expectApiError(await login('vera@example.com', 'a stranger password'), 401);
    expectApiError(await verify(token, undefined, 'vera chose this'), 400, ['token']);
  });

  it('a link opened in another browser asks for a name with the password: the name a stranger chose goes', async () => {
    await signUp('wanda@example.com', 'a stranger password', 'Send money to Eve');
    const token = await linkIn('wanda@example.com', 'verify-email');
    expect(expectApiError(await verify(token), 400, ['password']).code).toBe('password_needed');
    expectApiError(await verify(token, undefined, 'wanda chose this'), 400, ['name']);
    expectApiError(await verify(token, undefined, 'wanda chose this', '  '), 400, ['name']);
    expectApiError(await verify(token, undefined, undefined, 'Wanda'), 400, ['password']);
    expect(await findUserByEmail(t.ctx.db, 'wanda@example.com')).toMatchObject({
      name: 'Send money to Eve',
      email_verified_at: null,
    });
    const confirmed = await verify(token, undefined, 'wanda chose this', ' Wanda Owner ');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<LoginResult>().user.name).toBe('Wanda Owner');
    expect((await findUserByEmail(t.ctx.db, 'wanda@example.com'))?.name).toBe('Wanda Owner');
  });

  it('a reset link on an account never confirmed replaces the name a stranger chose with the address', async () => {
    await signUp('walter.w@example.com', 'a stranger password', 'Send money to Eve');
    await post('/api/auth/password-reset', { email: 'walter.w@example.com' });
    await expect.poll(() => mailsTo('walter.w@example.com').length).toBe(2);
    const token = await linkIn('walter.w@example.com', 'new-password');
    const done = await post('/api/auth/new-password', { token, password: 'walter chose this' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<LoginResult>().user.name).toBe('walter.w');
    expect(await findUserByEmail(t.ctx.db, 'walter.w@example.com')).toMatchObject({ name: 'walter.w' });
    // A confirmed account's name is its owner's: a reset keeps it.
    const kept = await buildUser(t.ctx.db, { email: 'kept-name@example.com', name: 'Kept Name' });
    await post('/api/auth/password-reset', { email: kept.email });
    const keptToken = await linkIn(kept.email, 'new-password');
    const keptDone = await post('/api/auth/new-password', { token: keptToken, password: 'kept chose this' });
    expect(keptDone.json<LoginResult>().user.name).toBe('Kept Name');
  });

  it("a link opened in another browser never signs that browser in to someone else's account by itself", async () => {
    // Someone signs up with their own address and sends its link to another person (a sign-in forgery).
    const mine = await signUp('forger@example.com', 'the forger password');
    const token = await linkIn('forger@example.com', 'verify-email');
    const elsewhere = await verify(token);
    expect(expectApiError(elsewhere, 400, ['password']).code).toBe('password_needed');
    expect(elsewhere.headers['set-cookie']).toBeUndefined();
    expect(await findUserByEmail(t.ctx.db, 'forger@example.com')).toMatchObject({ email_verified_at: null });
    expect((await verify(token, flowOf(mine))).statusCode).toBe(200);
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
    const { data } = opened.json<{ data: { id: number } }>();
    const signedUp = await signUp('lea@example.com');
    const session = (
      await verify(await linkIn('lea@example.com', 'verify-email'), flowOf(signedUp))
    ).json<LoginResult>();
    const mine = await t.app.inject({
      url: '/api/portal/issues',
      headers: { 'x-auth-token': session.token },
    });
    expect(mine.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([data.id]);
  });

  it('ends the sending browser’s access to the requests that join an account once their address is proved', async () => {
    for (const [email, prove] of [
      ['kim@example.com', 'confirmation'],
      ['noa@example.com', 'new password'],
    ] as const) {
      // Someone sends a request for the address without an account: their browser follows it by its cookie.
      const opened = await post('/panel/api/issue-open', {
        title: 'Help',
        description: 'Sent before any account',
        name: 'Someone',
        email,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const id = opened.json<{ data: { id: number } }>().data.id;
      const cookie = ([opened.headers['set-cookie'] ?? []].flat()[0] ?? '').split(';')[0]!;
      const byCookie = () => t.app.inject({ url: `/api/portal/issues/${id}`, headers: { cookie } });
      expect((await byCookie()).statusCode, prove).toBe(200);

      let session: LoginResult;
      if (prove === 'confirmation') {
        const signedUp = await signUp(email);
        session = (await verify(await linkIn(email, 'verify-email'), flowOf(signedUp))).json<LoginResult>();
      } else {
        await buildUser(t.ctx.db, { email });
        expect((await post('/api/auth/password-reset', { email })).statusCode).toBe(202);
        const token = await linkIn(email, 'new-password');
        session = (
          await post('/api/auth/new-password', { token, password: 'noa chose this' })
        ).json<LoginResult>();
      }
      expect((await findTicket(t.ctx.db, id))?.user_id, prove).toBe(session.user.id);
      expect(Number((await findTicket(t.ctx.db, id))?.sender_access_until), prove).toBe(0);
      expectApiError(await byCookie(), 404);
      const mine = await t.app.inject({
        url: `/api/portal/issues/${id}`,
        headers: { 'x-auth-token': session.token },
      });
      expect(mine.statusCode, prove).toBe(200);
    }
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

  it(`mails an address ${ACCOUNT_MAILS_PER_ADDRESS} times an hour per client: a stranger cannot spend its owner's`, async () => {
    await buildUser(t.ctx.db, { email: 'flooded@example.com' });
    const stranger = nextClient();
    for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS; i++)
      expect(
        (await post('/api/auth/password-reset', { email: 'flooded@example.com' }, stranger)).statusCode,
      ).toBe(202);
    expectApiError(await post('/api/auth/password-reset', { email: 'Flooded@Example.com ' }, stranger), 429);
    expectApiError(await signUp('flooded@example.com', 'a good password', 'X', stranger), 429);
    // The owner, from their own client, still gets their link.
    expect((await post('/api/auth/password-reset', { email: 'flooded@example.com' })).statusCode).toBe(202);
    await expect.poll(() => mailsTo('flooded@example.com').length).toBe(ACCOUNT_MAILS_PER_ADDRESS + 1);
  });

  it(`mails an address at most ${ACCOUNT_MAILS_PER_ADDRESS_CEILING} times an hour from every client together`, async () => {
    for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS_CEILING; i++)
      expect((await post('/api/auth/password-reset', { email: 'ceiling@example.com' })).statusCode).toBe(202);
    expectApiError(await post('/api/auth/password-reset', { email: 'ceiling@example.com' }), 429);
    expect(await accountMailsTo('ceiling@example.com')).toHaveLength(ACCOUNT_MAILS_PER_ADDRESS_CEILING);
  });

  it(`mails an address past its ceiling to a browser that signed in to its account before, within its own ${ACCOUNT_MAILS_PER_ADDRESS}`, async () => {
    const owner = await buildUser(t.ctx.db, { email: 'filled@example.com' });
    const other = await buildUser(t.ctx.db, { email: 'other-device@example.com' });
    const deviceOf = async (email: string) => {
      const signedIn = await login(email, DEFAULT_PASSWORD);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const cookie = signedIn.cookies.find((c) => c.name === DEVICE_COOKIE);
      return `${DEVICE_COOKIE}=${cookie!.value}`;
    };
    const ownDevice = await deviceOf(owner.email);
    const otherDevice = await deviceOf(other.email);
    for (
      let stranger = 0;
      stranger < ACCOUNT_MAILS_PER_ADDRESS_CEILING / ACCOUNT_MAILS_PER_ADDRESS;
      stranger++
    ) {
      const ip = nextClient();
      for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS; i++)
        expect((await post('/api/auth/password-reset', { email: owner.email }, ip)).statusCode).toBe(202);
    }
    // Browsers that never signed in to the account wait for the hour, another account's included.
    expectApiError(await post('/api/auth/password-reset', { email: owner.email }), 429);
    expectApiError(
      await post('/api/auth/password-reset', { email: owner.email }, nextClient(), undefined, otherDevice),
      429,
    );
    const ownClient = nextClient();
    const asOwner = (url: string, payload: object) => post(url, payload, ownClient, undefined, ownDevice);
    expect((await asOwner('/api/auth/password-reset', { email: owner.email })).statusCode).toBe(202);
    expect(
      (await asOwner('/api/auth/signup', { name: 'Owner', email: owner.email, password: 'a good password' }))
        .statusCode,
    ).toBe(202);
    expect((await asOwner('/api/portal/issue-links', { email: owner.email })).statusCode).toBe(202);
    for (let i = 3; i < ACCOUNT_MAILS_PER_ADDRESS; i++)
      expect((await asOwner('/api/auth/password-reset', { email: owner.email })).statusCode).toBe(202);
    expectApiError(await asOwner('/api/auth/password-reset', { email: owner.email }), 429);
    expect(await accountMailsTo(owner.email)).toHaveLength(
      ACCOUNT_MAILS_PER_ADDRESS_CEILING + ACCOUNT_MAILS_PER_ADDRESS,
    );
  });

  it('takes one address in an email field: no lists, display names, quotes or spaces', async () => {
    const user = await buildUser(t.ctx.db, { email: 'single@example.com' });
    const token = (await login(user.email, DEFAULT_PASSWORD)).json<LoginResult>().token;
    for (const email of [
      'x1,bob@example.com',
      'x2;bob@example.com',
      'Bob <bob@example.com>',
      '<bob@example.com>',
      '"bob"@example.com',
      'bob @example.com',
      'bob@exa mple.com',
      'bob@example.com,eve@example.com',
      'bob\u0007@example.com',
    ]) {
      expectApiError(await post('/api/auth/password-reset', { email }), 400, ['email']);
      expectApiError(await signUp(email), 400, ['email']);
      expectApiError(
        await t.app.inject({
          method: 'PATCH',
          url: '/api/user/me',
          payload: { email, current_password: DEFAULT_PASSWORD },
          headers: { 'x-auth-token': token },
        }),
        400,
        ['email'],
      );
    }
    expect(await accountMailsTo('bob@example.com')).toHaveLength(0);
  });

  it('answers a sign-up alike, after the same work, for a new, a waiting, an invited and a confirmed address', async () => {
    await signUp('was-waiting@example.com');
    await insertUser(t.ctx.db, {
      email: 'was-invited@example.com',
      name: 'Invited',
      password_hash: NO_PASSWORD,
      role: 'customer',
      email_verified_at: null,
    });
    await buildUser(t.ctx.db, { email: 'was-confirmed@example.com' });
    const hash = vi.spyOn(t.ctx.passwords, 'hash');
    const burn = vi.spyOn(t.ctx.passwords, 'burn');
    try {
      const answers = [];
      for (const email of [
        'brand-new@example.com',
        'was-waiting@example.com',
        'was-invited@example.com',
        'was-confirmed@example.com',
      ]) {
        const queued = (await accountMailsTo(email)).length;
        hash.mockClear();
        burn.mockClear();
        const response = await signUp(email, 'a stranger password');
        flowOf(response);
        answers.push({
          email,
          status: response.statusCode,
          body: response.json<MailSentResult>(),
          hashes: hash.mock.calls.length + burn.mock.calls.length,
          queued: (await accountMailsTo(email)).length - queued,
          cookies: [response.headers['set-cookie']].flat().length,
        });
      }
      expect(answers).toEqual(
        answers.map(({ email }) => ({
          email,
          status: 202,
          body: { ok: true, sent_to: email },
          hashes: 1,
          queued: 1,
          cookies: 1,
        })),
      );
    } finally {
      hash.mockRestore();
      burn.mockRestore();
    }
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
    const verified = await verify(await linkIn('grace@example.com', 'verify-email'), flowOf(moved));
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

  it('answers a reset alike, after the same work, for an address with an account and one without, whatever SIGNUP is', async () => {
    for (const mode of ['invite', 'off', 'domains:example.com', 'open']) {
      const smtp = await startMailServer();
      const t = await createTestApp(dialect, {
        SMTP_URL: smtp.url,
        CAPTCHA_PROVIDER: 'none',
        SIGNUP: mode,
        TRUST_PROXY: '1',
      });
      try {
        await buildUser(t.ctx.db, { email: 'known@example.com' });
        const spies = (['hash', 'burn', 'verify'] as const).map((name) => vi.spyOn(t.ctx.passwords, name));
        const answersFor = async (email: string) => {
          const rounds = [];
          for (let i = 0; i <= ACCOUNT_MAILS_PER_ADDRESS; i++) {
            const response = await t.app.inject({
              method: 'POST',
              url: '/api/auth/password-reset',
              payload: { email },
              headers: { 'x-forwarded-for': '10.9.0.1' },
            });
            const body = response.json<Record<string, unknown>>();
            // The address sent to is the one asked for; past the limit there is none. Either way the two compare alike.
            rounds.push({
              status: response.statusCode,
              body: {
                ...body,
                ...('sent_to' in body && { sent_to: body.sent_to === email ? 'the address' : body.sent_to }),
              },
            });
          }
          return { rounds, hashing: spies.map((spy) => spy.mock.calls.length) };
        };
        const queued = async (email: string) =>
          (
            await t.ctx.db
              .selectFrom('account_mails')
              .select('to_address')
              .where('to_address', '=', email)
              .execute()
          ).length;
        const known = await answersFor('known@example.com');
        const unknown = await answersFor('unknown@example.com');
        expect(
          known.rounds.map((round) => round.status),
          mode,
        ).toEqual([202, 202, 202, 202, 202, 429]);
        expect(known.rounds[0]?.body, mode).toEqual({ ok: true, sent_to: 'the address' });
        expect(unknown, mode).toEqual(known);
        expect(await queued('known@example.com')).toBe(ACCOUNT_MAILS_PER_ADDRESS);
        expect(await queued('unknown@example.com')).toBe(ACCOUNT_MAILS_PER_ADDRESS);
        for (const address of ['known@example.com', 'unknown@example.com'])
          await expect
            .poll(() => smtp.mails.filter((mail) => mail.to.includes(address)).length)
            .toBe(ACCOUNT_MAILS_PER_ADDRESS);
        const note = textOf(smtp.mails.find((mail) => mail.to.includes('unknown@example.com'))!.raw);
        expect(note).toContain('has no account');
        expect(note.includes('/signup'), mode).toBe(mode === 'open' || mode.startsWith('domains'));
      } finally {
        await t.close();
        await smtp.close();
      }
    }
  });

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
