import { TICKET_TRANSITIONS, type TicketStatus } from '../../shared/constants.ts';
import type { Executor } from '../db/database.ts';
import type { OutboxTarget, TicketMessageRow, TicketRow } from '../db/tables.ts';
import { ApiError } from '../http/errors.ts';
import { isUniqueViolation } from '../db/constraint-errors.ts';
import { enqueueDeliveries, enqueueStatusChange } from './tickets.repository.ts';
import { escapeHtml } from '../../shared/html.ts';
import { attachMessageFiles, insertMessage, moveTicket } from './thread.repository.ts';

/** Who writes a message: a member of the team, or the requester. */
export interface Author {
  id: number | null;
  name: string;
  fromTeam: boolean;
}

export interface NewMessage {
  author: Author;
  /** Plain text as written; kept as is for mail and search, and as paragraphs for pages. */
  text: string;
  /** The message as sanitised HTML (a team reply written as rich text); without it, `text` in paragraphs. */
  html?: string;
  internal: boolean;
  /** Uploads already checked to be the author's and untaken. */
  fileIds: number[];
  /** The status the writer asks for; otherwise the message's own effect (`statusAfter`). */
  status?: TicketStatus;
  /** Deliveries of this message (the outbox sends one per target). */
  targets: OutboxTarget[];
  /** Tell the webhook when the writer's chosen status moves the request (`ticket.status_changed`). */
  statusWebhook?: boolean;
}

/**
 * What a message does to a request when its writer asks for nothing else: a team reply waits for the customer, a
 * note shows someone is on it, and the requester's reply brings the request back to the team.
 */
export function statusAfter(
  ticket: Pick<TicketRow, 'status'>,
  message: Pick<NewMessage, 'author' | 'internal'>,
) {
  const { status } = ticket;
  if (message.author.fromTeam) {
    if (message.internal) return status === 'new' ? 'open' : status;
    return status === 'new' || status === 'open' ? 'waiting' : status;
  }
  return status === 'waiting' || status === 'solved' ? 'open' : status;
}

/** Paragraphs and line breaks of plain text, escaped: what a page shows of a message written as text. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const conflict = () =>
  new ApiError(409, 'conflict', 'The request changed meanwhile: read it again', [
    { field: 'status', message: 'changed meanwhile' },
  ]);

/**
 * Writes a message inside the caller's transaction: the message, its files, the request's new status and activity
 * time, and its deliveries. A closed request takes no message (409); a status move outside TICKET_TRANSITIONS is
 * refused (409); a request whose status changed since it was read is refused, not overwritten (409). A caller that
 * records something of its own with the message (the mail it came in) passes its transaction here.
 */
export async function writeMessage(
  trx: Executor,
  ticket: TicketRow,
  message: NewMessage,
  now = Date.now(),
): Promise<TicketMessageRow> {
  if (ticket.status === 'closed')
    throw new ApiError(409, 'closed', 'This request is closed: a new question is a new request', [
      { field: 'body', message: 'the request is closed' },
    ]);
  const status = message.status ?? statusAfter(ticket, message);
  if (status !== ticket.status && !TICKET_TRANSITIONS[ticket.status].includes(status))
    throw new ApiError(409, 'invalid_transition', `A ${ticket.status} request cannot become ${status}`, [
      { field: 'status', message: `cannot go from ${ticket.status} to ${status}` },
    ]);
  if (!(await moveTicket(trx, ticket, status, now))) throw conflict();
  const row = await insertMessage(trx, ticket.id, {
    author_id: message.author.id,
    author_name: message.author.name,
    from_team: message.author.fromTeam ? 1 : 0,
    internal: message.internal ? 1 : 0,
    body_text: message.text,
    body_html: message.html ?? textToHtml(message.text),
    created_at: now,
  });
  await attachMessageFiles(trx, ticket.id, row.id, message.fileIds);
  await enqueueDeliveries(trx, ticket.id, message.targets, now, row.id);
  // A status the writer chose is a change of its own; the move a message makes by itself is in its ticket.replied.
  if (message.statusWebhook && message.status !== undefined && status !== ticket.status)
    await enqueueStatusChange(trx, ticket.id, status, now);
  return row;
}

/** Adds a message to a request in a transaction of its own (see writeMessage). */
export async function addMessage(
  db: Executor,
  ticket: TicketRow,
  message: NewMessage,
  now = Date.now(),
): Promise<TicketMessageRow> {
  const written = db.transaction().execute((trx) => writeMessage(trx, ticket, message, now));
  // Two messages sent at once with the same upload both pass the check before either is written; the second is
  // stopped by the unique index on the file, and rolled back whole.
  return written.catch((error: unknown) => {
    if (isUniqueViolation(error))
      throw new ApiError(409, 'conflict', 'A file was just sent with another message', [
        { field: 'files', message: 'was just sent with another message' },
      ]);
    throw error;
  });
}
