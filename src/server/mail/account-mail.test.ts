import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateAccount } from '../accounts/users.repository.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import { buildUser } from '../testing/factories.ts';
import { startMailServer, textOf } from '../testing/mail-server.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../testing/test-context.ts';
import { accountMailRetryDelay, queueAccountMail, sendDueAccountMails } from './account-mail.ts';

type MailServer = Awaited<ReturnType<typeof startMailServer>>;

describe.each(testDialects())('the account mails outbox on %s', (dialect) => {
  let smtp: MailServer;
  let environment: TestEnvironment;
  let ctx: AppContext;

  beforeAll(async () => {
    smtp = await startMailServer();
    // No app, so no worker of its own: the test runs each pass.
    environment = await createTestEnvironment(dialect, { SMTP_URL: smtp.url });
    ctx = await createContext(environment.config);
  });
  afterAll(async () => {
    await ctx?.database.close();
    await environment?.cleanup();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  const rowsTo = (address: string) =>
    ctx.db.selectFrom('account_mails').selectAll().where('to_address', '=', address).execute();

  it('keeps a mail until a pass sends it, retries one the mail server refused, and stores no link', async () => {
    const user = await buildUser(ctx.db, { email: 'queued@example.com' });
    await queueAccountMail(ctx, user.email, { kind: 'reset', userId: user.id });
    expect(mailsTo(user.email)).toHaveLength(0);
    const [row] = await rowsTo(user.email);
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(JSON.parse(row!.mail)).toEqual({ kind: 'reset', userId: user.id });

    smtp.state.rejections = 1;
    const failed = await sendDueAccountMails(ctx);
    expect(failed).toMatchObject([{ id: row!.id, status: 'retry', attempts: 1 }]);
    expect(await sendDueAccountMails(ctx)).toEqual([]);
    const later = Date.now() + accountMailRetryDelay(1);
    expect(await sendDueAccountMails(ctx, later)).toMatchObject([
      { id: row!.id, status: 'sent', attempts: 2 },
    ]);
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(textOf(mailsTo(user.email)[0]!.raw)).toMatch(/http:\/\/localhost:3000\/new-password#[\w.-]+/);
    expect((await rowsTo(user.email))[0]).toMatchObject({ status: 'delivered', last_error: null });
  });

  it('sends each mail once when two servers pass over the outbox together', async () => {
    const other = await createContext(environment.config);
    try {
      for (let i = 0; i < 6; i++) await queueAccountMail(ctx, 'busy@example.com', { kind: 'noRequests' });
      const outcomes = (await Promise.all([sendDueAccountMails(ctx), sendDueAccountMails(other)])).flat();
      expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(6).fill('sent'));
      expect(new Set(outcomes.map((outcome) => outcome.id)).size).toBe(6);
      expect(mailsTo('busy@example.com')).toHaveLength(6);
    } finally {
      await other.database.close();
    }
  });

  it('sends nothing when the account moved on before its mail went out', async () => {
    const user = await buildUser(ctx.db, { email: 'moved-on@example.com' });
    await updateAccount(ctx.db, user.id, { email_verified_at: null });
    await queueAccountMail(ctx, user.email, { kind: 'verify', userId: user.id, binding: null });
    // Confirmed meanwhile (another link, the team): the confirmation has nothing left to do.
    await updateAccount(ctx.db, user.id, { email_verified_at: Date.now() });
    await queueAccountMail(ctx, 'someone-else@example.com', { kind: 'reset', userId: user.id });
    const outcomes = await sendDueAccountMails(ctx);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['skipped', 'skipped']);
    expect(mailsTo(user.email)).toHaveLength(0);
    expect(mailsTo('someone-else@example.com')).toHaveLength(0);
  });
});
