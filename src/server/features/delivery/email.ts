import type { AppContext } from '../../context.ts';
import type { FileRow, TicketRow } from '../../db/tables.ts';
import { sendMail } from '../../mail/send-mail.ts';

/** The same id on every attempt, so a mail system that saw the first copy can drop a repeat. */
export const messageIdOf = (ticketId: number) => `<ticket-${ticketId}@signpost>`;
/**
 * The requester's receipt of a request, threaded under the request's own id; signed with the request's reply token
 * (tickets/reply-token.ts), so an answer to it finds its way back into the thread.
 */
export const receivedMessageIdOf = (ticketId: number, token: string) =>
  `<ticket-${ticketId}-received.${token}@signpost>`;
/** A message's own id, the same on every attempt, signed like the receipt; mail clients thread it under the request's. */
export const replyMessageIdOf = (ticketId: number, messageId: number, token: string) =>
  `<ticket-${ticketId}-message-${messageId}.${token}@signpost>`;

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
