import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { TicketsConfig } from '../config/config.ts';
import type { FileRow } from '../db/tables.ts';
import type { FileStorage } from '../storage/file-storage.ts';

/**
 * How long one mail may take. The outboxes claim a row for 60 s (ACCOUNT_MAIL_CLAIM_MS, delivery's CLAIM_MS); a send
 * still running when its claim ends lets another server send the mail too. socketTimeout is an idle timeout, so a
 * server that drips a byte now and then never trips it: SMTP_SEND_CAP_MS bounds the whole exchange, connecting to
 * the last answer, and aborting closes the connection. Each timeout fits under the cap, and the cap well inside the
 * claim (send-mail.test.ts holds both).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
export const SMTP_SEND_CAP_MS = 30_000;

/** A mail as its writer makes it: sendMail adds the sender (MAIL_FROM) and the files. */
export type OutgoingMail = Omit<SendMailOptions, 'from' | 'attachments'>;

/** What sending takes of the context: the mail server, the sender's address, and the files' bytes. */
export interface MailContext {
  config: { tickets: Pick<TicketsConfig, 'smtpUrl' | 'mailFrom'> };
  storage: Pick<FileStorage, 'read'>;
}

/**
 * One mail through SMTP_URL, from MAIL_FROM, with the files attached; abandoned after `capMs` (tests pass less). The
 * one way every mail leaves: the requests' and the accounts'.
 */
export async function sendMail(
  ctx: MailContext,
  mail: OutgoingMail,
  files: FileRow[] = [],
  capMs = SMTP_SEND_CAP_MS,
): Promise<void> {
  const { smtpUrl, mailFrom } = ctx.config.tickets;
  if (!smtpUrl) throw new Error('SMTP_URL is not set');
  // Options in the URL's query (e.g. ?requireTLS=true) win over these defaults.
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  // nodemailer reads `signal` (its own types here do not name it yet).
  const options: SendMailOptions & { signal: AbortSignal } = {
    ...mail,
    from: mailFrom,
    attachments: files.map((file) => ({
      filename: file.original_name,
      contentType: file.mime_type,
      content: ctx.storage.read(file.storage_key),
    })),
    signal: AbortSignal.timeout(capMs),
  };
  try {
    await transport.sendMail(options);
  } finally {
    transport.close();
  }
}
