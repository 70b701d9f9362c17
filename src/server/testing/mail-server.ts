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

interface MimePart {
  /** Unfolded. */
  head: string;
  body: string;
}

/** The parts of a message that hold content, nested multiparts (mixed around alternative) walked through. */
function leafParts(entity: string, top = true): MimePart[] {
  const split = entity.indexOf('\r\n\r\n');
  if (split < 0) return [];
  const head = entity.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = entity.slice(split + 4);
  const type =
    /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? (top ? 'text/plain' : '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
  if (!type.startsWith('multipart/') || !boundary) return [{ head, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .flatMap((part) => leafParts(part.replace(/^\r\n/, ''), false));
}

const decodedBody = ({ head, body }: MimePart): Buffer => {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable')
    return Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
  return Buffer.from(body, 'latin1');
};

/** The attachments of a message, by file name, decoded: enough MIME to prove the bytes arrived whole. */
export function attachmentsOf(raw: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const part of leafParts(raw)) {
    const name = /filename="?([^";\r\n]+)"?/i.exec(part.head)?.[1];
    if (!name || !/content-disposition:\s*attachment/i.test(part.head)) continue;
    expect(part.head).toMatch(/content-transfer-encoding:\s*base64/i);
    found.set(name, decodedBody(part));
  }
  return found;
}

/** The part of this type (text/plain, text/html), decoded, as a mail client shows it; '' without one. */
function contentOf(raw: string, type: string): string {
  const part = leafParts(raw).find(
    (p) =>
      new RegExp(`^content-type:\\s*${type}`, 'im').test(p.head.replace(/\r\n/g, '\n')) ||
      (type === 'text/plain' && !/content-type:/i.test(p.head)),
  );
  return part ? decodedBody(part).toString('utf8').replace(/\r\n/g, '\n') : '';
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
export const textOf = (raw: string): string => contentOf(raw, 'text/plain');

/** The HTML part of a message, decoded; '' for a mail of text only. */
export const htmlOf = (raw: string): string => contentOf(raw, 'text/html');
