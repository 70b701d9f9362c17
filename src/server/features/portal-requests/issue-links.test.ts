import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailSentResult } from '../../../shared/api/auth.ts';
import { LANGUAGES } from '../../../shared/constants.ts';
import { ACCOUNT_MAILS_PER_ADDRESS } from '../../mail/account-mail.ts';
import { updateBranding } from '../../settings/branding.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser } from '../../testing/factories.ts';
import { startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { buildTicket } from '../../testing/ticket-fixtures.ts';
import { saveTicketLink, TICKET_LINK_LIFETIME_MS } from '../../tickets/index.ts';

const PUBLIC_URL = 'https://help.example.com';

describe.each(testDialects())('a requester without an account asks for new links, on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  // Each ask from an address of its own, so the per-client allowance of one test does not run out in another.
  let client = 0;

  const ask = (payload: object, ip = `10.9.0.${++client}`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/portal/issue-links',
      payload,
      headers: { 'x-forwarded-for': ip },
    });
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  const lastMailTo = async (address: string) => {
    await expect.poll(() => mailsTo(address).length).toBeGreaterThan(0);
    return textOf(mailsTo(address).at(-1)!.raw);
  };
  /** Each request the mail links to: its id and key, in the mail's order. */
  const linksIn = (text: string) =>
    [...text.matchAll(/https:\/\/help\.example\.com\/issues\/(\d+)\?key=([A-Za-z0-9_-]+)/g)].map((m) => ({
      id: Number(m[1]),
      key: m[2]!,
    }));
  const open = (id: number, key: string) => t.app.inject({ url: `/api/portal/issues/${id}?key=${key}` });

  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, {
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      CAPTCHA_PROVIDER: 'none',
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  it('mails a fresh link to each request the email sent without an account, newest first', async () => {
    const hour = 3_600_000;
    const long = Date.now() - TICKET_LINK_LIFETIME_MS - 24 * hour;
    const older = await buildTicket(t.ctx, {
      email: 'Guest.Renew@Example.com',
      title: 'Boiler\nmakes noise',
      targets: [],
      now: long,
    });
    const newer = await buildTicket(t.ctx, {
      email: 'guest.renew@example.com',
      targets: [],
      now: long + hour,
    });
    const expired = await saveTicketLink(t.ctx.db, older.id, 'created', long);
    // The same address with an account: those requests are read by signing in, not by links.
    const owner = await buildUser(t.ctx.db);
    const ownRequest = await buildTicket(t.ctx, {
      email: 'guest.renew@example.com',
      user_id: owner.id,
      targets: [],
    });
    expectApiError(await open(older.id, expired), 404);

    const response = await ask({ email: ' GUEST.renew@example.com ' });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json<MailSentResult>()).toEqual({ ok: true, sent_to: 'guest.renew@example.com' });

    const text = await lastMailTo('guest.renew@example.com');
    const links = linksIn(text);
    expect(links.map((link) => link.id)).toEqual([newer.id, older.id]);
    expect(text).not.toContain(`/issues/${ownRequest.id}`);
    expect(text).toContain('Boiler makes noise\n');
    expect(text).toContain('Each link works for 30 days.');
    for (const { id, key } of links) {
      const opened = await open(id, key);
      expect(opened.statusCode, opened.body).toBe(200);
    }
    // The queued mail kept no key: only the requests and what their keys are for.
    const queued = await t.ctx.db.selectFrom('account_mails').select('mail').execute();
    for (const { key } of links) for (const row of queued) expect(row.mail).not.toContain(key);
    // The key opens its own request only, and the old link stays expired.
    expectApiError(await open(newer.id, links[1]!.key), 404);
    expectApiError(await open(older.id, expired), 404);
  });

  it('answers an email that sent nothing as any other, and mails a note without links', async () => {
    const response = await ask({ email: 'nobody.sent@example.com' });
    expect(response.statusCode).toBe(202);
    expect(response.json<MailSentResult>()).toEqual({ ok: true, sent_to: 'nobody.sent@example.com' });
    const text = await lastMailTo('nobody.sent@example.com');
    expect(text).toContain('none sent without an account were found');
    expect(text).toContain(`${PUBLIC_URL}/login\n`);
    expect(text).not.toContain('/issues/');
  });

  it('lists a request whose address its owner has not taken up by its number and date, never its title', async () => {
    const email = 'typed.by.someone@example.com';
    const sent = Date.UTC(2026, 10, 3, 12);
    // Sent by whoever typed the address: its title is their words, and nobody has taken it up yet.
    const strangers = await buildTicket(t.ctx, {
      email,
      title: 'Your parcel is held: pay the fee at evil.example',
      targets: [],
      now: sent,
      sender_access_until: sent + TICKET_LINK_LIFETIME_MS,
    });
    // Taken up by the address's owner (who opened its link or answered it by mail): their request, titled.
    const takenUp = await buildTicket(t.ctx, {
      email,
      title: 'Thermostat shows E7',
      targets: [],
      now: sent + 3_600_000,
      sender_access_until: 0,
    });
    const lines = {
      en: `Request #${strangers.id}, sent 2026-11-03`,
      ru: `Обращение №${strangers.id} от 2026-11-03`,
      'pt-BR': `Solicitação nº ${strangers.id}, enviada em 2026-11-03`,
      it: `Richiesta n. ${strangers.id}, inviata il 2026-11-03`,
      sk: `Požiadavka č. ${strangers.id} zo dňa 2026-11-03`,
    };
    try {
      for (const lang of LANGUAGES) {
        await updateBranding(t.ctx.db, { lang });
        smtp.mails.length = 0;
        expect((await ask({ email })).statusCode).toBe(202);
        const text = await lastMailTo(email);
        expect(linksIn(text).map((link) => link.id)).toEqual([takenUp.id, strangers.id]);
        expect(text, lang).not.toContain('parcel');
        expect(text, lang).not.toContain('evil.example');
        expect(text, lang).toContain(`${lines[lang]}\n${PUBLIC_URL}/issues/${strangers.id}?key=`);
        expect(text, lang).toContain(`Thermostat shows E7\n${PUBLIC_URL}/issues/${takenUp.id}?key=`);
      }
    } finally {
      await updateBranding(t.ctx.db, { lang: 'en' });
    }
  });

  it(`mails one address at most ${ACCOUNT_MAILS_PER_ADDRESS} times an hour per client, with the account mails`, async () => {
    await buildTicket(t.ctx, { email: 'flooded.guest@example.com', targets: [] });
    const stranger = `10.9.2.${++client}`;
    for (let i = 0; i < ACCOUNT_MAILS_PER_ADDRESS; i++)
      expect((await ask({ email: 'flooded.guest@example.com' }, stranger)).statusCode).toBe(202);
    expectApiError(await ask({ email: 'flooded.guest@example.com' }, stranger), 429);
    // The day's asks share one link a request: asking again, even refused, stores nothing more.
    const rows = await t.ctx.db
      .selectFrom('ticket_links')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    expectApiError(await ask({ email: 'flooded.guest@example.com' }, stranger), 429);
    const again = await t.ctx.db
      .selectFrom('ticket_links')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(again.count)).toBe(Number(rows.count));
    // The address's owner, asking for links or a reset from their own client, is not held by what others asked for.
    expect((await ask({ email: 'flooded.guest@example.com' })).statusCode).toBe(202);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'flooded.guest@example.com' },
      headers: { 'x-forwarded-for': `10.9.1.${++client}` },
    });
    expect(reset.statusCode).toBe(202);
    await expect.poll(() => mailsTo('flooded.guest@example.com').length).toBe(ACCOUNT_MAILS_PER_ADDRESS + 2);
  });

  it('names a bad email and mails nothing', async () => {
    expectApiError(await ask({ email: 'not-an-email' }), 400, ['email']);
    expectApiError(await ask({}), 400, ['email']);
    expect(smtp.mails).toEqual([]);
  });

  it('refuses plainly without mail, and when an external portal holds the requests', async () => {
    for (const [env, code] of [
      [{}, 'mail_unavailable'],
      [{ SMTP_URL: smtp.url, PORTAL_URL: 'https://portal.example.com' }, 'portal_elsewhere'],
    ] as const) {
      const other = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none', ...env });
      try {
        const response = await other.app.inject({
          method: 'POST',
          url: '/api/portal/issue-links',
          payload: { email: 'guest.renew@example.com' },
        });
        expect(expectApiError(response, 403).code).toBe(code);
      } finally {
        await other.close();
      }
    }
    expect(smtp.mails).toEqual([]);
  });
});
