import type { MailSentResult } from '../../../shared/api/auth.ts';
import type { PagedList } from '../../../shared/api/common.ts';
import type {
  IssueLinksBody,
  PortalReplyBody,
  PortalStatusBody,
  PortalTicket,
  PortalTicketSummary,
} from '../../../shared/api/portal.ts';
import type { AppContext } from '../../context.ts';
import type { OutboxTarget, TicketRow, UserRow } from '../../db/tables.ts';
import { EMAIL_PATTERN } from '../../accounts/accounts.service.ts';
import { normalEmail } from '../../accounts/users.repository.ts';
import { requireCaptcha } from '../../captcha/captcha.service.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { inSiteLanguage, type FieldProblem } from '../../lib/field-messages.ts';
import { cleanText } from '../../lib/clean-text.ts';
import { nextMidnight } from '../../lib/signed-links.ts';
import { mailAccount, type MailClient, mailUnavailable } from '../../mail/account-mail.ts';
import {
  addMessage,
  awaitsOwner,
  endSenderAccess,
  filesOfPart,
  findAttachableUploads,
  findTicket,
  isoOf,
  isTicketLink,
  messagesOf,
  moveByRequester,
  opensBySenderCookie,
  presentThreadMessage,
  provesAddress,
  saveTicketLink,
  senderMayOpen,
  signFilePaths,
  threadFiles,
  userKey,
} from '../../tickets/index.ts';
import { anonymousTicketsOfEmail, countTicketsOfUser, ticketsOfUser } from './portal-requests.repository.ts';

export const PORTAL_PAGE_SIZE = 20;

/** Who asks: the signed-in user, the private link's key, the browser's upload cookie, the request's sender cookie. */
export interface PortalCaller {
  user: UserRow | null;
  key: string | undefined;
  visitorKey: string | null;
  senderCookie?: string | undefined;
}

/**
 * The request, if the caller may follow it: it is their account's, the key opens it, or the browser that sent it
 * holds its cookie. Anyone else gets the same 404 as for a request that does not exist, so ids cannot be probed.
 *
 * A request sent for an address nobody proved stays its sender's (account or cookie) only until the address's owner
 * takes it up: the private link goes to the address alone, so a key that opens it is theirs, and from then on
 * nothing they write is shown to whoever typed their address (decisions.md, "A request for someone else's address").
 */
async function requestOf(ctx: AppContext, id: number, caller: PortalCaller): Promise<TicketRow> {
  return (await access(ctx, id, caller)).ticket;
}

/** The request and whether the caller opens it as the address's owner, or only as its sender (until taken up). */
async function access(
  ctx: AppContext,
  id: number,
  caller: PortalCaller,
): Promise<{ ticket: TicketRow; asSender: boolean }> {
  const ticket = await findTicket(ctx.db, id);
  if (!ticket) throw notFound(`Request ${id}`);
  const now = Date.now();
  const mine = caller.user !== null && ticket.user_id === caller.user.id;
  // The address's owner: by the link mailed to it, or by an account that confirmed it (which took the request in).
  if (
    (mine && provesAddress(caller.user, ticket.email)) ||
    (caller.key !== undefined && (await isTicketLink(ctx.db, id, caller.key, now)))
  ) {
    if (awaitsOwner(ticket)) {
      await endSenderAccess(ctx.db, id);
      return { ticket: { ...ticket, sender_access_until: 0 }, asSender: false };
    }
    return { ticket, asSender: false };
  }
  const asSender = ticket.sender_access_until !== null;
  if (mine && senderMayOpen(ticket, now)) return { ticket, asSender };
  if (await opensBySenderCookie(ctx.db, ticket, caller.senderCookie, now)) return { ticket, asSender };
  throw notFound(`Request ${id}`);
}

const summaryOf = (ticket: TicketRow): PortalTicketSummary => ({
  id: ticket.id,
  title: ticket.title,
  status: ticket.status,
  created_at: isoOf(ticket.created_at),
  updated_at: isoOf(ticket.updated_at ?? ticket.created_at),
});

async function present(ctx: AppContext, ticket: TicketRow): Promise<PortalTicket> {
  const [messages, files] = await Promise.all([
    messagesOf(ctx.db, ticket.id, { internal: false }),
    threadFiles(ctx.db, ticket.id),
  ]);
  const links = await signFilePaths(
    ctx.db,
    files.map((file) => file.id),
  );
  return {
    ...summaryOf(ticket),
    description: ticket.description,
    name: ticket.name,
    files: filesOfPart(files, null, links),
    messages: messages.map((message) => presentThreadMessage(message, files, links)),
  };
}

export async function pageMyRequests(
  ctx: AppContext,
  user: UserRow,
  page = 1,
): Promise<PagedList<PortalTicketSummary>> {
  // A request the account sent for an address it has not proved is listed while it opens: once the address's owner
  // takes it up, neither its page nor the list shows it (not even that the owner acted on it).
  const mine = {
    userId: user.id,
    provedEmail: user.email_verified_at === null ? null : user.email,
    now: Date.now(),
  };
  const total = await countTicketsOfUser(ctx.db, mine);
  const offset = (page - 1) * PORTAL_PAGE_SIZE;
  const rows = offset < total ? await ticketsOfUser(ctx.db, mine, PORTAL_PAGE_SIZE, offset) : [];
  return {
    items: rows.map(summaryOf),
    _meta: {
      pageCount: Math.ceil(total / PORTAL_PAGE_SIZE),
      totalCount: total,
      currentPage: page,
      perPage: PORTAL_PAGE_SIZE,
    },
  };
}

export async function getMyRequest(ctx: AppContext, id: number, caller: PortalCaller): Promise<PortalTicket> {
  const { ticket, asSender } = await access(ctx, id, caller);
  const shown = await present(ctx, ticket);
  // The owner may have taken the request up (an answer by mail ends the sender's access in the same transaction)
  // between the check above and the thread's reading: the sender is shown the thread only if access still holds
  // after it was read, so what the owner wrote is never part of it.
  if (asSender) {
    const now = await findTicket(ctx.db, id);
    if (!now || !senderMayOpen(now)) throw notFound(`Request ${id}`);
  }
  return shown;
}

/** Where the requester's reply goes besides the thread: the team by email, and the webhook. */
function replyTargets(ctx: AppContext): OutboxTarget[] {
  const { webhookUrl, smtpUrl } = ctx.config.tickets;
  return [...(webhookUrl ? ['webhook' as const] : []), ...(smtpUrl ? ['team' as const] : [])];
}

/** A field the requester must correct (400), said in the help centre's language. */
async function invalidField(ctx: AppContext, problem: FieldProblem): Promise<ApiError> {
  const errors = await inSiteLanguage(ctx.db, [problem]);
  return new ApiError(400, 'invalid_request', `${problem.field}: ${errors[0]!.message}`, errors);
}

/** The requester answers, with their own untaken uploads (this browser's, or their account's). */
export async function replyToMyRequest(
  ctx: AppContext,
  id: number,
  caller: PortalCaller,
  body: PortalReplyBody,
): Promise<PortalTicket> {
  const ticket = await requestOf(ctx, id, caller);
  const text = cleanText(body.body, true);
  if (!text) throw await invalidField(ctx, { field: 'body', key: 'required' });
  const fileIds = [...new Set(body.files ?? [])];
  const owners = [caller.visitorKey, caller.user ? userKey(caller.user.id) : null].filter(
    (key): key is string => key !== null,
  );
  const attachable = new Set((await findAttachableUploads(ctx.db, owners, fileIds)).map((f) => f.id));
  const missing = fileIds.find((fileId) => !attachable.has(fileId));
  if (missing !== undefined)
    throw await invalidField(ctx, { field: 'files', key: 'fileUnavailable', vars: { id: missing } });
  await addMessage(ctx.db, ticket, {
    author: { id: caller.user?.id ?? null, name: caller.user?.name ?? ticket.name, fromTeam: false },
    text,
    internal: false,
    fileIds,
    targets: replyTargets(ctx),
    statusWebhook: ctx.config.tickets.webhookUrl !== null,
  });
  return getMyRequest(ctx, id, caller);
}

/** The requester marks their request solved or reopens it, as the lifecycle lets them (refusals in the site's language). */
export async function setMyRequestStatus(
  ctx: AppContext,
  id: number,
  caller: PortalCaller,
  body: PortalStatusBody,
): Promise<PortalTicket> {
  const ticket = await requestOf(ctx, id, caller);
  await moveByRequester(ctx.db, ticket, body.status, {
    webhook: ctx.config.tickets.webhookUrl !== null,
    say: (key) => inSiteLanguage(ctx.db, [{ field: 'status', key }]),
  });
  return getMyRequest(ctx, id, caller);
}

/** The most requests one mail of new links names: a requester's recent ones, not an archive. */
export const ISSUE_LINKS_MAX = 20;

/**
 * Mails a requester without an account fresh private links to the requests sent from their email (newest first,
 * at most ISSUE_LINKS_MAX), or a note that there are none. The answer is the same either way, so nobody learns from
 * it who sent requests; the mail counts in the address's hourly allowance of account mails.
 */
export async function requestIssueLinks(
  ctx: AppContext,
  body: IssueLinksBody,
  client: MailClient,
): Promise<MailSentResult> {
  // The links open this server's request pages, which an external portal (PORTAL_URL) replaces.
  if (ctx.config.portalUrl !== null)
    throw new ApiError(
      403,
      'portal_elsewhere',
      'Requests are followed in the portal at PORTAL_URL, not here',
    );
  if (!ctx.config.tickets.smtpUrl) throw mailUnavailable();
  const email = normalEmail(body.email);
  if (!EMAIL_PATTERN.test(email)) throw await invalidField(ctx, { field: 'email', key: 'invalidEmail' });
  await requireCaptcha(ctx, body.g_recaptcha_response);
  const tickets = await anonymousTicketsOfEmail(ctx.db, email, ISSUE_LINKS_MAX);
  if (tickets.length === 0) {
    await mailAccount(ctx, email, { kind: 'noRequests' }, client);
    return { ok: true, sent_to: email };
  }
  // A purpose of its own for each day's renewals: a new key that works its full lifetime from the next midnight, the
  // same one however often the day asks (each ask stores no new row, even one refused past the hourly allowance).
  const now = nextMidnight(Date.now());
  const purpose = `renewal-${now}`;
  for (const ticket of tickets) await saveTicketLink(ctx.db, ticket.id, purpose, now);
  // The queued mail names the requests and what their keys are for; the keys, and what each request is called, are
  // made when it is sent.
  const requests = tickets.map((ticket) => ({ id: ticket.id, purpose }));
  await mailAccount(ctx, email, { kind: 'requestLinks', requests }, client);
  return { ok: true, sent_to: email };
}
