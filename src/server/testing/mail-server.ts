import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback: plain text, no sign-in, keeping every message it accepts. */
export async function startMailServer() {
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
export function attachmentsOf(raw: string): Map<string, Buffer> {
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
export function headerOf(raw: string, name: string): string | undefined {
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

/** The plain-text part of a message, decoded (quoted-printable or base64), as a mail client shows it. */
export function textOf(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  for (const part of parts) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    if (boundary && !/content-type:\s*text\/plain/i.test(head)) continue;
    const body = part.slice(split + 4);
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
    const bytes =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
        : encoding === 'quoted-printable'
          ? Buffer.from(
              body
                .replace(/=\r\n/g, '')
                .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            )
          : Buffer.from(body, 'latin1');
    return bytes.toString('utf8').replace(/\r\n/g, '\n');
  }
  return '';
}
