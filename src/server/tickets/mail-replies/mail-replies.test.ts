import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ImapConfig } from '../../config/config.ts';
import { createContext } from '../../context-factory.ts';
import { readAll } from '../../storage/file-storage.ts';
import { startImapServer, type ImapServer } from '../../testing/imap-server.ts';
import { headerOf, htmlOf, startMailServer } from '../../testing/mail-server.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { buildTicket } from '../../testing/ticket-fixtures.ts';
import { legacyReplyTokenOf } from '../reply-token.ts';
import { addMessage } from '../lifecycle.ts';
import { messagesOf, threadFiles } from '../thread.repository.ts';
import { deliverDue } from '../delivery/delivery.service.ts';
import { startMailReplyPoller } from './mail-reply-poller.ts';
import { MAIL_FILES_MAX, mailKeyOf, pollMailbox, processMail } from './mail-replies.service.ts';

interface RawMail {
  from: string;
  subject?: string;
  messageId: string;
  inReplyTo?: string;
  references?: string;
  text?: string;
  html?: string;
  headers?: string[];
  files?: { name: string; type: string; content: Buffer }[];
}

let sequence = 0;
const newMessageId = () => `<reply-${Date.now()}-${++sequence}@mail.example.net>`;

/** A mail as a customer's client writes it: text, HTML or both (multipart/alternative), files as base64 parts. */
function rawMail(mail: RawMail): string {
  const head = [
    `From: ${mail.from}`,
    'To: support@example.com',
    `Subject: ${mail.subject ?? 'Re: Thermostat'}`,
    'Date: Mon, 03 Jun 2024 10:00:00 +0000',
    `Message-ID: ${mail.messageId}`,
    ...(mail.inReplyTo ? [`In-Reply-To: ${mail.inReplyTo}`] : []),
    ...(mail.references ? [`References: ${mail.references}`] : []),
    ...(mail.headers ?? []),
    'MIME-Version: 1.0',
  ];
  const part = (type: string, content: string) => [
    `Content-Type: ${type}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(content).toString('base64').replace(/.{76}/g, '$&\r\n'),
  ];
  const alternative = 'alternative-b0undary';
  const bodyPart =
    mail.html && mail.text !== undefined
      ? [
          `Content-Type: multipart/alternative; boundary="${alternative}"`,
          '',
          `--${alternative}`,
          ...part('text/plain', mail.text),
          `--${alternative}`,
          ...part('text/html', mail.html),
          `--${alternative}--`,
          '',
        ]
      : mail.html
        ? part('text/html', mail.html)
        : part('text/plain', mail.text ?? '');
  if (!mail.files?.length) return [...head, ...bodyPart].join('\r\n');
  const boundary = 'b0undary-of-the-test';
  const parts = mail.files.map((file) =>
    [
      `--${boundary}`,
      `Content-Type: ${file.type}; name="${file.name}"`,
      `Content-Disposition: attachment; filename="${file.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      file.content.toString('base64').replace(/.{76}/g, '$&\r\n'),
    ].join('\r\n'),
  );
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...bodyPart,
    ...parts,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

const QUOTE =
  '\n\nOn Mon, 3 Jun 2024 at 10:00, Signpost <help@example.com> wrote:\n> Dana Desk replied to your request:\n> Try a reset.\n\n-- \nAnn Lee\n';

describe('IMAP_URL', () => {
  const base = { PUBLIC_URL: 'https://help.example.com' };
  it('names the server, the account and the mailbox (INBOX unless the path says), checked at start-up', () => {
    expect(
      loadConfig({ ...base, IMAP_URL: 'imaps://support%40example.com:p%2Fss@imap.example.com' }).imap,
    ).toEqual({
      host: 'imap.example.com',
      port: 993,
      secure: true,
      user: 'support@example.com',
      password: 'p/ss',
      mailbox: 'INBOX',
      pollMs: 60_000,
      authservId: null,
    });
    expect(
      loadConfig({ ...base, IMAP_URL: 'imap://u:p@127.0.0.1:1143/Support%20Replies', IMAP_POLL_SECONDS: '5' })
        .imap,
    ).toMatchObject({ port: 1143, secure: false, mailbox: 'Support Replies', pollMs: 5000 });
    expect(loadConfig(base).imap).toBeNull();
    for (const [env, variable] of [
      [{ IMAP_URL: 'pop3://u:p@host' }, 'IMAP_URL'],
      [{ IMAP_URL: 'imap://host/INBOX' }, 'IMAP_URL'],
      [{ IMAP_URL: 'not a url' }, 'IMAP_URL'],
      [{ IMAP_URL: 'imap://u:%E0%A4%A@host' }, 'IMAP_URL'],
      [{ IMAP_URL: 'imap://u:p@host', IMAP_POLL_SECONDS: '0' }, 'IMAP_POLL_SECONDS'],
      [{ IMAP_POLL_SECONDS: '30' }, 'IMAP_POLL_SECONDS'],
    ] as const) {
      expect(() => loadConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(ConfigError);
      try {
        loadConfig({ ...base, ...env });
      } catch (error) {
        expect((error as ConfigError).variable).toBe(variable);
      }
    }
  });
});

describe.each(testDialects())('replies by email on %s', (dialect) => {
  let t: TestApp;
  let imap: ImapServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let mailbox: ImapConfig;

  beforeAll(async () => {
    [imap, smtp] = await Promise.all([startImapServer(), startMailServer()]);
    t = await createTestApp(dialect, {
      PUBLIC_URL: 'https://help.example.com',
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@example.com',
      MAIL_FROM: 'Signpost <help@example.com>',
      IMAP_URL: imap.url(),
    });
    mailbox = t.ctx.config.imap!;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([imap?.close(), smtp?.close()]);
  });
  beforeEach(async () => {
    await imap.clear();
    smtp.mails.length = 0;
  });

  /** A request the team has answered by mail: the requester's mail client holds that answer's Message-ID. */
  async function answeredTicket(email = 'ann@example.com') {
    const ticket = await buildTicket(t.ctx, { email, targets: [] });
    await addMessage(t.ctx.db, ticket, {
      author: { id: null, name: 'Dana Desk', fromTeam: true },
      text: 'Try a reset.',
      internal: false,
      fileIds: [],
      targets: ['requester'],
    });
    await deliverDue(t.ctx);
    const sent = smtp.mails.find((mail) => mail.to.includes(email) && mail.raw.includes('Try a reset.'));
    const messageId = headerOf(sent!.raw, 'Message-ID')!;
    const references = `${headerOf(sent!.raw, 'References')} ${messageId}`;
    return { ticket, messageId, references, html: htmlOf(sent!.raw) };
  }

  const unread = async () =>
    [...(await imap.flags()).entries()].filter(([, flags]) => !flags.has('\\Seen')).map(([uid]) => uid);

  it('adds an answer to its thread as the requester’s message: quote and signature gone, files kept, read once stored', async () => {
    const { ticket, messageId, references } = await answeredTicket();
    expect(messageId).toMatch(new RegExp(`^<ticket-${ticket.id}-message-\\d+\\.[0-9a-f]{24}@signpost>$`));
    const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 13) % 256));
    const reply = rawMail({
      from: 'Ann Lee <Ann@Example.com>',
      messageId: newMessageId(),
      inReplyTo: messageId,
      references,
      text: `Resetting helped, thank you.${QUOTE}`,
      files: [{ name: 'display.png', type: 'image/png', content: photo }],
    });
    const uid = await imap.append(reply);

    const outcomes = await pollMailbox(t.ctx, mailbox);
    expect(outcomes).toMatchObject([{ uid, outcome: 'stored', ticketId: ticket.id, filesLeftOut: [] }]);
    const messages = await messagesOf(t.ctx.db, ticket.id, { internal: false });
    expect(messages.map((m) => [m.from_team, m.author_name, m.body_text])).toEqual([
      [1, 'Dana Desk', 'Try a reset.'],
      [0, 'Ann Lee', 'Resetting helped, thank you.'],
    ]);
    const files = (await threadFiles(t.ctx.db, ticket.id)).filter((f) => f.message_id === messages[1]!.id);
    expect(files.map((f) => [f.original_name, f.mime_type, Number(f.size)])).toEqual([
      ['display.png', 'image/png', photo.length],
    ]);
    expect((await readAll(t.ctx.storage, files[0]!.storage_key)).equals(photo)).toBe(true);

    // As a reply in the portal: the team waits for the customer no more, and hears of it.
    const stored = await t.ctx.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', ticket.id)
      .executeTakeFirst();
    expect(stored?.status).toBe('open');
    const deliveries = await t.ctx.db
      .selectFrom('outbox')
      .select(['target', 'message_id'])
      .where('ticket_id', '=', ticket.id)
      .where('message_id', '=', messages[1]!.id)
      .execute();
    expect(deliveries).toEqual([{ target: 'team', message_id: messages[1]!.id }]);
    expect(await unread()).toEqual([]);

    // A read mail is not read again; the same mail unread again (stored, then the server stopped before marking
    // it read) is only marked read.
    expect(await pollMailbox(t.ctx, mailbox)).toEqual([]);
    const again = await imap.append(reply);
    expect(await pollMailbox(t.ctx, mailbox)).toEqual([{ uid: again, outcome: 'known', stored: true }]);
    expect(await unread()).toEqual([]);
    expect(await messagesOf(t.ctx.db, ticket.id, { internal: false })).toHaveLength(2);
  });

  it('reads an HTML-only answer as text, and one answer is stored once however many servers read it at once', async () => {
    const { ticket, messageId } = await answeredTicket('bo@example.com');
    const html =
      '<div dir="ltr">It works <b>again</b>.<br><br>Bo</div><br><div class="gmail_quote">' +
      '<div class="gmail_attr">On Mon, 3 Jun 2024 at 10:00, Signpost &lt;help@example.com&gt; wrote:<br></div>' +
      '<blockquote class="gmail_quote">Try a reset.</blockquote></div>';
    const mailId = newMessageId();
    await imap.append(rawMail({ from: 'bo@example.com', messageId: mailId, inReplyTo: messageId, html }));
    // The same mail delivered twice into the mailbox (a copy in two folders, a retried delivery).
    await imap.append(rawMail({ from: 'bo@example.com', messageId: mailId, inReplyTo: messageId, html }));

    const other = await createContext(t.environment.config);
    try {
      const [first, second] = await Promise.all([pollMailbox(t.ctx, mailbox), pollMailbox(other, mailbox)]);
      const outcomes = [...first, ...second];
      expect(outcomes.filter((o) => o.outcome === 'stored')).toHaveLength(1);
      expect(outcomes.every((o) => o.outcome === 'stored' || (o.outcome === 'known' && o.stored))).toBe(true);
    } finally {
      await other.database.close();
    }
    const messages = await messagesOf(t.ctx.db, ticket.id, { internal: false });
    expect(messages.map((m) => m.body_text)).toEqual(['Try a reset.', 'It works again.\n\nBo']);
    // Both copies end up read: the second is known by its Message-ID.
    await pollMailbox(t.ctx, mailbox);
    expect(await unread()).toEqual([]);
  });

  it('keeps the answer, never the quote or its private link, when the quote holds our whole HTML mail', async () => {
    const { ticket, messageId, html } = await answeredTicket('dora@example.com');
    const key = /\/issues\/\d+\?key=([\w-]{43})/.exec(html)?.[1];
    expect(key).toBeDefined();
    // Our mail is a whole document; clients and forwarding paths quote it as one, with or without one around it.
    const quote = `<blockquote type="cite">${html}</blockquote>`;
    const mails = [
      `<div dir="ltr">The display works again.</div>${quote}`,
      `<html><head><meta charset="utf-8"></head><div>The display works again.</div>${quote}</html>`,
      `<html><body>The display works again.${quote}</body></html>`,
    ];
    for (const body of mails)
      await imap.append(
        rawMail({ from: 'dora@example.com', messageId: newMessageId(), inReplyTo: messageId, html: body }),
      );

    const outcomes = await pollMailbox(t.ctx, mailbox);
    expect(outcomes.map((o) => o.outcome)).toEqual(['stored', 'stored', 'stored']);
    const stored = (await messagesOf(t.ctx.db, ticket.id, { internal: false })).slice(1);
    expect(stored.map((m) => m.body_text)).toEqual(Array(3).fill('The display works again.'));
    for (const message of stored) expect(`${message.body_text}${message.body_html}`).not.toContain(key);
  });

  it('stores a Gmail answer written below the quote or between its parts, text and HTML alike', async () => {
    const { ticket, messageId } = await answeredTicket('eve@example.com');
    const corpus = new URL('../../../../test-data/mail-replies/', import.meta.url);
    const part = (name: string) => fs.readFileSync(new URL(name, corpus), 'utf8');
    for (const fixture of ['gmail-below-quote', 'gmail-inline'])
      await imap.append(
        rawMail({
          from: 'eve@example.com',
          messageId: newMessageId(),
          inReplyTo: messageId,
          text: part(`${fixture}.txt`),
          html: part(`${fixture}.html`),
        }),
      );

    const outcomes = await pollMailbox(t.ctx, mailbox);
    expect(outcomes.map((o) => (o.outcome === 'unmatched' ? o.reason : o.outcome))).toEqual([
      'stored',
      'stored',
    ]);
    const stored = (await messagesOf(t.ctx.db, ticket.id, { internal: false })).slice(1);
    expect(stored.map((m) => m.body_text)).toEqual([
      'Done. It shows 21 °C now.',
      'Done, it shows 21 °C now.\n\nThanks, I have bookmarked it.',
    ]);
  });

  it('takes our private link out of an answer, and keeps the customer’s own link to an issue with a key', async () => {
    const { ticket, messageId, html } = await answeredTicket('fay@example.com');
    const ours = /https:\/\/help\.example\.com\/issues\/\d+\?key=[\w-]{43}/.exec(html)?.[0];
    expect(ours).toBeDefined();
    const theirs = 'https://jira.example.org/issues/5?key=7f3a9c2e1b8d4f6a0c5e';
    const text = `The page ${ours} does not open.\nOur own ticket: ${theirs}${QUOTE}`;
    await imap.append(
      rawMail({ from: 'fay@example.com', messageId: newMessageId(), inReplyTo: messageId, text }),
    );

    expect((await pollMailbox(t.ctx, mailbox)).map((o) => o.outcome)).toEqual(['stored']);
    const stored = (await messagesOf(t.ctx.db, ticket.id, { internal: false })).slice(1);
    expect(stored.map((m) => m.body_text)).toEqual([`The page does not open.\nOur own ticket: ${theirs}`]);
  });

  it('leaves unmatched mail unread for the team and reports each once, with its reason', async () => {
    const { ticket, messageId } = await answeredTicket('cy@example.com');
    const forged = messageId.replace(
      /\.([0-9a-f]{24})@/,
      (_, token: string) => `.${token.split('').reverse().join('')}@`,
    );
    const closed = await buildTicket(t.ctx, { email: 'cy@example.com', targets: [] });
    await t.ctx.db.updateTable('tickets').set({ status: 'closed' }).where('id', '=', closed.id).execute();
    const signed = async (id: number) =>
      `<ticket-${id}-received.${await legacyReplyTokenOf(t.ctx.db, id)}@signpost>`;
    const cases = {
      bad_signature: { from: 'cy@example.com', inReplyTo: forged },
      // Another request's number with this request's signature: guessing a number gets nowhere.
      bad_signature_other: {
        from: 'cy@example.com',
        inReplyTo: messageId.replace(`ticket-${ticket.id}-`, `ticket-${closed.id}-`),
      },
      unknown_ticket: { from: 'cy@example.com', inReplyTo: await signed(999_999) },
      wrong_sender: { from: 'Mallory <mallory@example.org>', inReplyTo: messageId },
      not_a_reply: { from: 'cy@example.com', subject: 'A new question' },
      auto_reply: { from: 'cy@example.com', inReplyTo: messageId, headers: ['Auto-Submitted: auto-replied'] },
      ticket_closed: { from: 'cy@example.com', inReplyTo: await signed(closed.id) },
      empty: { from: 'cy@example.com', inReplyTo: messageId, text: `> Try a reset.` },
    };
    const uids = new Map<number, string>();
    for (const [name, mail] of Object.entries(cases))
      uids.set(
        await imap.append(rawMail({ text: 'I answer this.', messageId: newMessageId(), ...mail })),
        name.replace(/_other$/, ''),
      );

    const outcomes = await pollMailbox(t.ctx, mailbox);
    expect(outcomes.map((o) => [uids.get(o.uid), o.outcome === 'unmatched' ? o.reason : o.outcome])).toEqual(
      [...uids.values()].map((reason) => [reason, reason]),
    );
    expect(outcomes.find((o) => uids.get(o.uid) === 'wrong_sender')).toMatchObject({ ticketId: ticket.id });
    expect((await messagesOf(t.ctx.db, ticket.id, { internal: false })).map((m) => m.from_team)).toEqual([1]);
    expect(await messagesOf(t.ctx.db, closed.id, { internal: false })).toEqual([]);
    expect((await unread()).sort()).toEqual([...uids.keys()].sort());

    // Reported once: the next pass knows them all, and leaves them unread.
    expect((await pollMailbox(t.ctx, mailbox)).map((o) => o.outcome)).toEqual(
      uids.size ? [...uids.keys()].map(() => 'known') : [],
    );
    expect(await unread()).toHaveLength(uids.size);
    const metrics = (await t.app.inject('/metrics')).body;
    expect(metrics).toContain('signpost_mail_replies_unmatched{reason="bad_signature"} 2');
    expect(metrics).toContain('signpost_mail_replies_unmatched{reason="wrong_sender"} 1');
  });

  it('keeps the files it may and says which it left out; a mail without a Message-ID is known by its place', async () => {
    const { ticket, messageId } = await answeredTicket('di@example.com');
    const files = Array.from({ length: MAIL_FILES_MAX + 1 }, (_, i) => ({
      name: `page-${i + 1}.txt`,
      type: 'text/plain',
      content: Buffer.from(`page ${i + 1}`),
    }));
    const source = Buffer.from(
      rawMail({
        from: 'di@example.com',
        messageId: '',
        inReplyTo: messageId,
        text: 'The pages.',
        files,
      }).replace('Message-ID: \r\n', ''),
    );
    const key = mailKeyOf(undefined, 'INBOX:1:7');
    expect(await processMail(t.ctx, 7, key, source)).toMatchObject({
      outcome: 'stored',
      filesLeftOut: [`page-${MAIL_FILES_MAX + 1}.txt (more than ${MAIL_FILES_MAX} files)`],
    });
    expect(await processMail(t.ctx, 7, key, source)).toEqual({ uid: 7, outcome: 'known', stored: true });
    const messages = await messagesOf(t.ctx.db, ticket.id, { internal: false });
    expect(messages).toHaveLength(2);
    expect(messages[1]!.body_text).toBe(
      `The pages.\n\n[not kept: page-${MAIL_FILES_MAX + 1}.txt (more than ${MAIL_FILES_MAX} files)]`,
    );
    const kept = (await threadFiles(t.ctx.db, ticket.id)).filter((f) => f.message_id === messages[1]!.id);
    expect(kept).toHaveLength(MAIL_FILES_MAX);
  });

  it('survives a mailbox that is down or refuses the account: the pass fails, the poller logs, waits and stops cleanly', async () => {
    const closedPort = { ...mailbox, port: 1, pollMs: 20 };
    await expect(pollMailbox(t.ctx, closedPort)).rejects.toThrow();

    const errors: object[] = [];
    const log = { info: () => {}, warn: () => {}, error: (details: object) => void errors.push(details) };
    const down = startMailReplyPoller(t.ctx, closedPort, log);
    await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(errors[1]).toMatchObject({ failures: 2 });
    await down.stop();

    // A working poller stores what arrives, tells the server (deliveries go out at once), and stops when asked.
    const { ticket, messageId } = await answeredTicket('ed@example.com');
    await imap.append(
      rawMail({ from: 'ed@example.com', messageId: newMessageId(), inReplyTo: messageId, text: 'Fixed.' }),
    );
    let stored = 0;
    const up = startMailReplyPoller(t.ctx, { ...mailbox, pollMs: 50 }, log, () => stored++);
    await expect.poll(() => stored, { timeout: 5000 }).toBe(1);
    await up.stop();
    // Last: Dovecot slows down logins from an address after a refused one.
    await expect(pollMailbox(t.ctx, { ...mailbox, password: 'wrong' })).rejects.toThrow();
    expect((await messagesOf(t.ctx.db, ticket.id, { internal: false })).map((m) => m.body_text)).toEqual([
      'Try a reset.',
      'Fixed.',
    ]);
  });
});

describe.each(testDialects())('files of replies by email, within the upload limits on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let uid = 0;
  beforeAll(async () => {
    smtp = await startMailServer();
    t = await createTestApp(dialect, {
      PUBLIC_URL: 'https://help.example.com',
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL: 'support@example.com',
      MAIL_FROM: 'Signpost <help@example.com>',
      UPLOADS_PER_HOUR: '3',
      UPLOAD_MB_PER_HOUR: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** A request the team has answered by mail, and the Message-ID the requester's client answers. */
  async function answeredTicket(email: string) {
    const ticket = await buildTicket(t.ctx, { email, targets: [] });
    const text = `Send us the pages, please (${ticket.id}).`;
    await addMessage(t.ctx.db, ticket, {
      author: { id: null, name: 'Dana Desk', fromTeam: true },
      text,
      internal: false,
      fileIds: [],
      targets: ['requester'],
    });
    await deliverDue(t.ctx);
    const sent = smtp.mails.find((mail) => mail.to.includes(email) && mail.raw.includes(text));
    return { ticket, answered: headerOf(sent!.raw, 'Message-ID')! };
  }

  /** The requester's reply with these files, processed as a pass would. */
  async function reply(answered: string, from: string, files: RawMail['files']) {
    const messageId = newMessageId();
    const source = Buffer.from(
      rawMail({ from, messageId, inReplyTo: answered, text: 'Here they are.', files }),
    );
    return processMail(t.ctx, ++uid, mailKeyOf(messageId, `INBOX:1:${uid}`), source);
  }
  const keptFiles = async (ticketId: number) =>
    (await threadFiles(t.ctx.db, ticketId)).map((file) => file.original_name).sort();
  const texts = async (ticketId: number) =>
    (await messagesOf(t.ctx.db, ticketId, { internal: false }))
      .filter((m) => !m.from_team)
      .map((m) => m.body_text);
  const pages = (names: string[]) =>
    names.map((name) => ({ name, type: 'text/plain', content: Buffer.from(`${name} of the manual`) }));

  it('count each file against UPLOADS_PER_HOUR for the sender, over all their requests at once; the rest are named and the text kept', async () => {
    const { ticket: first, answered: toFirst } = await answeredTicket('ed@example.com');
    const { ticket: second, answered: toSecond } = await answeredTicket('ed@example.com');
    const outcomes = await Promise.all([
      reply(toFirst, 'Ed <Ed@Example.com>', pages(['a-1.txt', 'a-2.txt'])),
      reply(toSecond, 'ed@example.com', pages(['b-1.txt', 'b-2.txt'])),
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['stored', 'stored']);
    const leftOut = outcomes.flatMap((o) => (o.outcome === 'stored' ? o.filesLeftOut : []));
    expect(leftOut).toEqual([expect.stringMatching(/^[ab]-2\.txt \(more than 3 files an hour\)$/)]);
    const kept = [...(await keptFiles(first.id)), ...(await keptFiles(second.id))];
    expect(kept).toHaveLength(3);
    expect(kept).not.toContain(leftOut[0]!.split(' ')[0]);
    expect([...(await texts(first.id)), ...(await texts(second.id))].sort()).toEqual([
      'Here they are.',
      `Here they are.\n\n[not kept: ${leftOut[0]}]`,
    ]);

    // Another sender has an allowance of their own.
    const { ticket: other, answered: toOther } = await answeredTicket('flo@example.com');
    expect(await reply(toOther, 'flo@example.com', pages(['c-1.txt']))).toMatchObject({ filesLeftOut: [] });
    expect(await keptFiles(other.id)).toEqual(['c-1.txt']);
  });

  it('count their bytes against UPLOAD_MB_PER_HOUR: a file past it is named, those within it kept', async () => {
    const { ticket, answered } = await answeredTicket('gus@example.com');
    const big = (name: string, kib: number) => ({
      name,
      type: 'application/pdf',
      content: Buffer.alloc(kib * 1024, 7),
    });
    expect(await reply(answered, 'gus@example.com', [big('scan-1.pdf', 700)])).toMatchObject({
      outcome: 'stored',
      filesLeftOut: [],
    });
    expect(
      await reply(answered, 'gus@example.com', [big('scan-2.pdf', 400), big('note.pdf', 100)]),
    ).toMatchObject({ outcome: 'stored', filesLeftOut: ['scan-2.pdf (more than 1 MB an hour)'] });
    expect(await keptFiles(ticket.id)).toEqual(['note.pdf', 'scan-1.pdf']);
    expect(await texts(ticket.id)).toEqual([
      'Here they are.',
      'Here they are.\n\n[not kept: scan-2.pdf (more than 1 MB an hour)]',
    ]);
  });
});
