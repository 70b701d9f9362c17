import { sql } from 'kysely';
import { TEAM_ROLES, type TicketStatus } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import type { Dialect } from '../../db/schema-helpers.ts';
import type { FileRow, OutboxRow, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import { OWN_TEXT_OFFSET, RECENCY_BLOCK } from '../../db/schema-values.ts';

/**
 * Which requests the inbox shows: by status, by assignee (a user id, or null for nobody's), and by words (each
 * found whole or, when asked, as a word's start; all in the request's own text or all in one message of its thread).
 */
export interface InboxFilter {
  status?: TicketStatus;
  assigneeId?: number | null;
  /** The requests a search found (`searchCandidates`), read once for the count and the page. */
  ids?: number[];
}

/** A word to find: whole, or (`prefix`) as the start of a word. */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

function inbox(db: Executor, filter: InboxFilter) {
  let query = db.selectFrom('tickets');
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.assigneeId === null) query = query.where('assignee_id', 'is', null);
  else if (filter.assigneeId !== undefined) query = query.where('assignee_id', '=', filter.assigneeId);
  // Given as values, not a subquery: PostgreSQL then plans the list and the count knowing how many there are.
  if (filter.ids)
    query = query.where(
      filter.ids.length ? sql<boolean>`id in (${sql.join(filter.ids)})` : sql<boolean>`1 = 0`,
    );
  return query;
}

/**
 * SQLite: the requests whose texts match the words, among the newest SEARCH_MATCHES_MAX matching texts of each kind
 * (a request's own, a message), so a word found everywhere costs no more than a rare one. FTS5 reads its lists
 * newest first and stops at the limit.
 */
async function sqliteCandidates(db: Executor, words: SearchWord[]): Promise<number[]> {
  const terms = words.map((word) => `"${word.text}"${word.prefix ? '*' : ''}`).join(' ');
  const { rows } = await sql<{ ticket_id: number }>`
    select ticket_id from (select ticket_id from ticket_search where ticket_search match ${terms} and rowid < 0
      order by rowid desc limit ${SEARCH_MATCHES_MAX})
    union select ticket_id from (select ticket_id from ticket_search where ticket_search match ${terms}
      and rowid > 0 order by rowid desc limit ${SEARCH_MATCHES_MAX})`.execute(db);
  return rows.map((row) => Number(row.ticket_id));
}

/**
 * The requests whose texts match the words, among the newest SEARCH_MATCHES_MAX matching texts of each kind, found
 * once for a request's count and page (asked as part of both, the search ran twice). On PostgreSQL each kind is
 * asked for block by block of its ids, newest first (migration 0017), in steps that widen until enough are found: a
 * word in a tenth of the texts then costs the rows of its newest matches, not of all of them.
 */
export async function searchCandidates(
  db: Executor,
  dialect: Dialect,
  words: SearchWord[],
): Promise<number[]> {
  if (dialect === 'sqlite') return sqliteCandidates(db, words);
  const terms = words.map((word) => `${word.text}${word.prefix ? ':*' : ''}`).join(' & ');
  const { rows: newest } = await sql<{ ticket: number | null; message: number | null }>`
    select (select max(id) from tickets) as ticket, (select max(id) from ticket_messages) as message`.execute(
    db,
  );
  const found = new Set<number>();
  for (const kind of ['own', 'thread'] as const) {
    const last = Number((kind === 'own' ? newest[0]?.ticket : newest[0]?.message) ?? 0);
    const ofKind = kind === 'own' ? sql`doc_id < 0` : sql`doc_id > 0`;
    let left = SEARCH_MATCHES_MAX;
    let block = Math.floor(last / RECENCY_BLOCK);
    let size = FIRST_WINDOW_BLOCKS;
    while (left > 0 && block >= 0) {
      const first = block - size + 1;
      // The last step takes every older text, without naming its blocks, and sorted rather than read along the
      // key: walking the key back from the newest, PostgreSQL read 97,000 rows to find two common words' 1,000.
      const rest = first <= 0 || size > MAX_WINDOW_BLOCKS;
      const bound = block + 1;
      const { rows } = rest
        ? await sql<{ ticket_id: number }>`
            select ticket_id from ticket_search where doc @@ to_tsquery('simple', ${terms}) and ${ofKind}
              and doc_id < ${idOf(kind, bound)}
            order by doc_id + 0 desc limit ${left}`.execute(db)
        : await sql<{ ticket_id: number }>`
            select ticket_id from ticket_search where doc @@ to_tsquery('simple', ${terms}) and ${ofKind}
              and doc @@ ${blocksQuery(kind, first, block)}::tsquery
              and doc_id + 0 >= ${idOf(kind, first)} and doc_id + 0 < ${idOf(kind, bound)}
            order by doc_id desc limit ${left}`.execute(db);
      for (const row of rows) found.add(Number(row.ticket_id));
      left -= rows.length;
      if (rest) break;
      // The next step is as wide as the matches seen so far say the rest need (half as much again), at least
      // four times this one: a word's start is gathered from the whole index at each step, so steps are few.
      const seen = SEARCH_MATCHES_MAX - left;
      const covered = last + 1 - first * RECENCY_BLOCK;
      const needed = seen === 0 ? Infinity : Math.ceil(((left * covered) / seen / RECENCY_BLOCK) * 1.5);
      size = Math.max(size * 4, needed);
      block = first - 1;
    }
  }
  return [...found];
}

/** The blocks of ids a search reads first, newest first (the newest block is only partly filled). */
const FIRST_WINDOW_BLOCKS = 2;
/** Wider than this, a step reads every older text instead of naming its blocks. */
const MAX_WINDOW_BLOCKS = 64;
/**
 * The first text number of a block. A step bounds its texts by number as well as by block word: a text's own words
 * can hold a block's word (PostgreSQL keeps `x~m5` as one token), which would count it again in a later step.
 */
const idOf = (kind: 'own' | 'thread', block: number) =>
  kind === 'own' ? block * RECENCY_BLOCK - OWN_TEXT_OFFSET : block * RECENCY_BLOCK;

/** A tsquery for the recency words of blocks `first` to `last` of one kind (`'~o12' | '~o13'`). */
const blocksQuery = (kind: 'own' | 'thread', first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, i) => `'~${kind === 'own' ? 'o' : 'm'}${first + i}'`).join(
    ' | ',
  );

/** How many of the newest matching texts of each kind a search considers (documented in docs/decisions.md). */
export const SEARCH_MATCHES_MAX = 1000;

export async function countTickets(db: Executor, filter: InboxFilter = {}): Promise<number> {
  // By status alone (or all of them): the counts the triggers keep, not a count of every row.
  if (filter.assigneeId === undefined && !filter.ids) {
    const counts = await countByStatus(db);
    return counts
      .filter((row) => filter.status === undefined || row.status === filter.status)
      .reduce((sum, row) => sum + row.count, 0);
  }
  // A search's requests alone: each id it found is a request (its texts go with it), so they are the count.
  if (filter.ids && filter.status === undefined && filter.assigneeId === undefined) return filter.ids.length;
  const row = await inbox(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of the inbox, latest activity first. */
export function listInbox(
  db: Executor,
  filter: InboxFilter,
  limit: number,
  offset: number,
): Promise<TicketRow[]> {
  return inbox(db, filter)
    .selectAll()
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Requests by status, as the triggers of migration 0015 keep them (a status without a row has none). */
export async function countByStatus(db: Executor): Promise<{ status: TicketStatus; count: number }[]> {
  const { rows } = await sql<{ status: TicketStatus; count: number | string }>`
    select status, count from ticket_counts where count > 0`.execute(db);
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/** The files of several tickets in one query, in each ticket's order. */
export function filesOfTickets(
  db: Executor,
  ticketIds: number[],
): Promise<(FileRow & { ticket_id: number; message_id: number | null })[]> {
  if (ticketIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ticket_files')
    .innerJoin('files', 'files.id', 'ticket_files.file_id')
    .selectAll('files')
    .select(['ticket_files.ticket_id', 'ticket_files.message_id'])
    .where('ticket_files.ticket_id', 'in', ticketIds)
    .orderBy('ticket_files.ticket_id')
    .orderBy('ticket_files.position')
    .execute();
}

/** The messages of several tickets in one query, internal notes included, in each ticket's order. */
export function messagesOfTickets(db: Executor, ticketIds: number[]): Promise<TicketMessageRow[]> {
  if (ticketIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ticket_messages')
    .selectAll()
    .where('ticket_id', 'in', ticketIds)
    .orderBy('ticket_id')
    .orderBy('id')
    .execute();
}

export function deliveriesOfTickets(db: Executor, ticketIds: number[]): Promise<OutboxRow[]> {
  if (ticketIds.length === 0) return Promise.resolve([]);
  return (
    db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', 'in', ticketIds)
      .orderBy('ticket_id')
      // The request's own first (no message), then each message's: the dialects do not sort nulls alike.
      .orderBy((eb) => eb.fn.coalesce('message_id', eb.lit(0)))
      .orderBy('target')
      .execute()
  );
}

/**
 * Writes a request's new status and assignee, only if its status is still the one the change was decided from: of
 * two people changing it at once, the second learns it moved (false) instead of overwriting the first.
 */
export async function writeTicketIfUnchanged(
  db: Executor,
  ticket: Pick<TicketRow, 'id' | 'status' | 'assignee_id'>,
  changes: { status: TicketStatus; assignee_id: number | null; updated_at: number },
): Promise<boolean> {
  let update = db
    .updateTable('tickets')
    .set(changes)
    .where('id', '=', ticket.id)
    .where('status', '=', ticket.status);
  // A new assignee is on the team when the row is written, not only when it was checked: a demotion committed in
  // between makes the write change nothing.
  const assignee = changes.assignee_id;
  if (assignee !== null && assignee !== ticket.assignee_id)
    update = update.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users')
          .select('users.id')
          .where('users.id', '=', assignee)
          .where('users.role', 'in', [...TEAM_ROLES]),
      ),
    );
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The same requester's other requests (by account, or by email in any case), latest activity first. */
export async function otherTicketsOfRequester(
  db: Executor,
  ticket: TicketRow,
  limit: number,
): Promise<TicketRow[]> {
  const email = ticket.email.trim().toLowerCase();
  // A request without email or account (anonymised) has no requester to match.
  if (!email && ticket.user_id === null) return [];
  return db
    .selectFrom('tickets')
    .selectAll()
    .where('id', '!=', ticket.id)
    .where((eb) =>
      eb.or([
        ...(email ? [eb(sql<string>`lower(email)`, '=', email)] : []),
        ...(ticket.user_id !== null ? [eb('user_id', '=', ticket.user_id)] : []),
      ]),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
