import type { Insertable } from 'kysely';
import type { TicketStatus } from '../../shared/constants.ts';
import type { Db, Executor, Tx } from '../db/database.ts';
import type { OutboxTarget, TicketMessageRow, TicketMessageTable, TicketRow } from '../db/tables.ts';
import { insertDeliveries, insertStatusEvent } from './outbox.repository.ts';
import { attachMessageFiles, insertMessage, moveTicket } from './thread.repository.ts';

/**
 * The requests' outbox: what the delivery worker sends (a new request, a message of its thread, a change of status),
 * queued by one `enqueue()` that wakes this server's worker itself once the rows can be seen: at once outside a
 * transaction, and only after the commit inside one (a row woken for before its commit may be invisible to the
 * worker's pass; a rolled-back one was never there to send). Other servers on the same database find the rows by
 * their own worker's periodic pass, as before. A message, which the lifecycle decides whole first (planMessage), is
 * written here with its deliveries (writeMessage), in a transaction held to the same rule.
 */

/** What one enqueue() stores: deliveries of the request itself or of one of its messages, or a change of status. */
export type OutboxEntry =
  | { kind: 'request'; targets: OutboxTarget[] }
  | { kind: 'message'; messageId: number; targets: OutboxTarget[] }
  | { kind: 'status'; status: TicketStatus };

/** The worker of each database handle (one per server), woken when something of that handle is queued. */
const wakers = new WeakMap<Db, () => void>();

/** The transactions opened by inTransaction, each with its handle and whether it queued anything. */
const openTransactions = new WeakMap<Tx, { db: Db; queued: boolean }>();

/** Registers the worker to wake for rows queued through `db`; the returned function forgets it. */
export function onEnqueued(db: Db, wake: () => void): () => void {
  wakers.set(db, wake);
  return () => {
    if (wakers.get(db) === wake) wakers.delete(db);
  };
}

/**
 * Runs `work` in a transaction of `db`; the worker is woken after it commits if `work` queued anything. Every
 * transaction that enqueues is opened here.
 */
export async function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  const scope = { db, queued: false };
  const result = await db.transaction().execute((trx) => {
    openTransactions.set(trx, scope);
    return work(trx);
  });
  if (scope.queued) wakers.get(db)?.();
  return result;
}

/** Queues `entry` for request `ticketId`; the worker hears of it as soon as the rows are visible (see above). */
export async function enqueue(
  db: Executor,
  ticketId: number,
  entry: OutboxEntry,
  now: number,
): Promise<void> {
  // Checked before anything is queued, so a caller in the wrong transaction fails in every configuration, not only
  // once a mail server or a webhook gives it something to queue.
  const scope = checkQueueable(db);
  if (entry.kind !== 'status' && entry.targets.length === 0) return;
  if (entry.kind === 'status') await insertStatusEvent(db, ticketId, entry.status, now);
  else
    await insertDeliveries(
      db,
      ticketId,
      entry.targets,
      now,
      entry.kind === 'message' ? entry.messageId : null,
    );
  if (scope) scope.queued = true;
  else wakers.get(db as Db)?.();
}

/**
 * The inTransaction scope `db` belongs to; none outside a transaction. A transaction opened elsewhere would commit
 * without anyone waking the worker: a mistake, found at once (thrown whether or not anything is to be queued).
 */
export function checkQueueable(db: Executor): { db: Db; queued: boolean } | null {
  if (!db.isTransaction) return null;
  const scope = openTransactions.get(db as Tx);
  if (!scope)
    throw new Error('enqueue() inside a transaction needs the transaction opened by inTransaction()');
  return scope;
}

/** A message as the lifecycle decided it (planMessage): what writeMessage writes, in this order. */
export interface MessageWrite {
  /** The request as it was read: its status is moved to `status` only if it is still this one. */
  ticket: Pick<TicketRow, 'id' | 'status'>;
  status: TicketStatus;
  row: Omit<Insertable<TicketMessageTable>, 'id' | 'ticket_id'>;
  /** Uploads already checked to be the author's and untaken. */
  fileIds: number[];
  /** Deliveries of the message, one per target. */
  targets: OutboxTarget[];
  /** The webhook's `ticket.status_changed` for `status`. */
  statusEvent: boolean;
  now: number;
}

/**
 * Writes a message in a transaction of its own (inTransaction: the worker is woken after the commit). Null, with
 * nothing written, when the request's status changed since it was read.
 */
export function writeMessage(db: Db, write: MessageWrite): Promise<TicketMessageRow | null> {
  return inTransaction(db, (trx) => writeMessageIn(trx, write));
}

/**
 * Writes a message inside a transaction opened by inTransaction, for a caller that records something of its own with
 * it (the mail it came in): the request's new status and activity time, the message, its files, its deliveries and
 * the status event. Null, with nothing written, when the request's status changed since it was read; a file taken
 * meanwhile fails on its unique index.
 */
export async function writeMessageIn(trx: Tx, write: MessageWrite): Promise<TicketMessageRow | null> {
  const scope = checkQueueable(trx);
  const { ticket, now } = write;
  if (!(await moveTicket(trx, ticket, write.status, now))) return null;
  const row = await insertMessage(trx, ticket.id, write.row);
  await attachMessageFiles(trx, ticket.id, row.id, write.fileIds);
  if (write.targets.length > 0) await insertDeliveries(trx, ticket.id, write.targets, now, row.id);
  if (write.statusEvent) await insertStatusEvent(trx, ticket.id, write.status, now);
  if (scope && (write.targets.length > 0 || write.statusEvent)) scope.queued = true;
  return row;
}
