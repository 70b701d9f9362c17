import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { FileRow, OutboxRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import { signFileLink } from '../file-links.ts';
import { outgoingRequest } from '../../lib/outgoing-request.ts';

export const SIGNATURE_HEADER = 'x-signpost-signature';
export const DELIVERY_HEADER = 'x-signpost-delivery';
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookMessage {
  id: number;
  author_name: string;
  from_team: boolean;
  body_text: string;
  created_at: string;
  files: WebhookFile[];
}

interface WebhookFile {
  id: number;
  original_name: string;
  file_size: number;
  mime_type: string;
  link: string;
}

export interface WebhookPayload {
  /**
   * `ticket.created` for a new request; `ticket.replied` with `message` for a reply of the team or the requester;
   * `ticket.status_changed` with `status` (the status that change went to).
   */
  event: 'ticket.created' | 'ticket.replied' | 'ticket.status_changed';
  status?: TicketRow['status'];
  ticket: {
    id: number;
    title: string;
    description: string;
    name: string;
    email: string;
    channel: string;
    lang: string;
    created_at: string;
    files: WebhookFile[];
  };
  message?: WebhookMessage;
}

const presentFiles = (ctx: AppContext, files: FileRow[], now: number): Promise<WebhookFile[]> =>
  Promise.all(
    files.map(async (file) => ({
      id: file.id,
      original_name: file.original_name,
      file_size: Number(file.size),
      mime_type: file.mime_type,
      link: await signFileLink(ctx, file.id, now),
    })),
  );

export async function buildWebhookPayload(
  ctx: AppContext,
  ticket: TicketRow,
  files: FileRow[],
  now: number,
): Promise<WebhookPayload> {
  return {
    event: 'ticket.created',
    ticket: {
      id: ticket.id,
      title: ticket.title,
      description: ticket.description,
      name: ticket.name,
      email: ticket.email,
      channel: ticket.channel,
      lang: ticket.lang,
      created_at: new Date(Number(ticket.created_at)).toISOString(),
      files: await presentFiles(ctx, files, now),
    },
  };
}

/** A reply, with the request it belongs to (the request's own files; the reply's in `message`). */
export async function buildReplyPayload(
  ctx: AppContext,
  ticket: TicketRow,
  ticketFiles: FileRow[],
  message: TicketMessageRow,
  messageFiles: FileRow[],
  now: number,
): Promise<WebhookPayload> {
  const created = await buildWebhookPayload(ctx, ticket, ticketFiles, now);
  return {
    ...created,
    event: 'ticket.replied',
    message: {
      id: message.id,
      author_name: message.author_name,
      from_team: message.from_team === 1,
      body_text: message.body_text,
      created_at: new Date(Number(message.created_at)).toISOString(),
      files: await presentFiles(ctx, messageFiles, now),
    },
  };
}

/** `sha256=<hex>` over the exact bytes sent, so a receiver checks what it got before parsing it. */
export const signBody = (secret: string, body: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** The same key on every attempt of one delivery, so the receiver drops a repeat. */
export function idempotencyKeyOf(
  delivery: Pick<OutboxRow, 'ticket_id' | 'kind' | 'message_id' | 'status_number'>,
): string {
  if (delivery.kind === 'message')
    return `ticket-${delivery.ticket_id}-message-${delivery.message_id}-webhook`;
  if (delivery.kind === 'status')
    return `ticket-${delivery.ticket_id}-status-${delivery.status_number}-webhook`;
  return `ticket-${delivery.ticket_id}-webhook`;
}

/** Posts one ticket; resolves when the receiver answered 2xx and throws with the reason otherwise. */
export async function sendWebhook(
  ctx: AppContext,
  delivery: OutboxRow,
  payload: WebhookPayload,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  const { webhookUrl, webhookSecret } = ctx.config.tickets;
  if (!webhookUrl) throw new Error('TICKET_WEBHOOK_URL is not set');
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [DELIVERY_HEADER]: String(delivery.id),
    'idempotency-key': idempotencyKeyOf(delivery),
  };
  if (webhookSecret) headers[SIGNATURE_HEADER] = signBody(webhookSecret, body);
  let response: Response;
  try {
    // No redirect followed: one is the receiver's misconfiguration to fix, not a place to send tickets to.
    response = await outgoingRequest(webhookUrl, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      secretHeaders: [SIGNATURE_HEADER],
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new Error(`no answer within ${timeoutMs / 1000} s`, { cause: error });
    }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}${cause}`, { cause: error });
  }
  const text = await response.text().catch(() => '');
  if (response.status < 200 || response.status >= 300) {
    const excerpt = text.trim().slice(0, 200);
    throw new Error(`HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
}
