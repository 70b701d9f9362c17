import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PortalTicket } from '../../../shared/api/portal.ts';
import type { IssueOpenResult, TicketView } from '../../../shared/api/tickets.ts';
import { LANGUAGES } from '../../../shared/constants.ts';
import type { UserRow } from '../../db/tables.ts';
import { signIn } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser } from '../../testing/factories.ts';
import { headerOf, startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { issueOpenBody, OPEN_REQUESTS_CONFIG } from '../../testing/ticket-fixtures.ts';
import { deliverDue, mailKeyOf, processMail } from '../../tickets/index.ts';
import type { AppContext } from '../../context.ts';
import { getMyRequest } from './portal-requests.service.ts';

/** A query builder whose query runs only once `first` has: every builder it leads to is held the same way. */
function runsAfter<T extends object>(builder: T, first: () => Promise<unknown>): T {
  return new Proxy(builder, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'execute')
        return async (...args: unknown[]) => {
          await first();
          return value.apply(target, args);
        };
      return (...args: unknown[]) => {
        const next: unknown = value.apply(target, args);
        return typeof next === 'object' && next !== null && 'execute' in next ? runsAfter(next, first) : next;
      };
    },
  });
}

const TITLE = 'Your parcel is held: pay the fee at evil.example';
const DESCRIPTION = 'Answer this mail with your card number and your password.';

describe.each(testDialects())('a request sent for an address nobody proved, on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let agentToken: string;

  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, {
      ...OPEN_REQUESTS_CONFIG,
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@example.com',
      PUBLIC_URL: 'https://help.example.com',
    });
    const agent = await buildUser(t.ctx.db, { role: 'agent', name: 'Dana Desk' });
    agentToken = await signIn(t, agent.email);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  /** A stranger's request for someone's address: its answer, and the Cookie header their browser would send. */
  async function strangersRequest(email: string, headers: Record<string, string> = {}) {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      headers,
      payload: issueOpenBody({ title: TITLE, description: DESCRIPTION, name: 'Parcel Service', email }),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const answer = sent.json<IssueOpenResult>();
    const setCookie = [sent.headers['set-cookie'] ?? []].flat();
    const cookie = setCookie[0]?.split(';')[0] ?? '';
    return { id: answer.data.id, answer, setCookie, cookie };
  }

  /** The receipt mailed to the address, and the private link in it. */
  async function receiptTo(email: string) {
    await deliverDue(t.ctx);
    const mail = smtp.mails.find((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
    expect(mail, `a receipt to ${email}`).toBeDefined();
    const text = textOf(mail!.raw);
    const link = /https:\/\/help\.example\.com(\/issues\/\d+\?key=[A-Za-z0-9_-]{43})/.exec(text)?.[1];
    return { mail: mail!, text, link };
  }

  const open = (id: number, cookie: string) =>
    t.app.inject({ url: `/api/portal/issues/${id}`, headers: { cookie } });

  it('answers no private link, and sets a cookie for that request’s page and calls alone', async () => {
    const { id, answer, setCookie, cookie } = await strangersRequest('victim1@example.com');
    expect(answer.link).toBeNull();
    expect(setCookie).toHaveLength(2);
    for (const [header, path] of [
      [setCookie[0]!, `/issues/${id}`],
      [setCookie[1]!, `/api/portal/issues/${id}`],
    ] as const) {
      expect(header).toMatch(new RegExp(`^signpost_request_${id}=[A-Za-z0-9_-]{43}; `));
      expect(header.split('; ')).toEqual(
        expect.arrayContaining([`Path=${path}`, 'HttpOnly', 'SameSite=Strict', 'Secure']),
      );
      expect(header).toMatch(/; Max-Age=259\d{4}; /);
    }

    // The cookie opens the request's page and its calls: read, reply, mark solved.
    const view = await open(id, cookie);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json<PortalTicket>()).toMatchObject({ id, title: TITLE, description: DESCRIPTION });
    const replied = await t.app.inject({
      method: 'POST',
      url: `/api/portal/issues/${id}/messages`,
      headers: { cookie },
      payload: { body: 'One more thing.' },
    });
    expect(replied.statusCode, replied.body).toBe(200);
    const solved = await t.app.inject({
      method: 'PATCH',
      url: `/api/portal/issues/${id}`,
      headers: { cookie },
      payload: { status: 'solved' },
    });
    expect(solved.json<PortalTicket>().status).toBe('solved');
    expect((await t.app.inject({ url: `/issues/${id}`, headers: { cookie } })).statusCode).toBe(200);

    // Not another request, whichever name its value is sent under; not without it; not a made-up one.
    const other = await strangersRequest('victim2@example.com');
    const value = cookie.split('=')[1]!;
    expectApiError(await open(other.id, `signpost_request_${other.id}=${value}`), 404);
    expectApiError(await open(other.id, cookie), 404);
    expectApiError(await open(id, ''), 404);
    expectApiError(await open(id, `signpost_request_${id}=${'A'.repeat(43)}`), 404);
    expect((await open(other.id, other.cookie)).statusCode).toBe(200);
  });

  it('mails the address a receipt with none of the sender’s words, and the private link', async () => {
    const { id } = await strangersRequest('victim3@example.com');
    const { mail, text, link } = await receiptTo('victim3@example.com');
    for (const words of [TITLE, DESCRIPTION, 'Parcel Service', 'evil.example', 'card number'])
      expect(mail.raw, words).not.toContain(words);
    expect(headerOf(mail.raw, 'Subject')).toBe(`Request #${id} received`);
    expect(text).toContain('We have received a support request that gave this email address.');
    expect(text).toContain('If it was not you, ignore this email.');
    expect(link).toMatch(new RegExp(`^/issues/${id}\\?key=`));
    // The link the address's owner got opens it.
    const opened = await t.app.inject({ url: `/api/portal/issues/${id}?${link!.split('?')[1]}` });
    expect(opened.statusCode, opened.body).toBe(200);
  });

  it('quotes the request to a signed-in sender whose confirmed email it names, and not to anyone else signed in', async () => {
    const owner: UserRow = await buildUser(t.ctx.db, { email: 'owner@example.com' });
    await t.ctx.db
      .updateTable('users')
      .set({ email_verified_at: Date.now() })
      .where('id', '=', owner.id)
      .execute();
    const ownerToken = await signIn(t, owner.email);
    const proved = await strangersRequest('Owner@Example.com', { 'x-auth-token': ownerToken });
    expect(proved.answer.link).toBe(`/issues/${proved.id}`);
    expect(proved.setCookie).toEqual([]);
    const quoted = await receiptTo('Owner@Example.com');
    expect(headerOf(quoted.mail.raw, 'Subject')).toBe(TITLE);
    expect(quoted.text).toContain(DESCRIPTION);

    // An account naming another address (or its own, unconfirmed) proves nothing: the receipt is neutral, the link
    // goes to the address, and once its owner opens it the sender's account opens the request no more.
    smtp.mails.length = 0;
    const stranger = await buildUser(t.ctx.db, { email: 'stranger@example.com' });
    const strangerToken = await signIn(t, stranger.email);
    const unproved = await strangersRequest('victim4@example.com', { 'x-auth-token': strangerToken });
    const neutral = await receiptTo('victim4@example.com');
    expect(neutral.mail.raw).not.toContain(DESCRIPTION);
    const asStranger = () =>
      t.app.inject({ url: `/api/portal/issues/${unproved.id}`, headers: { 'x-auth-token': strangerToken } });
    const listed = async () =>
      (await t.app.inject({ url: '/api/portal/issues', headers: { 'x-auth-token': strangerToken } })).json<{
        items: { id: number }[];
        _meta: { totalCount: number };
      }>();
    expect((await asStranger()).statusCode).toBe(200);
    expect((await listed()).items.map((item) => item.id)).toContain(unproved.id);
    expect(
      (await t.app.inject({ url: `/api/portal/issues/${unproved.id}?${neutral.link!.split('?')[1]}` }))
        .statusCode,
    ).toBe(200);
    expectApiError(await asStranger(), 404);
    // Nor does their list show it any more: not its title, not that its owner acted on it.
    const after = await listed();
    expect(after.items.map((item) => item.id)).not.toContain(unproved.id);
    expect(after._meta.totalCount).toBe(after.items.length);
  });

  it('stops opening the request by the cookie once the address’s owner opens the mailed link', async () => {
    const { id, cookie } = await strangersRequest('victim5@example.com');
    const { link } = await receiptTo('victim5@example.com');
    expect((await open(id, cookie)).statusCode).toBe(200);
    // The owner reads it, then answers in the page with the key.
    const key = link!.split('key=')[1]!;
    expect((await t.app.inject({ url: `/issues/${id}?key=${key}` })).statusCode).toBe(200);
    const answered = await t.app.inject({
      method: 'POST',
      url: `/api/portal/issues/${id}/messages`,
      payload: { body: 'Not me. My card is 4111 1111 1111 1111.', key },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expectApiError(await open(id, cookie), 404);
    const page = await t.app.inject({ url: `/issues/${id}`, headers: { cookie } });
    expect(page.body).not.toContain('4111');
  });

  it('stops opening the request by the cookie once the address’s owner answers by mail, which the sender never reads', async () => {
    const { id, cookie } = await strangersRequest('victim6@example.com');
    const { mail } = await receiptTo('victim6@example.com');
    // The team answers before the owner does: the sender still follows the request so far.
    const team = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${id}/messages`,
      headers: { 'x-auth-token': agentToken },
      payload: { body: 'Which parcel do you mean?' },
    });
    expect(team.json<TicketView>().messages).toHaveLength(1);
    expect((await open(id, cookie)).json<PortalTicket>().messages).toHaveLength(1);

    const receiptId = headerOf(mail.raw, 'Message-ID')!;
    const answer = [
      'From: Victim <victim6@example.com>',
      'To: support@example.com',
      'Subject: Re: your request',
      `Message-ID: <answer-${id}@mail.example.net>`,
      `In-Reply-To: ${receiptId}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'My card number is 4111 1111 1111 1111 and my password is hunter2.',
    ].join('\r\n');
    const outcome = await processMail(
      t.ctx,
      1,
      mailKeyOf(`<answer-${id}@mail.example.net>`, 'x'),
      Buffer.from(answer),
    );
    expect(outcome).toMatchObject({ outcome: 'stored', ticketId: id });
    const agentView = await t.app.inject({
      url: `/api/admin/tickets/${id}`,
      headers: { 'x-auth-token': agentToken },
    });
    // The owner's answer, in the owner's name, is the team's to read.
    expect(agentView.json<TicketView>().messages.at(-1)).toMatchObject({
      author_name: 'Victim',
      body_text: 'My card number is 4111 1111 1111 1111 and my password is hunter2.',
    });
    expectApiError(await open(id, cookie), 404);
    for (const method of ['POST', 'PATCH'] as const) {
      const call = await t.app.inject({
        method,
        url: `/api/portal/issues/${id}${method === 'POST' ? '/messages' : ''}`,
        headers: { cookie },
        payload: method === 'POST' ? { body: 'Show me.' } : { status: 'solved' },
      });
      expectApiError(call, 404);
    }
  });

  it('never shows the sender an answer by mail that lands while the thread is being read', async () => {
    const { id, cookie } = await strangersRequest('victim8@example.com');
    const { mail } = await receiptTo('victim8@example.com');
    const answer = [
      'From: Victim <victim8@example.com>',
      'To: support@example.com',
      'Subject: Re: your request',
      `Message-ID: <answer-${id}@mail.example.net>`,
      `In-Reply-To: ${headerOf(mail.raw, 'Message-ID')!}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'My card number is 4111 1111 1111 1111.',
    ].join('\r\n');
    // The same database, where the owner's answer is stored after the sender's access was checked and before the
    // thread is read: the moment a sender polling the page could hit.
    let answered: Promise<unknown> | undefined;
    const answerFirst = () =>
      (answered ??= processMail(
        t.ctx,
        1,
        mailKeyOf(`<answer-${id}@mail.example.net>`, 'x'),
        Buffer.from(answer),
      ));
    const db = new Proxy(t.ctx.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== 'selectFrom' || typeof value !== 'function') return value;
        return (table: string) => {
          const builder: object = value.call(target, table);
          return table === 'ticket_messages' ? runsAfter(builder, answerFirst) : builder;
        };
      },
    });
    const read = getMyRequest({ ...t.ctx, db } as AppContext, id, {
      user: null,
      key: undefined,
      visitorKey: null,
      senderCookie: cookie.split('=')[1],
    });
    await expect(read).rejects.toMatchObject({ status: 404 });
    expect(await answered).toMatchObject({ outcome: 'stored', ticketId: id });
    expectApiError(await open(id, cookie), 404);
  });

  it('mails the team’s replies by the request’s number to the bare address until its owner takes it up, then by its title', async () => {
    const { id } = await strangersRequest('victim7@example.com');
    const { link } = await receiptTo('victim7@example.com');
    /** The team answers; the mail the address gets for it. */
    const teamReply = async (body: string) => {
      smtp.mails.length = 0;
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/admin/tickets/${id}/messages`,
        headers: { 'x-auth-token': agentToken },
        payload: { body },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      await deliverDue(t.ctx);
      const mail = smtp.mails.find((m) => m.to.includes('victim7@example.com'));
      expect(mail, `a reply to victim7@example.com: ${body}`).toBeDefined();
      return { raw: mail!.raw, text: textOf(mail!.raw), subject: headerOf(mail!.raw, 'Subject') };
    };

    const first = await teamReply('Which parcel do you mean?');
    expect(first.subject).toBe(`Re: Request #${id}`);
    expect(headerOf(first.raw, 'To')).toBe('victim7@example.com');
    expect(first.text).toContain(
      `Dana Desk replied to support request #${id}, which gave this email address:`,
    );
    for (const words of [TITLE, 'Parcel Service', 'evil.example'])
      expect(first.raw, words).not.toContain(words);
    const subjects = {
      ru: `Re: Обращение №${id}`,
      'pt-BR': `Re: Solicitação nº ${id}`,
      it: `Re: Richiesta n. ${id}`,
      sk: `Re: Požiadavka č. ${id}`,
    };
    for (const lang of LANGUAGES.filter((lang) => lang !== 'en')) {
      await t.ctx.db.updateTable('tickets').set({ lang }).where('id', '=', id).execute();
      const reply = await teamReply(`In ${lang}`);
      expect(reply.subject, lang).toBe(subjects[lang]);
      expect(reply.text, lang).toContain('Dana Desk');
      expect(reply.text, lang).toContain(String(id));
      for (const words of [TITLE, 'Parcel Service'])
        expect(reply.raw, `${lang}: ${words}`).not.toContain(words);
    }
    await t.ctx.db.updateTable('tickets').set({ lang: 'en' }).where('id', '=', id).execute();

    // The address's owner opens the mailed link: the request is theirs, and its mails say what it is about.
    expect(
      (await t.app.inject({ url: `/api/portal/issues/${link!.replace('/issues/', '')}` })).statusCode,
    ).toBe(200);
    const taken = await teamReply('We found it.');
    expect(taken.subject).toBe(`Re: ${TITLE}`);
    expect(headerOf(taken.raw, 'To')).toContain('Parcel Service');
    expect(taken.text).toContain(`Dana Desk replied to your request “${TITLE}”:`);
  });
});
