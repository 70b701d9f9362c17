import type { TicketStatus } from '../../shared/constants.ts';
import type { Db, Executor, Tx } from '../db/database.ts';
import type { OutboxTarget } from '../db/tables.ts';
import { insertDeliveries, insertStatusEvent } from './outbox.repository.ts';

/**
 * The requests' outbox: what the delivery worker sends (a new request, a message of its thread, a change of status),
 * queued by one `enqueue()` that wakes this server's worker itself once the rows can be seen: at once outside a
 * transaction, and only after the commit inside one (a row woken for before its commit may be invisible to the
 * worker's pass; a rolled-back one was never there to send). Other servers on the same database find the rows by
 * their own worker's periodic pass, as before.
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
