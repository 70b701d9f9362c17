import { Value } from 'typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Paged } from '../../../shared/api/common.ts';
import { PortalTicket, PortalTicketSummary } from '../../../shared/api/portal.ts';
import type { TicketView } from '../../../shared/api/tickets.ts';
import type { UserRow } from '../../db/tables.ts';
import { signIn } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { headerOf, startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { buildTicket } from '../../testing/ticket-fixtures.ts';
import { deliverDue, saveTicketLink } from '../../tickets/index.ts';
import { withinOneHour } from '../../testing/http-client.ts';
import { updateBranding } from '../../settings/branding.ts';

describe.each(testDialects())('a requester follows their requests, on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let agent: UserRow;
  let agentToken: string;
  let ann: UserRow;
  let annToken: string;
  let bobToken: string;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: token === undefined ? {} : { 'x-auth-token': token },
      ...(payload && { payload }),
    });
  const teamReply = async (id: number, body: string, internal = false) => {
    const response = await call('POST', `/api/admin/tickets/${id}/messages`, agentToken, { body, internal });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TicketView>();
  };

  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://help.example.com' });
    agent = await buildUser(t.ctx.db, { role: 'agent', name: 'Dana Desk' });
    ann = await buildUser(t.ctx.db, { name: 'Ann Lee' });
    const bob = await buildUser(t.ctx.db);
    agentToken = await signIn(t, agent.email);
    annToken = await signIn(t, ann.email);
    bobToken = await signIn(t, bob.email);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  it("lists a signed-in requester's own requests, latest activity first, and nobody else's", async () => {
    const hour = 3_600_000;
    const older = await buildTicket(t.ctx, {
      user_id: ann.id,
      title: 'Older',
      targets: [],
      now: Date.now() - 2 * hour,
    });
    const newer = await buildTicket(t.ctx, {
      user_id: ann.id,
      title: 'Newer',
      targets: [],
      now: Date.now() - hour,
    });
    await buildTicket(t.ctx, { title: 'Someone else’s', targets: [] });
    // A reply of the team brings the older request to the top.
    await teamReply(older.id, 'We are on it.');

    const response = await call('GET', '/api/portal/issues', annToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const list = response.json();
    expect(Value.Check(Paged(PortalTicketSummary), list)).toBe(true);
    expect(list.items.map((item: { id: number }) => item.id)).toEqual([older.id, newer.id]);
    expect(list.items[0]).toMatchObject({ title: 'Older', status: 'waiting' });
    expect(list._meta).toEqual({ pageCount: 1, totalCount: 2, currentPage: 1, perPage: 20 });

    expect((await call('GET', '/api/portal/issues', bobToken)).json()._meta.totalCount).toBe(0);
    expectApiError(await call('GET', '/api/portal/issues'), 401);
  });

  it('shows the conversation without the team’s notes, and answers 404 to anyone else', async () => {
    const ticket = await buildTicket(t.ctx, { user_id: ann.id, name: 'Ann Lee', targets: [] });
    await teamReply(ticket.id, 'Please send a photo.');
    await teamReply(ticket.id, 'She is on firmware 2.0.3.', true);

    const response = await call('GET', `/api/portal/issues/${ticket.id}`, annToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const view = response.json<PortalTicket>();
    expect(Value.Check(PortalTicket, view)).toBe(true);
    expect(view.messages.map((m) => [m.author_name, m.from_team, m.body_text])).toEqual([
      ['Dana Desk', true, 'Please send a photo.'],
    ]);
    expect(response.body).not.toContain('2.0.3');
    expect(response.body).not.toContain('assignee');

    expectApiError(await call('GET', `/api/portal/issues/${ticket.id}`, bobToken), 404);
    expectApiError(await call('GET', `/api/portal/issues/${ticket.id}`), 404);
    expectApiError(await call('GET', `/api/portal/issues/${ticket.id}?key=${'a'.repeat(43)}`), 404);
    expectApiError(await call('GET', '/api/portal/issues/999999', annToken), 404);
  });

  it('takes the requester’s reply, brings the request back to the team and mails the assignee', async () => {
    const ticket = await buildTicket(t.ctx, {
      user_id: ann.id,
      name: 'Ann Lee',
      email: ann.email,
      targets: [],
    });
    await call('PATCH', `/api/admin/tickets/${ticket.id}`, agentToken, { assignee_id: agent.id });
    await teamReply(ticket.id, 'Please send a photo.');
    await deliverDue(t.ctx);
    smtp.mails.length = 0;

    const response = await call('POST', `/api/portal/issues/${ticket.id}/messages`, annToken, {
      body: 'Here it is: the display shows E4.',
    });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<PortalTicket>();
    expect(view.status).toBe('open');
    expect(view.messages.at(-1)).toMatchObject({ author_name: 'Ann Lee', from_team: false });

    await deliverDue(t.ctx);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([[agent.email]]);
    const mail = smtp.mails[0]!;
    expect(headerOf(mail.raw, 'Reply-To')).toContain(ann.email);
    expect(headerOf(mail.raw, 'In-Reply-To')).toBe(`<ticket-${ticket.id}@signpost>`);
    expect(textOf(mail.raw)).toContain('Here it is: the display shows E4.');
    expect(textOf(mail.raw)).toContain(`https://help.example.com/admin/requests/${ticket.id}`);

    expectApiError(
      await call('POST', `/api/portal/issues/${ticket.id}/messages`, bobToken, { body: 'Not mine' }),
      404,
    );
    expectApiError(
      await call('POST', `/api/portal/issues/${ticket.id}/messages`, annToken, { body: ' ' }),
      400,
      ['body'],
    );
  });

  it('says what is wrong with a reply in the help centre’s language', async () => {
    const ticket = await buildTicket(t.ctx, { user_id: ann.id, targets: [] });
    await updateBranding(t.ctx.db, { lang: 'ru' });
    try {
      const path = `/api/portal/issues/${ticket.id}`;
      const messageOf = async (response: Awaited<ReturnType<typeof call>>, status: number) =>
        expectApiError(response, status).data.errors[0]?.message;
      expect(await messageOf(await call('POST', `${path}/messages`, annToken, { body: ' ' }), 400)).toBe(
        'Это поле обязательно',
      );
      expect(
        await messageOf(
          await call('POST', `${path}/messages`, annToken, { body: 'See', files: [999999] }),
          400,
        ),
      ).toBe('Файл 999999 не из ваших загрузок или уже отправлен');
      expect(await messageOf(await call('PATCH', path, annToken, { status: 'open' }), 409)).toBe(
        'Сейчас обращение нельзя перевести в этот статус',
      );
    } finally {
      await updateBranding(t.ctx.db, { lang: 'en' });
    }
  });

  it('lets the requester mark a request solved and reopen it, and no other move', async () => {
    const ticket = await buildTicket(t.ctx, { user_id: ann.id, targets: [] });
    const path = `/api/portal/issues/${ticket.id}`;
    expect((await call('PATCH', path, annToken, { status: 'solved' })).json<PortalTicket>().status).toBe(
      'solved',
    );
    expect((await call('PATCH', path, annToken, { status: 'open' })).json<PortalTicket>().status).toBe(
      'open',
    );
    expectApiError(await call('PATCH', path, annToken, { status: 'closed' }), 400, ['status']);
    expectApiError(await call('PATCH', path, bobToken, { status: 'solved' }), 404);
    await call('PATCH', `/api/admin/tickets/${ticket.id}`, agentToken, { status: 'closed' });
    expectApiError(await call('PATCH', path, annToken, { status: 'open' }), 409, ['status']);
    expectApiError(await call('POST', `${path}/messages`, annToken, { body: 'Hello?' }), 409, ['body']);
  });

  it('opens a request sent without an account through its private link', async () => {
    const ticket = await buildTicket(t.ctx, { name: 'Guest', email: 'guest@example.com', targets: [] });
    await teamReply(ticket.id, 'Which model is it?');
    const key = await saveTicketLink(t.ctx.db, ticket.id, 'test', Date.now());

    const path = `/api/portal/issues/${ticket.id}`;
    const view = await call('GET', `${path}?key=${key}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json<PortalTicket>().messages.map((m) => m.body_text)).toEqual(['Which model is it?']);
    const answered = await call('POST', `${path}/messages`, undefined, { body: 'The T-200.', key });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<PortalTicket>().messages.at(-1)).toMatchObject({
      author_name: 'Guest',
      from_team: false,
    });
    expect(
      (await call('PATCH', path, undefined, { status: 'solved', key })).json<PortalTicket>().status,
    ).toBe('solved');
    // The key opens this request only, and a signed-in stranger gains nothing from it either.
    const other = await buildTicket(t.ctx, { targets: [] });
    expectApiError(await call('GET', `/api/portal/issues/${other.id}?key=${key}`), 404);
    expectApiError(await call('POST', `${path}/messages`, bobToken, { body: 'Hi' }), 404);
  });

  it('mails the team, not a former assignee whose role changed, and keeps names with $ as written', async () => {
    const former = await buildUser(t.ctx.db, { role: 'agent', name: 'Former Agent' });
    const ticket = await buildTicket(t.ctx, {
      user_id: ann.id,
      title: 'Price $& tax',
      email: 'price@example.com',
      targets: [],
    });
    await call('PATCH', `/api/admin/tickets/${ticket.id}`, agentToken, { assignee_id: former.id });
    await t.ctx.db.updateTable('users').set({ role: 'customer' }).where('id', '=', former.id).execute();
    await teamReply(ticket.id, 'Which invoice?');
    const answered = await call('POST', `/api/portal/issues/${ticket.id}/messages`, annToken, {
      body: 'No. 7',
    });
    expect(answered.statusCode, answered.body).toBe(200);
    await deliverDue(t.ctx);
    const toRequester = smtp.mails.find((mail) => mail.to.includes('price@example.com'));
    const toTeam = smtp.mails.find((mail) => textOf(mail.raw).includes('No. 7'));
    expect(textOf(toRequester!.raw)).toContain('replied to your request “Price $& tax”');
    // No SUPPORT_EMAIL here: the whole team hears of it, the former agent not.
    expect(toTeam!.to).toContain(agent.email);
    expect(toTeam!.to).not.toContain(former.email);
  });

  it('never sends an internal note, whatever queued it', async () => {
    const ticket = await buildTicket(t.ctx, { user_id: ann.id, targets: [] });
    const note = await teamReply(ticket.id, 'Internal only', true);
    const noteId = note.messages.at(-1)!.id;
    await t.ctx.db
      .insertInto('outbox')
      .values({
        ticket_id: ticket.id,
        kind: 'message',
        message_id: noteId,
        target: 'requester',
        status: 'pending',
        attempts: 0,
        next_attempt_at: Date.now(),
        created_at: Date.now(),
      })
      .execute();
    const outcomes = await deliverDue(t.ctx);
    expect(outcomes).toEqual([
      expect.objectContaining({ status: 'retry', error: `message ${noteId} is an internal note` }),
    ]);
    expect(smtp.mails).toEqual([]);
  });
});

describe.each(testDialects())("a requester's answers and the hourly request limit, on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { REQUESTS_PER_HOUR: '1', CAPTCHA_PROVIDER: 'none' });
  });
  afterAll(async () => t?.close());

  it('counts answers apart from new requests, so a requester can keep answering the team', async () => {
    await withinOneHour(async (attempt) => {
      const address = { 'x-forwarded-for': `10.7.${attempt}.1` };
      const user = await buildUser(t.ctx.db);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      });
      const headers = { ...address, 'x-auth-token': login.json<{ token: string }>().token };
      const request = { title: 'Heating', description: 'Cold.', name: user.name, email: user.email };
      const sent = await t.app.inject({
        method: 'POST',
        url: '/panel/api/issue-open',
        headers,
        payload: request,
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const id = sent.json<{ data: { id: number } }>().data.id;
      // The hour's one request is spent...
      const second = await t.app.inject({
        method: 'POST',
        url: '/panel/api/issue-open',
        headers,
        payload: request,
      });
      expect(second.statusCode).toBe(429);
      // ...and the requester still answers in their conversation.
      for (let i = 0; i < 3; i++) {
        const answered = await t.app.inject({
          method: 'POST',
          url: `/api/portal/issues/${id}/messages`,
          headers,
          payload: { body: `Answer ${i}` },
        });
        expect(answered.statusCode, answered.body).toBe(200);
      }
    });
  });
});
