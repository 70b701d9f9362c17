import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { AppContext } from '../context.ts';
import type { FileRow } from '../db/tables.ts';

// Well inside the 60 s a claimed outbox row stays locked, so a stalled mail server does not let another server step in.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** One mail through SMTP_URL, from MAIL_FROM, with the files attached. */
export async function sendMail(
  ctx: AppContext,
  mail: Omit<SendMailOptions, 'from' | 'attachments'>,
  files: FileRow[] = [],
): Promise<void> {
  const { smtpUrl, mailFrom } = ctx.config.tickets;
  if (!smtpUrl) throw new Error('SMTP_URL is not set');
  // Options in the URL's query (e.g. ?requireTLS=true) win over these defaults.
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  try {
    await transport.sendMail({
      ...mail,
      from: mailFrom,
      attachments: files.map((file) => ({
        filename: file.original_name,
        contentType: file.mime_type,
        content: ctx.storage.read(file.storage_key),
      })),
    });
  } finally {
    transport.close();
  }
}
