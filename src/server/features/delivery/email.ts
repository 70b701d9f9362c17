import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { AppContext } from '../../context.ts';
import type { FileRow, TicketRow } from '../../db/tables.ts';

// Well inside the 60 s a claimed row stays locked, so a stalled mail server does not let another server step in.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The same id on every attempt, so a mail system that saw the first copy can drop a repeat. */
export const messageIdOf = (ticketId: number) => `<ticket-${ticketId}@signpost>`;
/** A message's own id, the same on every attempt; mail clients thread it under the request's. */
export const replyMessageIdOf = (ticketId: number, messageId: number) =>
  `<ticket-${ticketId}-message-${messageId}@signpost>`;

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function emailText(ticket: TicketRow, files: FileRow[]): string {
  const lines = [
    `Ticket #${ticket.id}`,
    `From: ${ticket.name} <${ticket.email}>`,
    `Channel: ${ticket.channel}`,
    `Language: ${ticket.lang}`,
    `Created: ${new Date(Number(ticket.created_at)).toISOString()}`,
    '',
    ticket.description,
  ];
  if (files.length > 0) {
    lines.push('', 'Attached files:');
    for (const file of files) lines.push(`- ${file.original_name} (${formatSize(Number(file.size))})`);
  }
  return `${lines.join('\n')}\n`;
}

/** One mail through SMTP_URL, from MAIL_FROM, with the files attached. */
export async function sendMail(
  ctx: AppContext,
  mail: Omit<SendMailOptions, 'from' | 'attachments'>,
  files: FileRow[],
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

/**
 * Mails one ticket to the support address (or to the team, when given), with the visitor as Reply-To so answering
 * reaches them, and the request's page in the admin app.
 */
export async function sendEmail(
  ctx: AppContext,
  ticket: TicketRow,
  files: FileRow[],
  to: string[] | null = null,
): Promise<void> {
  const { supportEmail } = ctx.config.tickets;
  const recipients = to ?? (supportEmail ? [supportEmail] : null);
  if (!recipients) throw new Error('SUPPORT_EMAIL is not set');
  await sendMail(
    ctx,
    {
      to: recipients,
      replyTo: { name: ticket.name, address: ticket.email },
      subject: ticket.title,
      text: `${emailText(ticket, files)}\nAnswer in the admin app: ${ctx.config.publicUrl}/admin/requests/${ticket.id}\n`,
      messageId: messageIdOf(ticket.id),
    },
    files,
  );
}
