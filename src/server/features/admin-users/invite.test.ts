import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser, AdminUserList } from '../../../shared/api/admin.ts';
import type { LoginResult } from '../../../shared/api/auth.ts';
import { makeLinkToken } from '../../accounts/account-links.ts';
import { findUserByEmail } from '../../accounts/users.repository.ts';
import { ACCOUNT_MAILS_PER_ADDRESS } from '../../mail/account-mail.ts';
import { adminAndUserTokens, caller, ok, signIn, type Call } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

type MailServer = Awaited<ReturnType<typeof startMailServer>>;

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())('inviting customers on %s', (dialect) => {
  let t: TestApp;
  let smtp: MailServer;
  let asAdmin: Call;
  let asUser: Call;

  beforeAll(async () => {
    smtp = await startMailServer();
    // Invitations work whatever SIGNUP says, closed sign-up included: that is what they are for.
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, SIGNUP: 'invite', CAPTCHA_PROVIDER: 'none' });
    const tokens = await adminAndUserTokens(t);
    asAdmin = caller(t, tokens.adminToken);
    asUser = caller(t, tokens.userToken);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const invite = (email: string, name = 'Invited Customer') =>
    asAdmin('POST', '/api/admin/invitations', { email, name });
  const accept = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/accept-invite', payload: { token, password } });
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  /** The token of the last invitation mailed to the address, after waiting for the count of mails to reach `count`. */
  const invitationTo = async (address: string, count = 1) => {
    await expect.poll(() => mailsTo(address).length).toBe(count);
    const text = textOf(mailsTo(address).at(-1)!.raw);
    const match = /http:\/\/localhost:3000\/accept-invite#([A-Za-z0-9_.-]+)/.exec(text);
    expect(match, text).not.toBeNull();
    return { token: match![1]!, text };
  };

  it('invites: the mail links to a password, which confirms the email and signs in, once', async () => {
    const invited = await ok<AdminUser>(invite(' Ivy@Example.com ', ' Ivy Invited '));
    expect(invited).toMatchObject({
      email: 'ivy@example.com',
      name: 'Ivy Invited',
      role: 'customer',
      email_verified: false,
      invited: true,
    });
    const { token, text } = await invitationTo('ivy@example.com');
    expect(text).toContain('has made an account for you');
    expect(text).toContain('expires in 7 days');
    // Not usable before it is accepted, whatever is guessed.
    expectApiError(await login('ivy@example.com', ''), 400);
    expectApiError(await login('ivy@example.com', 'any password'), 401);
    // A reset link's endpoint does not take an invitation, nor the other way round.
    expectApiError(
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/new-password',
        payload: { token, password: 'a chosen password' },
      }),
      400,
      ['token'],
    );

    expectApiError(await accept(token, 'short'), 400, ['password']);
    const accepted = await accept(token, 'a chosen password');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const session = accepted.json<LoginResult>();
    expect(session.user).toMatchObject({ email: 'ivy@example.com', name: 'Ivy Invited', role: 'customer' });
    expect(accepted.headers['set-cookie']).toBeDefined();
    const me = await t.app.inject({ url: '/api/user/me', headers: { 'x-auth-token': session.token } });
    expect(me.statusCode).toBe(200);
    expect((await findUserByEmail(t.ctx.db, 'ivy@example.com'))?.email_verified_at).not.toBeNull();

    expectApiError(await accept(token, 'another password'), 400, ['token']);
    expect((await login('ivy@example.com', 'a chosen password')).statusCode).toBe(200);
    expectApiError(await login('ivy@example.com', 'another password'), 401);
  });

  it('lists invitees not yet accepted with their mark, among the customers', async () => {
    await ok(invite('waiting@example.com', 'Waiting'));
    const list = await ok<AdminUserList>(asAdmin('GET', '/api/admin/users?group=customers'));
    const byEmail = new Map(list.items.map((user) => [user.email, user]));
    expect(byEmail.get('waiting@example.com')).toMatchObject({ invited: true, email_verified: false });
    expect(byEmail.get('ivy@example.com')).toMatchObject({ invited: false, email_verified: true });
  });

  it('inviting again mails a fresh link, renames, and either link works until one is used', async () => {
    await ok(invite('again@example.com', 'First Name'));
    const first = await invitationTo('again@example.com', 1);
    const again = await ok<AdminUser>(invite('again@example.com', 'Second Name'));
    expect(again).toMatchObject({ name: 'Second Name', invited: true });
    const second = await invitationTo('again@example.com', 2);
    expect(second.token).not.toBe(first.token);
    const accepted = await accept(second.token, 'the second password');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<LoginResult>().user.name).toBe('Second Name');
    expectApiError(await accept(first.token, 'the first password'), 400, ['token']);
  });

  it('invites a customer who signed up and never confirmed, voiding the password they chose', async () => {
    const pending = await t.ctx.db
      .insertInto('users')
      .values({
        email: 'pending@example.com',
        name: 'Pending',
        password_hash: (await findUserByEmail(t.ctx.db, 'ivy@example.com'))!.password_hash,
        role: 'customer',
        email_verified_at: null,
        created_at: Date.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const invited = await ok<AdminUser>(invite('pending@example.com', 'Pending'));
    expect(invited).toMatchObject({ id: pending.id, invited: true });
    const { token } = await invitationTo('pending@example.com');
    expect((await accept(token, 'my own password')).statusCode).toBe(200);
    expectApiError(await login('pending@example.com', 'a chosen password'), 401);
  });

  it('refuses an email whose account is in use, a team member’s too, and changes nothing', async () => {
    const customer = await buildUser(t.ctx.db, { email: 'active@example.com' });
    const agent = await buildUser(t.ctx.db, { email: 'agent@example.com', role: 'agent' });
    for (const user of [customer, agent]) {
      const refused = expectApiError(await invite(user.email.toUpperCase()), 409, ['email']);
      expect(refused.code).toBe('user_exists');
      expect((await findUserByEmail(t.ctx.db, user.email))?.password_hash).toBe(user.password_hash);
      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    }
    expect(mailsTo('active@example.com')).toHaveLength(0);
    expect(mailsTo('agent@example.com')).toHaveLength(0);
  });

  it('names each field an invitation gets wrong, and makes nothing', async () => {
    expectApiError(await invite('not-an-email', ' '), 400, ['email', 'name']);
    expect(await findUserByEmail(t.ctx.db, 'not-an-email')).toBeUndefined();
  });

  it('takes a link only while it is fresh: a week', async () => {
    await ok(invite('late@example.com', 'Late'));
    const user = (await findUserByEmail(t.ctx.db, 'late@example.com'))!;
    const stale = await makeLinkToken(t.ctx.db, 'invite', user, user.email, Date.now() - 7 * DAY - 1000);
    expectApiError(await accept(stale, 'a late password'), 400, ['token']);
    const fresh = await makeLinkToken(t.ctx.db, 'invite', user, user.email, Date.now() - 6 * DAY);
    expect((await accept(fresh, 'a late password')).statusCode).toBe(200);
  });

  it(`mails one address at most ${ACCOUNT_MAILS_PER_ADDRESS} times an hour`, async () => {
    for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS; i++) await ok(invite('often@example.com', 'Often'));
    expectApiError(await invite('often@example.com', 'Often'), 429);
    await expect.poll(() => mailsTo('often@example.com').length).toBe(ACCOUNT_MAILS_PER_ADDRESS);
  });

  it('is for administrators only', async () => {
    expectApiError(
      await caller(t, undefined)('POST', '/api/admin/invitations', { email: 'x@example.com', name: 'X' }),
      401,
    );
    expectApiError(
      await asUser('POST', '/api/admin/invitations', { email: 'x@example.com', name: 'X' }),
      403,
    );
    const agent = await buildUser(t.ctx.db, { role: 'agent' });
    const asAgent = caller(t, await signIn(t, agent.email));
    expectApiError(
      await asAgent('POST', '/api/admin/invitations', { email: 'x@example.com', name: 'X' }),
      403,
    );
    expect(await findUserByEmail(t.ctx.db, 'x@example.com')).toBeUndefined();
  });
});

describe.each(testDialects())('inviting without mail on %s', (dialect) => {
  it('refuses plainly (403 mail_unavailable) and makes no account', async () => {
    const t = await createTestApp(dialect);
    try {
      const { adminToken } = await adminAndUserTokens(t);
      const response = await caller(t, adminToken)('POST', '/api/admin/invitations', {
        email: 'nomail@example.com',
        name: 'No Mail',
      });
      expect(expectApiError(response, 403).code).toBe('mail_unavailable');
      expect(await findUserByEmail(t.ctx.db, 'nomail@example.com')).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
