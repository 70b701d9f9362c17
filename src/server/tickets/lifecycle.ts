import { TICKET_TRANSITIONS, type TicketStatus } from '../../shared/constants.ts';
import type { FieldError } from '../../shared/api/common.ts';
import type { Db, Executor } from '../db/database.ts';
import type { OutboxTarget, TicketMessageRow, TicketRow } from '../db/tables.ts';
import { ApiError } from '../http/errors.ts';
import { isUniqueViolation } from '../db/constraint-errors.ts';
import { checkQueueable, enqueue, inTransaction, type MessageWrite, writeMessage } from './outbox.ts';
import { escapeHtml } from '../../shared/html.ts';
import { moveTicket } from './thread.repository.ts';

/**
 * The life of a request, in one place: which status moves the team and the requester may make, what a message does
 * to the status by itself, the refusals (each 409 built here once) and the events a change emits (its deliveries,
 * the webhook's `ticket.status_changed`). The admin, portal and mail adapters decide nothing of this themselves.
 */

/** Who moves a request: a member of the team, or the requester. */
export type Mover = 'team' | 'requester';

/**
 * The moves each may make. The team's are the contract's TICKET_TRANSITIONS (the admin app offers them); the
 * requester may mark a request solved (from anything but closed), or reopen a solved one.
 */
const MOVES: Record<Mover, Record<TicketStatus, readonly TicketStatus[]>> = {
  team: TICKET_TRANSITIONS,
  requester: {
    new: ['solved'],
    open: ['solved'],
    waiting: ['solved'],
    solved: ['open'],
    closed: [],
  },
};

/** Whether `mover` may take a request from `from` to `to` (staying where it is is no move, and always allowed). */
export const mayMove = (mover: Mover, from: TicketStatus, to: TicketStatus): boolean =>
  from === to || MOVES[mover][from].includes(to);

/** The refusals of the lifecycle; an adapter that speaks the reader's language passes its own `fields`. */
export const refusals = {
  closed: () =>
    new ApiError(409, 'closed', 'This request is closed: a new question is a new request', [
      { field: 'body', message: 'the request is closed' },
    ]),
  transition: (
    from: TicketStatus,
    to: TicketStatus,
    fields: FieldError[] = [{ field: 'status', message: `cannot go from ${from} to ${to}` }],
  ) => new ApiError(409, 'invalid_transition', `A ${from} request cannot become ${to}`, fields),
  changedMeanwhile: (fields: FieldError[] = [{ field: 'status', message: 'changed meanwhile' }]) =>
    new ApiError(409, 'conflict', 'The request changed meanwhile: read it again', fields),
  fileTaken: () =>
    new ApiError(409, 'conflict', 'A file was just sent with another message', [
      { field: 'files', message: 'was just sent with another message' },
    ]),
};

/** Throws the transition refusal unless `mover` may take the request from `from` to `to`. */
export function checkMove(mover: Mover, from: TicketStatus, to: TicketStatus, fields?: FieldError[]): void {
  if (!mayMove(mover, from, to)) throw refusals.transition(from, to, fields);
}

/**
 * The event a status change emits, in the change's own transaction: the webhook's `ticket.status_changed`, when a
 * webhook is set and the status did move.
 */
export async function emitStatusChange(
  trx: Executor,
  ticket: Pick<TicketRow, 'id' | 'status'>,
  status: TicketStatus,
  now: number,
  webhook: boolean,
): Promise<void> {
  // Checked with or without a webhook, so a caller in the wrong transaction fails in every configuration.
  checkQueueable(trx);
  if (webhook && status !== ticket.status) await enqueue(trx, ticket.id, { kind: 'status', status }, now);
}

/**
 * The requester moves their request (mark solved, reopen): refused (409) outside their moves, or when the request
 * changed since it was read; the move and its event commit together. `say` gives the refusals' fields in the
 * reader's language.
 */
export async function moveByRequester(
  db: Db,
  ticket: TicketRow,
  status: TicketStatus,
  options: { webhook: boolean; say: (key: 'statusNotAllowed' | 'changedMeanwhile') => Promise<FieldError[]> },
): Promise<void> {
  if (status === ticket.status) return;
  if (!mayMove('requester', ticket.status, status))
    throw refusals.transition(ticket.status, status, await options.say('statusNotAllowed'));
  const now = Date.now();
  const moved = await inTransaction(db, async (trx) => {
    const done = await moveTicket(trx, ticket, status, now);
    if (done) await emitStatusChange(trx, ticket, status, now, options.webhook);
    return done;
  });
  if (!moved) throw refusals.changedMeanwhile(await options.say('changedMeanwhile'));
}

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

/**
 * Everything a message does to a request, decided before anything is written: the status it leaves (the writer's,
 * else `statusAfter`), its HTML, its row, its files, its deliveries and whether the webhook hears of a status the
 * writer chose. A closed request takes no message (409); a status move outside TICKET_TRANSITIONS is refused (409).
 */
export function planMessage(ticket: TicketRow, message: NewMessage, now: number): MessageWrite {
  if (ticket.status === 'closed') throw refusals.closed();
  const status = message.status ?? statusAfter(ticket, message);
  // A message's own move is one the team makes: a requester's reply hands the request back to the team (waiting or
  // solved to open), which the requester's status buttons do not offer.
  checkMove('team', ticket.status, status);
  return {
    ticket,
    status,
    row: {
      author_id: message.author.id,
      author_name: message.author.name,
      from_team: message.author.fromTeam ? 1 : 0,
      internal: message.internal ? 1 : 0,
      body_text: message.text,
      body_html: message.html ?? textToHtml(message.text),
      created_at: now,
    },
    fileIds: message.fileIds,
    targets: message.targets,
    // A status the writer chose is a change of its own; the move a message makes by itself is in its ticket.replied.
    statusEvent: message.status !== undefined && (message.statusWebhook ?? false) && status !== ticket.status,
    now,
  };
}

/**
 * Adds a message to a request in a transaction of its own, as `planMessage` decides it (see there for the refusals);
 * a request whose status changed since it was read is refused, not overwritten (409).
 */
export async function addMessage(
  db: Db,
  ticket: TicketRow,
  message: NewMessage,
  now = Date.now(),
): Promise<TicketMessageRow> {
  const plan = planMessage(ticket, message, now);
  try {
    const row = await writeMessage(db, plan);
    if (!row) throw refusals.changedMeanwhile();
    return row;
  } catch (error) {
    // Two messages sent at once with the same upload both pass the check before either is written; the second is
    // stopped by the unique index on the file, and rolled back whole.
    if (isUniqueViolation(error)) throw refusals.fileTaken();
    throw error;
  }
}
