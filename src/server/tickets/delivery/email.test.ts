import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { deliverDue } from './delivery.service.ts';
import { buildTicket, buildUpload } from '../../testing/ticket-fixtures.ts';
import { attachmentsOf, headerOf, startMailServer, textOf } from '../../testing/mail-server.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';

describe.each(testDialects())('ticket delivery by email on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;

  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, {
      SUPPORT_EMAIL: 'support@example.com',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Signpost <help@example.com>',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    smtp.mails.length = 0;
    smtp.state.rejections = 0;
    await t.ctx.db.deleteFrom('outbox').execute();
  });

  it('mails the ticket to SUPPORT_EMAIL with its files attached and the visitor as Reply-To', async () => {
    const png = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const screenshot = await buildUpload(t.ctx, 'screenshot.png', png);
    const log = await buildUpload(t.ctx, 'error-log.txt', 'E42 at 10:00\nE43 at 10:05\n');
    const now = Date.now();
    const ticket = await buildTicket(t.ctx, {
      files: [screenshot, log],
      targets: ['email'],
      now,
      title: 'Thermostat — error E42',
      name: 'Ann Lee',
      email: 'ann@example.com',
    });

    expect(await deliverDue(t.ctx, now)).toMatchObject([
      { ticketId: ticket.id, target: 'email', status: 'delivered' },
    ]);
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('help@example.com');
    expect(mail.to).toEqual(['support@example.com']);
    expect(headerOf(mail.raw, 'Message-ID')).toBe(`<ticket-${ticket.id}@signpost>`);
    expect(headerOf(mail.raw, 'Subject')).toBe('Thermostat — error E42');
    expect(headerOf(mail.raw, 'Reply-To')).toBe('Ann Lee <ann@example.com>');
    expect(headerOf(mail.raw, 'To')).toBe('support@example.com');

    const attachments = attachmentsOf(mail.raw);
    expect([...attachments.keys()]).toEqual(['screenshot.png', 'error-log.txt']);
    expect(attachments.get('screenshot.png')?.equals(png)).toBe(true);
    expect(attachments.get('error-log.txt')?.toString()).toBe('E42 at 10:00\nE43 at 10:05\n');
    expect(mail.raw).toContain(`Ticket #${ticket.id}`);
    expect(mail.raw).toContain('My thermostat shows');

    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ target: 'email', status: 'delivered', attempts: 1, delivered_at: now });
    expect(await deliverDue(t.ctx, now + 3_600_000)).toEqual([]);
    expect(smtp.mails).toHaveLength(1);
  });

  it('retries when the mail server refuses, keeping its answer, and sends the same Message-ID', async () => {
    smtp.state.rejections = 1;
    const now = Date.now();
    const ticket = await buildTicket(t.ctx, { targets: ['email'], now });
    const [first] = await deliverDue(t.ctx, now);
    expect(first).toMatchObject({ status: 'retry', attempts: 1 });
    expect(first?.error).toContain('Mailbox busy, try later');
    expect(smtp.mails).toHaveLength(0);
    const row = await t.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', next_attempt_at: now + 10_000 });
    expect(row.last_error).toContain('451');

    expect(await deliverDue(t.ctx, now + 10_000)).toMatchObject([{ status: 'delivered', attempts: 2 }]);
    expect(smtp.mails).toHaveLength(1);
    expect(headerOf(smtp.mails[0]!.raw, 'Message-ID')).toBe(`<ticket-${ticket.id}@signpost>`);
    expect(attachmentsOf(smtp.mails[0]!.raw).size).toBe(0);
  });

  it('delivers to both targets independently', async () => {
    const now = Date.now();
    // No webhook receiver is configured here: the webhook row fails on its own while the email goes out.
    const ticket = await buildTicket(t.ctx, { targets: ['webhook', 'email'], now });
    const outcomes = await deliverDue(t.ctx, now);
    expect(outcomes.map((o) => [o.target, o.status]).sort()).toEqual([
      ['email', 'delivered'],
      ['webhook', 'retry'],
    ]);
    expect(outcomes.find((o) => o.target === 'webhook')?.error).toBe('TICKET_WEBHOOK_URL is not set');
    expect(smtp.mails).toHaveLength(1);
    expect(headerOf(smtp.mails[0]!.raw, 'Message-ID')).toBe(`<ticket-${ticket.id}@signpost>`);
  });

  it('mails a reply of the team with SUPPORT_EMAIL as Reply-To, and says an answer by mail reaches the team', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [], email: 'ann@example.com', lang: 'pt-BR' });
    const agent = await buildUser(t.ctx.db, { role: 'agent', name: 'Dana' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: agent.email, password: DEFAULT_PASSWORD },
    });
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${ticket.id}/messages`,
      headers: { 'x-auth-token': login.json<{ token: string }>().token },
      payload: { body: 'Tente reiniciar.' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    await deliverDue(t.ctx);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([['ann@example.com']]);
    const raw = smtp.mails[0]!.raw;
    expect(headerOf(raw, 'Reply-To')).toBe('support@example.com');
    expect(textOf(raw)).toContain('Dana respondeu à sua solicitação');
    expect(textOf(raw)).toContain('Para responder, responda a este e-mail.');
  });
});
