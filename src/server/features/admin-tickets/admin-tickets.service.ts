import type { PagedList } from '../../../shared/api/common.ts';
import {
  RELATED_TICKETS_MAX,
  type RelatedTickets,
  type TeamList,
  type TicketCounts,
  type TicketListQuery,
  type TicketReplyBody,
  TICKET_MESSAGE_MAX,
  type TicketRouting,
  type TicketUpdateBody,
  type TicketView,
} from '../../../shared/api/tickets.ts';
import type { TicketsConfig } from '../../config/config.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Dialect } from '../../db/schema-helpers.ts';
import type { OutboxTarget, TicketRow, UserRow } from '../../db/tables.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { findUser, listTeam, lockUsers } from '../../accounts/users.repository.ts';
import { TEAM_ROLES } from '../../../shared/constants.ts';
import {
  addMessage,
  checkMove,
  emitStatusChange,
  findAttachableUploads,
  findTicket,
  inTransaction,
  refusals,
  signFilePaths,
  userKey,
} from '../../tickets/index.ts';
import { cleanText } from '../../lib/clean-text.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { htmlToMailText } from '../../html/mail-text.ts';
import {
  countByStatus,
  countTickets,
  searchCandidates,
  deliveriesOfTickets,
  listInbox,
  type InboxFilter,
  type SearchWord,
  filesOfTickets,
  messagesOfTickets,
  otherTicketsOfRequester,
  writeTicketIfUnchanged,
} from './admin-tickets.repository.ts';
import { presentTicket } from './admin-tickets.presenters.ts';

export const TICKET_PAGE_SIZE = 20;

/** Three queries for a whole page, whatever its size, rather than three per ticket. */
async function presentTickets(db: Executor, tickets: TicketRow[]): Promise<TicketView[]> {
  const ids = tickets.map((t) => t.id);
  const [files, messages, deliveries] = await Promise.all([
    filesOfTickets(db, ids),
    messagesOfTickets(db, ids),
    deliveriesOfTickets(db, ids),
  ]);
  const links = await signFilePaths(
    db,
    files.map((file) => file.id),
  );
  return tickets.map((ticket) =>
    presentTicket(
      ticket,
      files.filter((f) => f.ticket_id === ticket.id),
      messages.filter((m) => m.ticket_id === ticket.id),
      deliveries.filter((d) => d.ticket_id === ticket.id),
      links,
    ),
  );
}

/**
 * The words of an inbox search: letters and digits, in lower case, each whole, or a word's start when it ends in
 * `*` (`therm*`); at most ten, so a query stays cheap.
 */
export const searchWords = (text: string): SearchWord[] =>
  (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+\*?/gu) ?? []
  )
    .slice(0, 10)
    .map((token) =>
      token.endsWith('*') ? { text: token.slice(0, -1), prefix: true } : { text: token, prefix: false },
    );

/** A page of the inbox; `assignee: 'me'` means the caller's (the CLI has none, and asks for no such page). */
export async function pageTickets(
  db: Executor,
  query: TicketListQuery = {},
  callerId: number | null = null,
  dialect: Dialect = 'sqlite',
): Promise<PagedList<TicketView>> {
  const { page = 1, per_page: perPage = TICKET_PAGE_SIZE } = query;
  if (query.assignee === 'me' && callerId === null) throw badRequest('assignee', 'needs a signed-in caller');
  const words = searchWords(query.q ?? '');
  const filter: InboxFilter = {
    ...(query.status && { status: query.status }),
    ...(query.assignee && { assigneeId: query.assignee === 'me' ? callerId : null }),
    ...(words.length > 0 && { ids: await searchCandidates(db, dialect, words) }),
  };
  const total = await countTickets(db, filter);
  const offset = (page - 1) * perPage;
  // Past the end there is nothing to read, and an absurd page number never reaches the database as an offset.
  const rows = offset < total ? await listInbox(db, filter, perPage, offset) : [];
  return {
    items: await presentTickets(db, rows),
    _meta: { pageCount: Math.ceil(total / perPage), totalCount: total, currentPage: page, perPage },
  };
}

export async function ticketCounts(db: Executor): Promise<TicketCounts> {
  const counts: TicketCounts = { new: 0, open: 0, waiting: 0, solved: 0, closed: 0 };
  for (const { status, count } of await countByStatus(db)) counts[status] = count;
  return counts;
}

export async function getTicket(db: Executor, id: number): Promise<TicketView> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const [view] = await presentTickets(db, [ticket]);
  if (!view) throw notFound(`Ticket ${id}`);
  return view;
}

/** The same requester's other requests, so the team sees what else they asked. */
export async function relatedTickets(db: Executor, id: number): Promise<RelatedTickets> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const rows = await otherTicketsOfRequester(db, ticket, RELATED_TICKETS_MAX);
  return {
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status,
      updated_at: new Date(Number(row.updated_at ?? row.created_at)).toISOString(),
    })),
  };
}

/** Whether the team hears of new requests: by email, by webhook, or (neither) only by looking. */
export async function ticketRouting(
  db: Executor,
  config: Pick<TicketsConfig, 'supportEmail' | 'webhookUrl' | 'smtpUrl'>,
): Promise<TicketRouting> {
  return {
    // SUPPORT_EMAIL needs SMTP_URL; SMTP_URL alone mails every member of the team.
    email: config.smtpUrl !== null,
    webhook: config.webhookUrl !== null,
    mail: config.smtpUrl !== null,
    stored: await countTickets(db),
  };
}

/**
 * Moves a request to another status (only as the lifecycle lets the team: 409 naming `status` otherwise) and gives it to a
 * member of the team or to nobody (400 naming `assignee_id` for anyone else). A request changed by someone else
 * since it was read is refused (409), not overwritten.
 */
export async function updateTicket(
  db: Db,
  id: number,
  body: TicketUpdateBody,
  statusWebhook = false,
): Promise<TicketView> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const status = body.status ?? ticket.status;
  checkMove('team', ticket.status, status);
  const assigneeId = body.assignee_id === undefined ? ticket.assignee_id : body.assignee_id;
  if (assigneeId !== null && assigneeId !== ticket.assignee_id) {
    const assignee = await findUser(db, assigneeId);
    if (!assignee || !TEAM_ROLES.includes(assignee.role))
      throw badRequest('assignee_id', 'must be a member of the team');
  }
  const now = Date.now();
  // The change and the webhook's word of it commit together.
  const written = await inTransaction(db, async (trx) => {
    // The new assignee's row is held until the change commits: a demotion under way is waited for (and then seen
    // by the write), and one that starts later waits for this assignment, as if it came after it.
    if (assigneeId !== null && assigneeId !== ticket.assignee_id) await lockUsers(trx, [assigneeId]);
    const changed = await writeTicketIfUnchanged(trx, ticket, {
      status,
      assignee_id: assigneeId,
      updated_at: now,
    });
    if (changed) await emitStatusChange(trx, ticket, status, now, statusWebhook);
    return changed;
  });
  if (!written) {
    // The assignee left the team between the check and the write: said as the check says it.
    const assignee = assigneeId === null ? undefined : await findUser(db, assigneeId);
    if (assignee && !TEAM_ROLES.includes(assignee.role))
      throw badRequest('assignee_id', 'must be a member of the team');
    throw refusals.changedMeanwhile();
  }
  return getTicket(db, id);
}

/** Where a reply of the team goes besides the thread: the requester by email, and the webhook. */
function replyTargets(config: TicketsConfig): OutboxTarget[] {
  return [
    ...(config.webhookUrl ? ['webhook' as const] : []),
    ...(config.smtpUrl ? ['requester' as const] : []),
  ];
}

/**
 * What the writer said: rich text (`body_html`) sanitised as every stored fragment is, with its plain text made from
 * it for the mail and search; or plain text (`body`). 400 naming the field when there is nothing to send.
 */
async function messageOf(body: TicketReplyBody): Promise<{ text: string; html?: string }> {
  if (body.body_html !== undefined) {
    const html = await cleanHtml(body.body_html, 'body_html');
    const text = htmlToMailText(html);
    if (!text) throw badRequest('body_html', 'must not be empty');
    if (text.length > TICKET_MESSAGE_MAX)
      throw badRequest('body_html', `must be at most ${TICKET_MESSAGE_MAX} characters of text`);
    return { text, html };
  }
  const text = cleanText(body.body ?? '', true);
  if (!text) throw badRequest('body', 'must not be empty');
  return { text };
}

/**
 * A reply of the team, mailed to the requester in their language, or an internal note that never leaves the team;
 * with the writer's own untaken uploads (400 naming `files` otherwise).
 */
export async function replyToTicket(
  db: Db,
  config: TicketsConfig,
  id: number,
  writer: UserRow,
  body: TicketReplyBody,
): Promise<TicketView> {
  const ticket = await findTicket(db, id);
  if (!ticket) throw notFound(`Ticket ${id}`);
  const { text, html } = await messageOf(body);
  const fileIds = [...new Set(body.files ?? [])];
  const attachable = new Set(
    (await findAttachableUploads(db, [userKey(writer.id)], fileIds)).map((f) => f.id),
  );
  const missing = fileIds.find((fileId) => !attachable.has(fileId));
  if (missing !== undefined) throw badRequest('files', `file ${missing} is not one of your untaken uploads`);
  const internal = body.internal ?? false;
  await addMessage(db, ticket, {
    author: { id: writer.id, name: writer.name, fromTeam: true },
    text,
    ...(html !== undefined && { html }),
    internal,
    fileIds,
    ...(body.status && { status: body.status }),
    targets: internal ? [] : replyTargets(config),
    statusWebhook: config.webhookUrl !== null,
  });
  return getTicket(db, id);
}

export async function teamList(db: Executor): Promise<TeamList> {
  const team = await listTeam(db);
  return {
    items: team.map((member) => ({
      id: member.id,
      name: member.name,
      role: member.role === 'admin' ? 'admin' : 'agent',
    })),
  };
}
