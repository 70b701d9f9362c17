import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { deliverDue } from './delivery.service.ts';
import { buildTicket, buildUpload } from '../../testing/ticket-fixtures.ts';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback: plain text, no sign-in, keeping every message it accepts. */
async function startMailServer() {
  const mails: Mail[] = [];
  const state = { rejections: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.rejections > 0) {
          state.rejections--;
          return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        }
        const from = session.envelope.mailFrom;
        mails.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The attachments of a message, by file name, decoded: enough MIME to prove the bytes arrived whole. */
function attachmentsOf(raw: string): Map<string, Buffer> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const found = new Map<string, Buffer>();
  if (!boundary) return found;
  for (const part of raw.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (!name || !/content-disposition:\s*attachment/i.test(head)) continue;
    expect(head).toMatch(/content-transfer-encoding:\s*base64/i);
    found.set(name, Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64'));
  }
  return found;
}

/** Unfolds headers and decodes RFC 2047 words, so a test can read what a mail client would show. */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line
    ?.slice(name.length + 1)
    .trim()
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

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
});
