import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.ts';
import type { TicketRow } from '../../db/tables.ts';
import { LEGACY_REPLY_TOKENS_UNTIL } from '../../db/schema-values.ts';
import { readSetting } from '../../settings/settings.repository.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { buildTicket } from '../../testing/ticket-fixtures.ts';
import { legacyReplyTokenOf, replyTokenFor } from '../reply-token.ts';
import { addMessage } from '../lifecycle.ts';
import { messagesOf } from '../thread.repository.ts';
import { mailKeyOf, processMail, type MailOutcome } from './mail-replies.service.ts';

const DAY = 24 * 60 * 60 * 1000;
let sequence = 0;

/** A reply as it reaches the mailbox: the headers given, then a line of text. */
function mailOf(headers: string[], text = 'Here is my answer.'): Buffer {
  const id = `<trust-${Date.now()}-${++sequence}@mail.example.net>`;
  return Buffer.from(
    [
      ...headers,
      'To: support@example.com',
      'Subject: Re: your request',
      `Message-ID: ${id}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
    ].join('\r\n'),
  );
}

describe.each(testDialects())('who a reply by email is from, and what it answers, on %s', (dialect) => {
  let t: TestApp;
  let vouched: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_URL: 'https://help.example.com' });
    vouched = await createTestApp(dialect, {
      PUBLIC_URL: 'https://help.example.com',
      IMAP_URL: 'imap://support:secret@127.0.0.1:9/INBOX',
      IMAP_AUTHSERV_ID: 'mx.help.example.com',
    });
  });
  afterAll(async () => {
    await t?.close();
    await vouched?.close();
  });

  /** A request answered by the team: the Message-ID its mail to the requester carried. */
  async function answered(app: TestApp, email: string) {
    const ticket = await buildTicket(app.ctx, { email, targets: [] });
    const message = await addMessage(app.ctx.db, ticket, {
      author: { id: null, name: 'Dana Desk', fromTeam: true },
      text: 'Try a reset.',
      internal: false,
      fileIds: [],
      targets: [],
    });
    const token = await replyTokenFor(app.ctx.db, ticket.id, `message-${message.id}`, email);
    return { ticket, message, messageId: `<ticket-${ticket.id}-message-${message.id}.${token}@signpost>` };
  }

  const process = (app: TestApp, source: Buffer, now?: number): Promise<MailOutcome> =>
    processMail(app.ctx, ++sequence, mailKeyOf(undefined, `trust:${sequence}`), source, now);

  const reasonOf = (outcome: MailOutcome) =>
    outcome.outcome === 'unmatched' ? outcome.reason : outcome.outcome;

  const repliesOf = async (ticket: TicketRow) =>
    (await messagesOf(t.ctx.db, ticket.id, { internal: false })).filter((m) => m.from_team === 0);

  it('leaves a reply whose From is not one plain address unmatched, whichever address comes first', async () => {
    const { ticket, messageId } = await answered(t, 'victim@example.com');
    const cases = {
      'two addresses in angle brackets': ['From: <victim@example.com> <attacker@example.org>'],
      'the other way round': ['From: <attacker@example.org> <victim@example.com>'],
      'an address as the display name': ['From: "victim@example.com" <attacker@example.org>'],
      'the requester named, another address': ['From: "Victim <victim@example.com>" <attacker@example.org>'],
      'an encoded display name': ['From: =?utf-8?q?victim=40example=2Ecom?= <attacker@example.org>'],
      'a list': ['From: victim@example.com, attacker@example.org'],
      'a comment': ['From: victim@example.com (attacker@example.org)'],
      'two From headers': ['From: victim@example.com', 'From: attacker@example.org'],
      'a Sender that is someone else': ['From: victim@example.com', 'Sender: attacker@example.org'],
      'a group': ['From: friends: victim@example.com, attacker@example.org;'],
    };
    for (const [name, from] of Object.entries(cases)) {
      const outcome = await process(t, mailOf([...from, `In-Reply-To: ${messageId}`]));
      expect(reasonOf(outcome), name).toBe('ambiguous_sender');
    }
    expect(await repliesOf(ticket)).toEqual([]);

    // One plain address, named or not, with its own Sender: the requester's.
    for (const from of [
      ['From: Victim Person <Victim@Example.com>'],
      ['From: victim@example.com', 'Sender: Victim <victim@example.com>'],
    ]) {
      const outcome = await process(t, mailOf([...from, `In-Reply-To: ${messageId}`]));
      expect(reasonOf(outcome), from.join(' ')).toBe('stored');
    }
    expect(await repliesOf(ticket)).toHaveLength(2);
  });

  it('joins a thread only with a token made for that mail and its recipient', async () => {
    const { ticket, message, messageId } = await answered(t, 'xena@example.com');
    const other = await answered(t, 'xena@example.com');
    const signed = async (ticketId: number, part: `message-${number}`, recipient: string) =>
      `<ticket-${ticketId}-${part}.${await replyTokenFor(t.ctx.db, ticketId, part, recipient)}@signpost>`;
    const from = 'From: Xena <xena@example.com>';
    const cases: [string, string[], string][] = [
      // The token of message A to X, sent back by Y: not the requester's answer.
      ['another sender', ['From: yuri@example.com', `In-Reply-To: ${messageId}`], 'wrong_sender'],
      // Made for another recipient of the same message, or for the same recipient and another message.
      [
        'another recipient',
        [from, `In-Reply-To: ${await signed(ticket.id, `message-${message.id}`, 'yuri@example.com')}`],
        'bad_signature',
      ],
      [
        'another message',
        [
          from,
          `In-Reply-To: ${messageId.replace(`-message-${message.id}.`, `-message-${other.message.id}.`)}`,
        ],
        'bad_signature',
      ],
      [
        'another request',
        [from, `In-Reply-To: ${messageId.replace(`ticket-${ticket.id}-`, `ticket-${other.ticket.id}-`)}`],
        'bad_signature',
      ],
      ['its own', [from, `In-Reply-To: ${messageId}`], 'stored'],
    ];
    for (const [name, headers, reason] of cases)
      expect(reasonOf(await process(t, mailOf(headers))), name).toBe(reason);
    expect((await repliesOf(ticket)).map((m) => m.body_text)).toEqual(['Here is my answer.']);
    expect(await repliesOf(other.ticket)).toEqual([]);
  });

  it('accepts a request’s old token, of mail sent before the release, for 90 days after it and not later', async () => {
    const until = await readSetting<number>(t.ctx.db, LEGACY_REPLY_TOKENS_UNTIL);
    expect(until).toBeGreaterThan(Date.now() + 89 * DAY);
    expect(until).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    const ticket = await buildTicket(t.ctx, { email: 'olga@example.com', targets: [] });
    const old = `<ticket-${ticket.id}-received.${await legacyReplyTokenOf(t.ctx.db, ticket.id)}@signpost>`;
    const reply = () => mailOf(['From: olga@example.com', `In-Reply-To: ${old}`]);
    expect(reasonOf(await process(t, reply(), until! - DAY))).toBe('stored');
    expect(reasonOf(await process(t, reply(), until! + 1))).toBe('bad_signature');
    expect(await repliesOf(ticket)).toHaveLength(1);

    // Restored from a backup made before the release, the database has no such time: the 90 days start now.
    await t.ctx.db.deleteFrom('settings').where('key', '=', LEGACY_REPLY_TOKENS_UNTIL).execute();
    const restored = until! + 10 * DAY;
    expect(reasonOf(await process(t, reply(), restored))).toBe('stored');
    expect(await readSetting(t.ctx.db, LEGACY_REPLY_TOKENS_UNTIL)).toBe(restored + 90 * DAY);
    expect(reasonOf(await process(t, reply(), restored + 91 * DAY))).toBe('bad_signature');
  });

  it('with IMAP_AUTHSERV_ID, reads only the Authentication-Results its own server wrote', async () => {
    const { ticket, messageId } = await answered(vouched, 'pia@example.com');
    const reply = (...results: string[]) =>
      mailOf([...results, 'From: Pia <pia@example.com>', `In-Reply-To: ${messageId}`]);
    const ours = 'Authentication-Results: mx.help.example.com;';
    const cases: [string, Buffer, string][] = [
      // Anyone on the way can write a header; another authserv-id's is not read, and ours is missing.
      [
        'only another server’s pass',
        reply('Authentication-Results: mx.example.org; dmarc=pass header.from=example.com'),
        'unauthenticated',
      ],
      ['none at all', reply(), 'unauthenticated'],
      [
        'ours says DMARC failed',
        reply(`${ours} dkim=pass header.d=example.com; dmarc=fail header.from=example.com`),
        'unauthenticated',
      ],
      [
        'ours: a pass for another domain only',
        reply(`${ours} dkim=pass header.d=example.org; spf=pass smtp.mailfrom=x@example.org`),
        'unauthenticated',
      ],
      [
        'another server’s fail beside ours',
        reply(`${ours} dkim=pass header.d=example.com`, 'Authentication-Results: mx.example.org; dmarc=fail'),
        'stored',
      ],
      [
        'ours: a DMARC pass written inside a quoted local-part',
        reply(`${ours} spf=pass smtp.mailfrom="a;dmarc=pass "@example.org; dmarc=none`),
        'unauthenticated',
      ],
      [
        'ours: DMARC passed for another From',
        reply(`${ours} dmarc=pass header.from=example.org`),
        'unauthenticated',
      ],
      ['ours: SPF aligned', reply(`${ours} spf=pass smtp.mailfrom=pia@mail.example.com`), 'stored'],
      [
        'ours: DMARC passed',
        reply(`${ours.replace('mx.help', 'MX.Help')} dmarc=pass (p=reject) header.from=example.com`),
        'stored',
      ],
    ];
    for (const [name, source, reason] of cases)
      expect(reasonOf(await process(vouched, source)), name).toBe(reason);
    const replies = (await messagesOf(vouched.ctx.db, ticket.id, { internal: false })).filter(
      (m) => m.from_team === 0,
    );
    expect(replies).toHaveLength(3);
  });

  it('reads IMAP_AUTHSERV_ID at start-up: a host name, and only beside IMAP_URL', () => {
    const base = { PUBLIC_URL: 'https://help.example.com', IMAP_URL: 'imap://u:p@127.0.0.1/INBOX' };
    expect(loadConfig(base).imap?.authservId).toBeNull();
    expect(loadConfig({ ...base, IMAP_AUTHSERV_ID: ' mx.example.com ' }).imap?.authservId).toBe(
      'mx.example.com',
    );
    for (const env of [
      { ...base, IMAP_AUTHSERV_ID: 'mx.example.com; dmarc=pass' },
      { ...base, IMAP_AUTHSERV_ID: 'two words' },
      { PUBLIC_URL: base.PUBLIC_URL, IMAP_AUTHSERV_ID: 'mx.example.com' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as ConfigError).variable).toBe('IMAP_AUTHSERV_ID');
      }
    }
  });
});
