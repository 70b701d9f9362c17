import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TicketView } from '../../../shared/api/tickets.ts';
import type { UserRow } from '../../db/tables.ts';
import { signIn } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { attachmentsOf, headerOf, htmlOf, startMailServer, textOf } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { buildTicket, buildUpload } from '../../testing/ticket-fixtures.ts';
import { deliverDue, isTicketLink, replyTokenFor, saveTicketLink, userKey } from '../../tickets/index.ts';

/** A webhook receiver on loopback that keeps every body it is sent. */
async function startReceiver() {
  const bodies: { event: string; message?: { body_text: string; from_team: boolean } }[] = [];
  const keys: string[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      keys.push(String(request.headers['idempotency-key']));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDialects())('the team answers a request, on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let agent: UserRow;
  let agentToken: string;
  let customerToken: string;

  const reply = (id: number, payload: object, token = agentToken) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${id}/messages`,
      headers: { 'x-auth-token': token },
      payload,
    });

  beforeAll(async () => {
    smtp = await startMailServer();
    receiver = await startReceiver();
    t = await createTestApp(dialect, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Help <help@example.com>',
      TICKET_WEBHOOK_URL: receiver.url,
      PUBLIC_URL: 'https://help.example.com',
      CAPTCHA_PROVIDER: 'none',
    });
    agent = await buildUser(t.ctx.db, { role: 'agent', name: 'Dana Desk' });
    const customer = await buildUser(t.ctx.db);
    agentToken = await signIn(t, agent.email);
    customerToken = await signIn(t, customer.email);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
    receiver.bodies.length = 0;
    receiver.keys.length = 0;
  });

  it('mails a reply to the requester in their language, threaded under the request, with a private link', async () => {
    const ticket = await buildTicket(t.ctx, {
      title: 'Термостат не греет',
      email: 'ivan@example.com',
      name: 'Иван',
      lang: 'ru',
      targets: [],
    });
    const response = await reply(ticket.id, { body: 'Попробуйте сбросить.\n\nЕсли не поможет — напишите.' });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<TicketView>();
    expect(Value.Check(TicketView, view)).toBe(true);
    expect(view.status).toBe('waiting');
    expect(view.messages).toEqual([
      expect.objectContaining({
        author_name: 'Dana Desk',
        from_team: true,
        internal: false,
        body_text: 'Попробуйте сбросить.\n\nЕсли не поможет — напишите.',
        body_html: '<p>Попробуйте сбросить.</p><p>Если не поможет — напишите.</p>',
        files: [],
      }),
    ]);
    expect(Date.parse(view.updated_at)).toBeGreaterThan(Number(ticket.created_at));
    expect(view.deliveries.map((d) => [d.target, d.message_id])).toEqual([
      ['requester', view.messages[0]!.id],
      ['webhook', view.messages[0]!.id],
    ]);

    const outcomes = await deliverDue(t.ctx);
    expect(outcomes.map((o) => o.status)).toEqual(['delivered', 'delivered']);
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(['ivan@example.com']);
    expect(headerOf(mail.raw, 'Subject')).toBe('Re: Термостат не греет');
    expect(headerOf(mail.raw, 'In-Reply-To')).toBe(`<ticket-${ticket.id}@signpost>`);
    expect(headerOf(mail.raw, 'References')).toBe(`<ticket-${ticket.id}@signpost>`);
    // Signed for this mail and its recipient, which an answer by mail brings back in its In-Reply-To.
    const token = await replyTokenFor(t.ctx.db, ticket.id, `message-${view.messages[0]!.id}`, ticket.email);
    expect(headerOf(mail.raw, 'Message-ID')).toBe(
      `<ticket-${ticket.id}-message-${view.messages[0]!.id}.${token}@signpost>`,
    );
    const text = textOf(mail.raw);
    expect(text).toContain('Dana Desk ответил(а) на ваше обращение «Термостат не греет»:');
    expect(text).toContain('Попробуйте сбросить.');
    // The conversation's page in this server's portal, with the private key of a request sent without an account.
    expect(text).toContain('Вся переписка и ответ на неё — здесь:');
    const link = new RegExp(
      `https://help\\.example\\.com/issues/${ticket.id}\\?key=([A-Za-z0-9_-]{43})`,
    ).exec(text);
    expect(link, text).not.toBeNull();
    const opened = await t.app.inject({ url: `/api/portal/issues/${ticket.id}?key=${link![1]}` });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<{ messages: unknown[] }>().messages).toHaveLength(1);
    const page = await t.app.inject({ url: `/issues/${ticket.id}?key=${link![1]}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    // Without SUPPORT_EMAIL an answer by mail would reach nobody, so the mail does not invite one.
    expect(text).not.toContain('ответьте на это письмо');
    expect(headerOf(mail.raw, 'Reply-To')).toBeUndefined();

    expect(receiver.bodies).toEqual([
      expect.objectContaining({
        event: 'ticket.replied',
        message: expect.objectContaining({ body_text: view.messages[0]!.body_text, from_team: true }),
      }),
    ]);
    expect(receiver.keys).toEqual([`ticket-${ticket.id}-message-${view.messages[0]!.id}-webhook`]);
  });

  it('takes a reply written as rich text: sanitised, mailed as HTML beside its text, shown as written', async () => {
    const ticket = await buildTicket(t.ctx, { email: 'rita@example.com', name: 'Rita', targets: [] });
    const response = await reply(ticket.id, {
      body_html:
        '<p>Hello <strong>Rita</strong>,</p><ol><li><p>Unplug it</p></li></ol>' +
        '<p>See <a href="https://example.com/guide">the guide</a>.</p>' +
        '<script>alert(1)</script><p onclick="steal()">Thanks</p>',
    });
    expect(response.statusCode, response.body).toBe(200);
    const message = response.json<TicketView>().messages[0]!;
    expect(message.body_html).toContain('<strong>Rita</strong>');
    expect(message.body_html).toContain('<a href="https://example.com/guide">the guide</a>');
    expect(message.body_html).not.toMatch(/script|onclick|steal/);
    expect(message.body_text).toBe(
      'Hello Rita,\n\n- Unplug it\n\nSee the guide (https://example.com/guide).\n\nThanks',
    );
    await deliverDue(t.ctx);
    const mail = smtp.mails.find((m) => m.to.includes('rita@example.com'))!;
    expect(textOf(mail.raw)).toContain('See the guide (https://example.com/guide).');
    const html = htmlOf(mail.raw);
    expect(html).toContain('<strong>Rita</strong>');
    expect(html).toContain('<a href="https://example.com/guide">the guide</a>');
    expect(html).not.toMatch(/<script|onclick/);

    // Markup with no text is nothing to send.
    const empty = await reply(ticket.id, { body_html: '<p><br></p>' });
    expectApiError(empty, 400, ['body_html']);
    expectApiError(await reply(ticket.id, {}), 400, ['body']);
  });

  it("attaches the reply's files to the mail, and each file goes with one message only", async () => {
    const owner = await buildUser(t.ctx.db);
    const ticket = await buildTicket(t.ctx, { user_id: owner.id, email: owner.email, targets: [] });
    const mine = await buildUpload(t.ctx, 'steps.txt', 'first, second', userKey(agent.id));
    const response = await reply(ticket.id, { body: 'See the steps attached.', files: [mine.id] });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<TicketView>();
    expect(view.files).toEqual([]);
    expect(view.messages[0]!.files).toEqual([
      {
        id: mine.id,
        original_name: 'steps.txt',
        file_size: 13,
        link: expect.stringMatching(/^\/api\/ticket-files\//),
      },
    ]);
    // The team downloads it by its signed link, without a header the browser could not send on a plain link.
    const download = await t.app.inject({ url: view.messages[0]!.files[0]!.link });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('first, second');
    await deliverDue(t.ctx);
    expect(attachmentsOf(smtp.mails[0]!.raw).get('steps.txt')?.toString()).toBe('first, second');
    expectApiError(await reply(ticket.id, { body: 'Again', files: [mine.id] }), 400, ['files']);
  });

  it('keeps an internal note inside the team: no mail, no webhook, and a new request opens', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const response = await reply(ticket.id, { body: 'Customer is on the old firmware.', internal: true });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<TicketView>();
    expect(view.status).toBe('open');
    expect(view.messages.map((m) => m.internal)).toEqual([true]);
    expect(view.deliveries).toEqual([]);
    expect(await deliverDue(t.ctx)).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });

  it('leaves the request in the status asked for, by the allowed moves only; a closed one takes no message', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const solved = await reply(ticket.id, { body: 'Fixed in 2.1.', status: 'solved' });
    expect(solved.json<TicketView>().status).toBe('solved');
    expectApiError(await reply(ticket.id, { body: 'Hm', status: 'new' }), 409, ['status']);
    const closed = await reply(ticket.id, { body: 'Closing.', status: 'closed' });
    expect(closed.json<TicketView>().status).toBe('closed');
    expectApiError(await reply(ticket.id, { body: 'One more thing' }), 409, ['body']);
    const messages = await t.ctx.db
      .selectFrom('ticket_messages')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .execute();
    expect(messages).toHaveLength(2);
  });

  it('refuses bad replies by field, and anyone off the team, storing nothing', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const someoneElses = await buildUpload(t.ctx, 'theirs.txt', 'x');
    expectApiError(await reply(ticket.id, { body: '  \n ' }), 400, ['body']);
    expectApiError(await reply(ticket.id, { body: '' }), 400, ['body']);
    expectApiError(await reply(ticket.id, { body: 'x'.repeat(20_001) }), 400, ['body']);
    expectApiError(await reply(ticket.id, { body: 'Hi', files: [someoneElses.id] }), 400, ['files']);
    expectApiError(await reply(ticket.id, { body: 'Hi', status: 'lost' }), 400, ['status']);
    expectApiError(await reply(ticket.id, { body: 'Hi', cc: 'x@example.com' }), 400, ['cc']);
    expectApiError(await reply(ticket.id, { body: 'Hi' }, customerToken), 403);
    expectApiError(await reply(ticket.id, { body: 'Hi' }, 'not-a-token'), 401);
    expectApiError(await reply(999_999, { body: 'Hi' }), 404);
    const messages = await t.ctx.db
      .selectFrom('ticket_messages')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .execute();
    expect(messages).toEqual([]);
    const after = await t.ctx.db
      .selectFrom('tickets')
      .select('status')
      .where('id', '=', ticket.id)
      .executeTakeFirst();
    expect(after?.status).toBe('new');
  });

  it('names the team to give a request to, for agents too, and for nobody else', async () => {
    const admin = await buildUser(t.ctx.db, { role: 'admin', name: 'Ada Admin' });
    const response = await t.app.inject({ url: '/api/admin/team', headers: { 'x-auth-token': agentToken } });
    expect(response.statusCode, response.body).toBe(200);
    const { items } = response.json<{ items: { id: number; name: string; role: string }[] }>();
    expect(items).toContainEqual({ id: admin.id, name: 'Ada Admin', role: 'admin' });
    expect(items).toContainEqual({ id: agent.id, name: 'Dana Desk', role: 'agent' });
    expect(items.every((member) => member.role !== 'customer')).toBe(true);
    expectApiError(
      await t.app.inject({ url: '/api/admin/team', headers: { 'x-auth-token': customerToken } }),
      403,
    );
  });

  it('opens a request by a private link whose key is never stored, for 30 days, and no other request', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const made = Date.now();
    const key = await saveTicketLink(t.ctx.db, ticket.id, 'message:1', made);
    expect(await saveTicketLink(t.ctx.db, ticket.id, 'message:1', made)).toBe(key);
    expect(await isTicketLink(t.ctx.db, ticket.id, key)).toBe(true);
    expect(await isTicketLink(t.ctx.db, ticket.id + 1, key)).toBe(false);
    expect(await isTicketLink(t.ctx.db, ticket.id, key, made + 31 * 24 * 3600 * 1000)).toBe(false);
    expect(await isTicketLink(t.ctx.db, ticket.id, `${key.slice(0, -1)}x`)).toBe(false);
    const stored = await t.ctx.db.selectFrom('ticket_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it('sends an upload with one of two replies sent at once, and refuses the other whole', async () => {
    // Notes on an open request leave its status as it is, so only the file can stop the second.
    const ticket = await buildTicket(t.ctx, { targets: [], status: 'open' });
    const shared = await buildUpload(t.ctx, 'log.txt', 'boot', userKey(agent.id));
    const answers = await Promise.all([
      reply(ticket.id, { body: 'First', files: [shared.id], internal: true }),
      reply(ticket.id, { body: 'Second', files: [shared.id], internal: true }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses[0]).toBe(200);
    // Refused by the check (400) or, when both passed it, by the file's unique index (409); never a 500.
    expect([400, 409]).toContain(statuses[1]);
    const refused = answers.find((answer) => answer.statusCode !== 200)!;
    expectApiError(refused, refused.statusCode, ['files']);
    const messages = await t.ctx.db
      .selectFrom('ticket_messages')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .execute();
    expect(messages).toHaveLength(1);
  });

  it('tells the webhook of a change of status on its own, once, and of no change of assignee', async () => {
    const ticket = await buildTicket(t.ctx, { title: 'Status story', targets: [] });
    const patch = (payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/tickets/${ticket.id}`,
        headers: { 'x-auth-token': agentToken },
        payload,
      });
    expect((await patch({ assignee_id: agent.id })).statusCode).toBe(200);
    expect((await patch({ status: 'solved' })).statusCode).toBe(200);
    // A reply with a chosen status tells it too; the reply's own event says the rest.
    expect((await reply(ticket.id, { body: 'Reopening to ask one thing.', status: 'open' })).statusCode).toBe(
      200,
    );
    await deliverDue(t.ctx);
    const events = (
      receiver.bodies as unknown as { event: string; status?: string; ticket: { id: number } }[]
    )
      .filter((body) => body.ticket.id === ticket.id)
      .map((body) => [body.event, body.status ?? null]);
    expect(events).toEqual([
      ['ticket.status_changed', 'solved'],
      ['ticket.replied', null],
      ['ticket.status_changed', 'open'],
    ]);
    expect(receiver.keys.filter((key) => key.startsWith(`ticket-${ticket.id}-status-`))).toEqual([
      `ticket-${ticket.id}-status-1-webhook`,
      `ticket-${ticket.id}-status-2-webhook`,
    ]);
    // The request's own deliveries, as the team sees them, are not the status events.
    const view = (
      await t.app.inject({ url: `/api/admin/tickets/${ticket.id}`, headers: { 'x-auth-token': agentToken } })
    ).json<TicketView>();
    expect(view.deliveries.every((d) => d.message_id === null || d.message_id > 0)).toBe(true);
  });

  it('mails a new request to every member of the team when SMTP_URL is set without SUPPORT_EMAIL', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: {
        title: 'Door sensor offline',
        description: 'Since the update.',
        name: 'Lia',
        email: 'lia@example.com',
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json<{ data: { id: number } }>().data.id;
    const rows = await t.ctx.db
      .selectFrom('outbox')
      .select('target')
      .where('ticket_id', '=', id)
      .orderBy('target')
      .execute();
    expect(rows.map((row) => row.target)).toEqual(['requester', 'team', 'webhook']);
    await deliverDue(t.ctx);
    const mail = smtp.mails.find(
      (m) => headerOf(m.raw, 'Subject') === 'Door sensor offline' && m.to.includes(agent.email),
    );
    expect(headerOf(mail!.raw, 'Reply-To')).toContain('lia@example.com');
    expect(textOf(mail!.raw)).toContain(`https://help.example.com/admin/requests/${id}`);
    // The requester's receipt: threaded under the request, with the request's private link, which only the
    // address gets (the answer names none); sent without an account, it says nothing the sender wrote.
    const receipt = smtp.mails.find((m) => m.to.includes('lia@example.com'));
    expect(headerOf(receipt!.raw, 'Message-ID')).toBe(
      `<ticket-${id}-received.${await replyTokenFor(t.ctx.db, id, 'received', 'lia@example.com')}@signpost>`,
    );
    expect(headerOf(receipt!.raw, 'In-Reply-To')).toBe(`<ticket-${id}@signpost>`);
    const text = textOf(receipt!.raw);
    expect(text).toContain('We have received a support request that gave this email address.');
    expect(text).not.toContain('Door sensor offline');
    expect(text).not.toContain('Since the update.');
    expect(sent.json<{ link: string | null }>().link).toBeNull();
    expect(text).toMatch(new RegExp(`https://help\\.example\\.com/issues/${id}\\?key=[A-Za-z0-9_-]{43}`));
  });
});

describe.each(testDialects())('the inbox, on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let me: UserRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    me = await buildUser(t.ctx.db, { role: 'agent' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: me.email, password: DEFAULT_PASSWORD },
    });
    token = login.json<{ token: string }>().token;
  });
  afterAll(async () => t?.close());

  const get = (url: string) => t.app.inject({ url, headers: { 'x-auth-token': token } });
  const titles = async (query: string) =>
    (await get(`/api/admin/tickets${query}`)).json<{ items: TicketView[] }>().items.map((item) => item.title);

  it('lists by latest activity, filters by status and assignee, and counts each status', async () => {
    const hour = 3_600_000;
    const now = Date.now();
    const a = await buildTicket(t.ctx, { title: 'A', targets: [], now: now - 3 * hour });
    await buildTicket(t.ctx, { title: 'B', targets: [], now: now - 2 * hour });
    const c = await buildTicket(t.ctx, { title: 'C', targets: [], now: now - hour });
    // A note on the oldest brings it to the top and opens it; C is given to me and solved.
    const noted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${a.id}/messages`,
      headers: { 'x-auth-token': token },
      payload: { body: 'Looking', internal: true },
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const solved = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/tickets/${c.id}`,
      headers: { 'x-auth-token': token },
      payload: { status: 'solved', assignee_id: me.id },
    });
    expect(solved.statusCode, solved.body).toBe(200);

    expect(await titles('')).toEqual(['C', 'A', 'B']);
    expect(await titles('?status=new')).toEqual(['B']);
    expect(await titles('?status=open')).toEqual(['A']);
    expect(await titles('?assignee=me')).toEqual(['C']);
    expect(await titles('?assignee=nobody')).toEqual(['A', 'B']);
    expect(await titles('?status=solved&assignee=nobody')).toEqual([]);
    const counts = await get('/api/admin/ticket-counts');
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json()).toEqual({ new: 1, open: 1, waiting: 0, solved: 1, closed: 0 });

    expectApiError(await get('/api/admin/tickets?status=lost'), 400, ['status']);
    expectApiError(await get('/api/admin/tickets?assignee=you'), 400, ['assignee']);
  });
});
