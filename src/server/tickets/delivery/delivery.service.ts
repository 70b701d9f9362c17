import type { AppContext } from '../../context.ts';
import type { OutboxRow, OutboxTarget, TicketMessageRow, TicketRow } from '../../db/tables.ts';
import { filesOfMessage, filesOfTicket, findTicket } from '../tickets.repository.ts';
import { onEnqueued } from '../outbox.ts';
import { findMessage } from '../thread.repository.ts';
import { findUser, listTeam } from '../../accounts/users.repository.ts';
import { TEAM_ROLES } from '../../../shared/constants.ts';
import { absoluteLinks } from '../../html/mail-text.ts';
import {
  neutralReceivedEmail,
  receivedEmailText,
  replyEmail,
  replyEnvelope,
  requestEmail,
  teamEmailText,
} from './ticket-emails.ts';
import { claimDelivery, findDueDelivery, markDelivered, recordFailure } from './delivery.repository.ts';
import { messageIdOf, receivedMessageIdOf, replyMessageIdOf } from './message-ids.ts';
import { sendMail } from '../../lib/send-mail.ts';
import { saveTicketLink } from '../ticket-links.ts';
import { replyTokenFor } from '../reply-token.ts';
import { href } from '../../../shared/paths.ts';
import { buildReplyPayload, buildWebhookPayload, sendWebhook, WEBHOOK_TIMEOUT_MS } from './webhook.ts';

/** How long a claimed row is ours; a server that dies mid-delivery gives it back when this runs out. */
export const CLAIM_MS = 60_000;
export const MAX_ATTEMPTS = 12;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
const PASS_INTERVAL_MS = 1000;

/** 10 s, 20 s, 40 s, ... up to an hour: a receiver that is down for a while is not hammered, nor forgotten. */
export const retryDelay = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), LONGEST_RETRY_MS);

export interface DeliveryOutcome {
  id: number;
  ticketId: number;
  target: OutboxTarget;
  status: 'delivered' | 'retry' | 'failed';
  attempts: number;
  error?: string;
}

export interface DeliveryOptions {
  webhookTimeoutMs?: number;
}

/** Sends a message of the thread: to the requester (a team reply), or to the team (the requester's reply). */
async function deliverMessage(
  ctx: AppContext,
  row: OutboxRow,
  ticket: TicketRow,
  message: TicketMessageRow,
  now: number,
  options: DeliveryOptions,
) {
  const files = await filesOfMessage(ctx.db, message.id);
  const threading = {
    // Signed for this mail and its recipient: the requester's answer joins the thread; the team's mail is for
    // nobody's answer to join it (their mail clients answer the requester, its Reply-To).
    messageId: replyMessageIdOf(
      ticket.id,
      message.id,
      await replyTokenFor(
        ctx.db,
        ticket.id,
        `message-${message.id}`,
        row.target === 'requester' ? ticket.email : 'team',
      ),
    ),
    inReplyTo: messageIdOf(ticket.id),
    references: [messageIdOf(ticket.id)],
    subject: `Re: ${ticket.title}`,
  };
  if (row.target === 'webhook') {
    const payload = await buildReplyPayload(
      ctx,
      ticket,
      await filesOfTicket(ctx.db, ticket.id),
      message,
      files,
      now,
    );
    await sendWebhook(ctx, row, payload, options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS);
  } else if (row.target === 'requester') {
    const { supportEmail } = ctx.config.tickets;
    // Links the team wrote from the site's root lead to the site from a mail client too.
    const whole = (text: string) => absoluteLinks(text, ctx.config.publicUrl);
    const shown = {
      ...message,
      body_html: whole(message.body_html),
      body_text: message.body_text.replace(
        /\((\/[^\s)]*)\)/g,
        (_m, path: string) => `(${ctx.config.publicUrl}${path})`,
      ),
    };
    const reply = replyEmail(
      ticket,
      shown,
      files,
      supportEmail !== null,
      await threadLink(ctx, ticket, message),
    );
    await sendMail(
      ctx,
      {
        ...threading,
        ...replyEnvelope(ticket),
        ...(supportEmail && { replyTo: supportEmail }),
        text: reply.text,
        html: reply.html,
      },
      files,
    );
  } else if (row.target === 'team') {
    await sendMail(
      ctx,
      {
        ...threading,
        to: await teamRecipients(ctx, ticket),
        replyTo: { name: ticket.name, address: ticket.email },
        text: teamEmailText(ctx, ticket, message, files),
      },
      files,
    );
  } else {
    throw new Error(`a message is not sent to ${row.target}`);
  }
}

/**
 * Where the requester reads the conversation: this server's portal page (with a private key, the same on every
 * attempt, when the request has no account); none when an external portal (PORTAL_URL) holds the requests.
 */
async function threadLink(
  ctx: AppContext,
  ticket: TicketRow,
  message: TicketMessageRow | null,
): Promise<string | null> {
  if (ctx.config.portalUrl !== null) return null;
  const page = `${ctx.config.publicUrl.replace(/\/$/, '')}${href.portalIssue(ticket.id)}`;
  // A request for an address nobody proved is the address's owner's to open, even if an account sent it.
  if (ticket.user_id !== null && ticket.sender_access_until === null) return page;
  // The request's own link is the one its page showed after sending; each reply's has a purpose of its own.
  const key = message
    ? await saveTicketLink(ctx.db, ticket.id, `message-${message.id}`, Number(message.created_at))
    : await saveTicketLink(ctx.db, ticket.id, 'created', Number(ticket.created_at));
  return `${page}?key=${key}`;
}

/** Who hears of the requester's reply: the assignee; else the support address; else everyone on the team. */
async function teamRecipients(ctx: AppContext, ticket: TicketRow): Promise<string[]> {
  const assignee = ticket.assignee_id === null ? undefined : await findUser(ctx.db, ticket.assignee_id);
  // Someone no longer on the team (their role changed since) hears nothing more of the requester.
  if (assignee && TEAM_ROLES.includes(assignee.role)) return [assignee.email];
  if (ctx.config.tickets.supportEmail) return [ctx.config.tickets.supportEmail];
  const team = await listTeam(ctx.db);
  if (team.length === 0) throw new Error('nobody is on the team to hear of it');
  return team.map((member) => member.email);
}

async function deliver(ctx: AppContext, row: OutboxRow, now: number, options: DeliveryOptions) {
  const ticket = await findTicket(ctx.db, row.ticket_id);
  if (!ticket) throw new Error(`ticket ${row.ticket_id} no longer exists`);
  if (row.kind === 'status') {
    // A change of status: the webhook hears where the request stands now, with the request as it is.
    if (row.target !== 'webhook') throw new Error(`a status change is not sent to ${row.target}`);
    const payload = await buildWebhookPayload(ctx, ticket, await filesOfTicket(ctx.db, ticket.id), now);
    return sendWebhook(
      ctx,
      row,
      { ...payload, event: 'ticket.status_changed', ...(row.status_to && { status: row.status_to }) },
      options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS,
    );
  }
  if (row.kind === 'message') {
    const message = row.message_id === null ? undefined : await findMessage(ctx.db, row.message_id);
    if (!message) throw new Error(`message ${row.message_id} no longer exists`);
    // A note is the team's alone: whatever queued it, it is never sent anywhere.
    if (message.internal === 1) throw new Error(`message ${message.id} is an internal note`);
    return deliverMessage(ctx, row, ticket, message, now, options);
  }
  const files = await filesOfTicket(ctx.db, ticket.id);
  if (row.target === 'webhook') {
    const payload = await buildWebhookPayload(ctx, ticket, files, now);
    await sendWebhook(ctx, row, payload, options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS);
  } else if (row.target === 'team') {
    await sendMail(ctx, requestEmail(ctx, ticket, files, await teamRecipients(ctx, ticket)), files);
  } else if (row.target === 'requester') {
    // The requester hears that the request arrived, with its page (and private key): mail clients thread it too.
    const link = await threadLink(ctx, ticket, null);
    if (!link) throw new Error('the request has no page to follow here (PORTAL_URL is set)');
    const { supportEmail } = ctx.config.tickets;
    // To an address its sender did not prove, none of the sender's words (name, title, text): anyone can type it.
    const neutral = ticket.sender_access_until !== null ? neutralReceivedEmail(ticket, link) : null;
    await sendMail(ctx, {
      to: neutral ? ticket.email : { name: ticket.name, address: ticket.email },
      subject: neutral ? neutral.subject : ticket.title,
      messageId: receivedMessageIdOf(
        ticket.id,
        await replyTokenFor(ctx.db, ticket.id, 'received', ticket.email),
      ),
      inReplyTo: messageIdOf(ticket.id),
      references: [messageIdOf(ticket.id)],
      ...(supportEmail && { replyTo: supportEmail }),
      text: neutral ? neutral.text : receivedEmailText(ticket, link),
    });
  } else {
    // The support address alone ('email', the target before the team was mailed).
    const { supportEmail } = ctx.config.tickets;
    if (!supportEmail) throw new Error('SUPPORT_EMAIL is not set');
    await sendMail(ctx, requestEmail(ctx, ticket, files, [supportEmail]), files);
  }
}

/**
 * One pass over the outbox: every due row is claimed, sent, and marked delivered or rescheduled. A row is marked
 * only after its receiver accepted it, so a crash in between sends it again later (at least once); the receiver
 * drops the repeat by its idempotency key. Tests pass `now` to move time; otherwise each row reads the clock, so a
 * long pass never claims a row with a lock that has already run out.
 */
export async function deliverDue(
  ctx: AppContext,
  now?: number,
  options: DeliveryOptions = {},
): Promise<DeliveryOutcome[]> {
  const clock = () => now ?? Date.now();
  const outcomes: DeliveryOutcome[] = [];
  for (;;) {
    const at = clock();
    const due = await findDueDelivery(ctx.db, at);
    if (!due) return outcomes;
    const row = await claimDelivery(ctx.db, due.id, at, at + CLAIM_MS);
    // Another server took it between our look and our claim; it is locked now, so the next look skips it.
    if (!row) continue;
    const outcome = { id: row.id, ticketId: row.ticket_id, target: row.target, attempts: row.attempts };
    try {
      await deliver(ctx, row, at, options);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
      const status = row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      const nextAttemptAt = clock() + retryDelay(row.attempts);
      await recordFailure(ctx.db, row, { status, nextAttemptAt, error: message });
      outcomes.push({ ...outcome, status: status === 'failed' ? 'failed' : 'retry', error: message });
      continue;
    }
    await markDelivered(ctx.db, row.id, clock());
    outcomes.push({ ...outcome, status: 'delivered' });
  }
}

/** What the worker reports to; the server passes its logger. */
export interface DeliveryLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DeliveryWorker {
  /** No pass starts after this; resolves once the one running, if any, has finished. */
  stop(): Promise<void>;
  /** Something was queued: a pass starts now (or right after the one under way) instead of at the next tick. */
  nudge(): void;
}

/**
 * Runs a pass every second (`intervalMs`), and when nudged, one at a time, without keeping the process alive on its
 * own. What this server queues nudges it (tickets/outbox.ts); other servers' rows are found by the periodic pass.
 */
export function startDeliveryWorker(
  ctx: AppContext,
  log?: DeliveryLog,
  intervalMs = PASS_INTERVAL_MS,
): DeliveryWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const runPass = async () => {
    try {
      for (const outcome of await deliverDue(ctx)) {
        if (outcome.status === 'delivered') log?.info(outcome, 'ticket delivered');
        else if (outcome.status === 'retry') log?.warn(outcome, 'ticket delivery failed; will retry');
        else log?.error(outcome, 'ticket delivery failed for good');
      }
    } catch (error) {
      // The database may be briefly unreachable; the next pass tries again.
      log?.error({ err: error }, 'delivery pass failed');
    }
  };

  let busy = false;
  let again = false;
  const pass = () => {
    busy = true;
    running = runPass().finally(() => {
      busy = false;
      if (again && !stopped) {
        again = false;
        pass();
      } else schedule();
    });
  };
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pass, intervalMs);
    timer.unref();
  };

  schedule();
  const worker: DeliveryWorker = {
    nudge() {
      if (stopped) return;
      // A pass under way may have looked before the new rows were stored: one more follows it.
      if (busy) again = true;
      else {
        clearTimeout(timer);
        pass();
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      forget();
      await running;
    },
  };
  const forget = onEnqueued(ctx.db, () => worker.nudge());
  return worker;
}
