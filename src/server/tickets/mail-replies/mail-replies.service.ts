import crypto from 'node:crypto';
import { ImapFlow } from 'imapflow';
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';
import { UPLOAD_FILE_MAX_BYTES } from '../../../shared/constants.ts';
import { TICKET_MESSAGE_MAX } from '../../../shared/api/tickets.ts';
import type { ImapConfig } from '../../config/config.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import type { OutboxTarget, TicketRow } from '../../db/tables.ts';
import { insertFile } from '../../files/files.repository.ts';
import { uploadRow } from '../../files/store-uploads.ts';
import { ApiError } from '../../http/errors.ts';
import { giveBackUploadsOfFiles, takeUploadOfFile } from '../../rate-limit/upload-budget.ts';
import type { StoredBlob } from '../../storage/file-storage.ts';
import { cleanFileName, cleanText } from '../../lib/clean-text.ts';
import { isLegacyReplyToken, isReplyToken, replyReferencesIn } from '../reply-token.ts';
import { planMessage, refusals } from '../lifecycle.ts';
import { inTransaction, writeMessageIn } from '../outbox.ts';
import { endSenderAccess, findTicket } from '../tickets.repository.ts';
import {
  claimMailReply,
  findMailReply,
  recordUnmatchedMail,
  setMailReplyMessage,
} from './mail-replies.repository.ts';
import { answerOfMail } from './strip-reply.ts';
import { singleSenderOf, vouchedFor } from './mail-sender.ts';

/** As many files as a reply in the portal takes; each within the upload limit. */
export const MAIL_FILES_MAX = 20;
/** A mail larger than this is not downloaded at all: it is left for the team, unmatched. */
export const MAIL_MAX_BYTES = 60 * 1024 * 1024;
/** Unread mails looked at in one pass; the rest wait for the next. */
const MAILS_PER_PASS = 200;

/**
 * Why a mail was left unread for the team instead of joining a thread:
 * - `not_a_reply`: it answers no mail of ours (a new mail to the address, or one of our own notifications);
 * - `ambiguous_sender`: its From is not one plain address (two addresses, another shown in the name, a Sender
 *   that is someone else);
 * - `unauthenticated`: with IMAP_AUTHSERV_ID, the mailbox's own server did not vouch for the From address;
 * - `bad_signature`: it names a request, but not with a signature made for that mail to the request's address;
 * - `unknown_ticket`: the request it answers no longer exists;
 * - `wrong_sender`: it comes from another address than the requester's;
 * - `ticket_closed`: the request is closed (a new question is a new request);
 * - `auto_reply`: an out-of-office or another machine's answer (Auto-Submitted);
 * - `empty`: nothing is left once the quoted mail is taken out, and no file came;
 * - `too_large`: larger than MAIL_MAX_BYTES.
 */
export type UnmatchedReason =
  | 'not_a_reply'
  | 'ambiguous_sender'
  | 'unauthenticated'
  | 'bad_signature'
  | 'unknown_ticket'
  | 'wrong_sender'
  | 'ticket_closed'
  | 'auto_reply'
  | 'empty'
  | 'too_large';

/** What a pass did with one unread mail. */
export type MailOutcome =
  | { uid: number; outcome: 'stored'; ticketId: number; messageId: number; filesLeftOut: string[] }
  /** Reported now; later passes leave it alone (`known`). */
  | {
      uid: number;
      outcome: 'unmatched';
      reason: UnmatchedReason;
      /** The request it answers, when it exists and the signature is its own. */
      ticketId: number | null;
      /** The request number it names, signed or not: for the log. */
      claimedTicketId: number | null;
    }
  /** Already decided, by this server or another: only marked read if it was stored. */
  | { uid: number; outcome: 'known'; stored: boolean }
  /** The request changed while the reply was written; the next pass tries again. */
  | { uid: number; outcome: 'retry'; error: string };

type Decision =
  | { kind: 'store'; ticket: TicketRow; text: string; files: Attachment[]; filesLeftOut: string[] }
  | { kind: 'unmatched'; reason: UnmatchedReason; ticketId: number | null; claimedTicketId: number | null };

const unmatched = (
  reason: UnmatchedReason,
  ticketId: number | null = null,
  claimedTicketId = ticketId,
): Decision => ({ kind: 'unmatched', reason, ticketId, claimedTicketId });

/** The key a mail is known by on every server: its Message-ID, or its place in the mailbox when it has none. */
export function mailKeyOf(messageId: string | undefined, place: string): string {
  const id = messageId?.trim();
  return crypto
    .createHash('sha256')
    .update(id ? `message-id:${id}` : `place:${place}`)
    .digest('hex');
}

const headerText = (mail: ParsedMail, name: string) => {
  const value = mail.headers.get(name);
  return typeof value === 'string' ? value : '';
};

/** Mail written by a machine (an out-of-office, a bounce): never a customer's answer, and never answered. */
function isAutomatic(mail: ParsedMail): boolean {
  const submitted = headerText(mail, 'auto-submitted').trim().toLowerCase();
  if (submitted && submitted !== 'no') return true;
  if (/^(auto_reply|bulk|junk|list)$/i.test(headerText(mail, 'precedence').trim())) return true;
  return mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond');
}

/** The signed ids among the mails this one answers: In-Reply-To names the mail answered, References the thread. */
function claimsOf(mail: ParsedMail) {
  const references = Array.isArray(mail.references) ? mail.references : [mail.references ?? ''];
  return replyReferencesIn([mail.inReplyTo ?? '', ...[...references].reverse()]);
}

/**
 * The request a mail answers: the first of the mails it answers whose signature was made for that mail and the
 * request's address (or is the request's old token, within its time). A request that no longer exists is told
 * apart (`unknownId`) only by its old token, which needs no row to check.
 */
async function signedTicketOf(ctx: AppContext, claims: ReturnType<typeof claimsOf>, now: number) {
  for (const claim of claims) {
    const ticket = await findTicket(ctx.db, claim.ticketId);
    if (ticket && (await isReplyToken(ctx.db, claim, ticket.email, now))) return { ticket, unknownId: null };
    if (!ticket && (await isLegacyReplyToken(ctx.db, claim.ticketId, claim.token)))
      return { ticket: null, unknownId: claim.ticketId };
  }
  return { ticket: null, unknownId: null };
}

/** The files worth keeping: attachments, not the images a signature's HTML shows inline. */
function filesOf(mail: ParsedMail) {
  const files: Attachment[] = [];
  const leftOut: string[] = [];
  for (const attachment of mail.attachments) {
    if (attachment.related) continue;
    const name = cleanFileName(attachment.filename ?? 'file');
    if (attachment.size > UPLOAD_FILE_MAX_BYTES) leftOut.push(`${name} (larger than 25 MB)`);
    else if (files.length >= MAIL_FILES_MAX) leftOut.push(`${name} (more than ${MAIL_FILES_MAX} files)`);
    else files.push(attachment);
  }
  return { files, leftOut };
}

/**
 * Emailed files count as uploads, against the sender's hourly allowance (UPLOADS_PER_HOUR, UPLOAD_MB_PER_HOUR) as
 * web uploads count against the client address's: keyed by the request's address, which the sender was checked to
 * be, so all of one person's requests share it. Files past it are left out and named, as too large ones are; the
 * text is kept.
 */
const mailUploader = (email: string) => `mail:${email.trim().toLowerCase()}`;

type StoreDecision = Extract<Decision, { kind: 'store' }>;

async function withinUploadLimits(
  ctx: AppContext,
  decision: StoreDecision,
  now: number,
): Promise<StoreDecision> {
  const { tickets } = ctx.config;
  const files: Attachment[] = [];
  const leftOut: string[] = [];
  for (const file of decision.files) {
    const refused = await takeUploadOfFile(
      ctx.db,
      tickets,
      mailUploader(decision.ticket.email),
      file.size,
      now,
    );
    const name = cleanFileName(file.filename ?? 'file');
    if (refused === 'files') leftOut.push(`${name} (more than ${tickets.uploadsPerHour} files an hour)`);
    else if (refused === 'bytes')
      leftOut.push(`${name} (more than ${tickets.uploadBytesPerHour / (1024 * 1024)} MB an hour)`);
    else files.push(file);
  }
  if (leftOut.length === 0) return decision;
  const notes = leftOut.map((name) => `[not kept: ${name}]`).join('\n');
  const joint = decision.filesLeftOut.length > 0 ? '\n' : decision.text ? '\n\n' : '';
  const text = `${decision.text}${joint}${notes}`.slice(0, TICKET_MESSAGE_MAX);
  return { ...decision, text, files, filesLeftOut: [...decision.filesLeftOut, ...leftOut] };
}

/** Stores the reply with the files its sender's allowance takes; a reply not stored gives them back. */
async function storeWithinLimits(
  ctx: AppContext,
  mailKey: string,
  mail: ParsedMail,
  decision: StoreDecision,
  now: number,
) {
  const kept = await withinUploadLimits(ctx, decision, now);
  try {
    return { message: await storeReply(ctx, mailKey, mail, kept, now), filesLeftOut: kept.filesLeftOut };
  } catch (error) {
    const sizes = kept.files.map((file) => file.size);
    await giveBackUploadsOfFiles(ctx.db, mailUploader(decision.ticket.email), sizes, now);
    throw error;
  }
}

/** Decides what becomes of one parsed mail: a requester's message, or left for the team with a reason. */
export async function decideMail(ctx: AppContext, mail: ParsedMail, now = Date.now()): Promise<Decision> {
  if (isAutomatic(mail)) return unmatched('auto_reply');
  const claims = claimsOf(mail);
  if (claims.length === 0) return unmatched('not_a_reply');
  // Whose mail it is must be plain before anything else is read from it, and vouched for when we can ask.
  const sender = singleSenderOf(mail);
  if (sender === null) return unmatched('ambiguous_sender', null, claims[0]!.ticketId);
  if (!vouchedFor(mail, ctx.config.imap?.authservId ?? null, sender))
    return unmatched('unauthenticated', null, claims[0]!.ticketId);
  const { ticket, unknownId } = await signedTicketOf(ctx, claims, now);
  if (unknownId !== null) return unmatched('unknown_ticket', null, unknownId);
  if (!ticket) return unmatched('bad_signature', null, claims[0]!.ticketId);
  const ticketId = ticket.id;
  // The signature only says which request the mail answers; the request is the requester's to add to.
  if (sender !== ticket.email.trim().toLowerCase()) return unmatched('wrong_sender', ticketId);
  if (ticket.status === 'closed') return unmatched('ticket_closed', ticketId);
  const { files, leftOut } = filesOf(mail);
  const answer = cleanText(answerOfMail({ text: mail.text, html: mail.html }, ctx.config.publicUrl), true);
  const notes = leftOut.map((name) => `[not kept: ${name}]`);
  const text = [answer, notes.join('\n')].filter(Boolean).join('\n\n').slice(0, TICKET_MESSAGE_MAX);
  if (!answer && files.length === 0) return unmatched('empty', ticketId);
  return { kind: 'store', ticket, text, files, filesLeftOut: leftOut };
}

/** Where the requester's reply goes besides the thread, as for a reply in the portal. */
function replyTargets(ctx: AppContext): OutboxTarget[] {
  const { webhookUrl, smtpUrl } = ctx.config.tickets;
  return [...(webhookUrl ? ['webhook' as const] : []), ...(smtpUrl ? ['team' as const] : [])];
}

const sanitizedHeader = (value: string | undefined, max: number) =>
  value ? cleanText(value, false).slice(0, max) || null : null;

/**
 * Adds the reply to its thread as the requester's message, in one transaction with the mail's row, so a mail is
 * stored once however many servers read it: the second finds the row taken and rolls back. The files' bytes are
 * stored first; a rolled back reply leaves them to the sweep of unused bytes.
 */
async function storeReply(
  ctx: AppContext,
  mailKey: string,
  mail: ParsedMail,
  decision: Extract<Decision, { kind: 'store' }>,
  now: number,
) {
  const { ticket } = decision;
  const blobs: { file: Attachment; blob: StoredBlob }[] = [];
  for (const file of decision.files) blobs.push({ file, blob: await ctx.storage.put(file.content) });
  return inTransaction(ctx.db, async (trx) => {
    await claimMailReply(trx, {
      mail_key: mailKey,
      outcome: 'stored',
      reason: null,
      ticket_id: ticket.id,
      ticket_message_id: null,
      sender: sanitizedHeader(ticket.email, 320),
      subject: sanitizedHeader(mail.subject, 300),
      created_at: now,
    });
    const fileIds: number[] = [];
    for (const { file, blob } of blobs) {
      const name = cleanFileName(file.filename ?? 'file');
      const row = await insertFile(trx, uploadRow({ name, ...blob }, 'upload', `mail:${ticket.id}`, now));
      fileIds.push(row.id);
    }
    // A request sent for an unproved address: its owner answered, so the sender's cookie (or account) opens it no
    // more, and the answer is not put in the sender's name or account.
    const unproved = ticket.sender_access_until !== null;
    if (unproved) await endSenderAccess(trx, ticket.id);
    const from = mail.from?.value[0];
    const plan = planMessage(
      ticket,
      {
        author: unproved
          ? {
              id: null,
              name: cleanText(from?.name || from?.address || ticket.email, false),
              fromTeam: false,
            }
          : { id: ticket.user_id, name: ticket.name, fromTeam: false },
        text: decision.text,
        internal: false,
        fileIds,
        targets: replyTargets(ctx),
        statusWebhook: ctx.config.tickets.webhookUrl !== null,
      },
      now,
    );
    const message = await writeMessageIn(trx, plan);
    if (!message) throw refusals.changedMeanwhile();
    await setMailReplyMessage(trx, mailKey, message.id);
    return message;
  });
}

/** Decides and records one mail: stored, or reported once as unmatched. */
export async function processMail(
  ctx: AppContext,
  uid: number,
  mailKey: string,
  source: Buffer,
  now = Date.now(),
): Promise<MailOutcome> {
  const mail = await simpleParser(source);
  const decision = await decideMail(ctx, mail, now);
  const report = async (
    reason: UnmatchedReason,
    ticketId: number | null,
    claimedTicketId = ticketId,
  ): Promise<MailOutcome> => {
    const first = await recordUnmatchedMail(ctx.db, {
      mail_key: mailKey,
      outcome: 'unmatched',
      reason,
      ticket_id: ticketId,
      ticket_message_id: null,
      sender: sanitizedHeader(mail.from?.value[0]?.address, 320),
      subject: sanitizedHeader(mail.subject, 300),
      created_at: now,
    });
    return first
      ? { uid, outcome: 'unmatched', reason, ticketId, claimedTicketId }
      : { uid, outcome: 'known', stored: false };
  };
  if (decision.kind === 'unmatched')
    return report(decision.reason, decision.ticketId, decision.claimedTicketId);
  try {
    const { message, filesLeftOut } = await storeWithinLimits(ctx, mailKey, mail, decision, now);
    return {
      uid,
      outcome: 'stored',
      ticketId: decision.ticket.id,
      messageId: message.id,
      filesLeftOut,
    };
  } catch (error) {
    if (isUniqueViolation(error)) return { uid, outcome: 'known', stored: true };
    if (error instanceof ApiError && (error.code === 'closed' || error.code === 'invalid_transition'))
      return report('ticket_closed', decision.ticket.id);
    if (error instanceof ApiError && error.code === 'conflict')
      return { uid, outcome: 'retry', error: error.message };
    throw error;
  }
}

/** Reports of the IMAP client's own connection troubles, which it emits instead of throwing. */
export interface MailboxLog {
  warn(details: object, message: string): void;
}

export function imapClient(imap: ImapConfig, log?: MailboxLog): ImapFlow {
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    auth: { user: imap.user, pass: imap.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
  });
  // An unhandled 'error' event would end the process; a mailbox that goes away is only a failed pass.
  client.on('error', (error: unknown) => log?.warn({ err: error }, 'mailbox connection error'));
  return client;
}

export interface PollOptions {
  log?: MailboxLog;
  /** A server shutting down: the connection closes at once; what was stored stays, the rest waits for a pass. */
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * One pass over the mailbox: each unread mail not decided yet is downloaded (without marking it read), decided and
 * recorded; a stored reply is marked read only once its message is in the database, so a crash in between stores
 * nothing twice (the next pass finds it recorded and only marks it). Unmatched mail stays unread for the team.
 */
export async function pollMailbox(
  ctx: AppContext,
  imap: ImapConfig,
  options: PollOptions = {},
): Promise<MailOutcome[]> {
  const { signal } = options;
  signal?.throwIfAborted();
  const client = imapClient(imap, options.log);
  const outcomes: MailOutcome[] = [];
  const close = () => client.close();
  signal?.addEventListener('abort', close);
  try {
    await client.connect();
    const lock = await client.getMailboxLock(imap.mailbox);
    try {
      const mailbox = client.mailbox;
      const place = mailbox ? `${imap.mailbox}:${String(mailbox.uidValidity)}` : imap.mailbox;
      const unread = ((await client.search({ seen: false }, { uid: true })) || []).slice(0, MAILS_PER_PASS);
      if (unread.length === 0) return outcomes;
      const heads = [];
      for await (const head of client.fetch(
        unread,
        { uid: true, envelope: true, size: true },
        { uid: true },
      )) {
        // Another reader of the mailbox marking mail read can bring word of it here without a UID: not a mail to read.
        if (typeof head.uid !== 'number' || head.uid <= 0) continue;
        heads.push({ uid: head.uid, messageId: head.envelope?.messageId, size: head.size ?? 0 });
      }
      for (const head of heads) {
        if (signal?.aborted) break;
        const mailKey = mailKeyOf(head.messageId, `${place}:${head.uid}`);
        const known = await findMailReply(ctx.db, mailKey);
        let outcome: MailOutcome;
        if (known) outcome = { uid: head.uid, outcome: 'known', stored: known.outcome === 'stored' };
        else if (head.size > MAIL_MAX_BYTES) {
          const first = await recordUnmatchedMail(ctx.db, {
            mail_key: mailKey,
            outcome: 'unmatched',
            reason: 'too_large',
            ticket_id: null,
            ticket_message_id: null,
            sender: null,
            subject: null,
            created_at: options.now?.() ?? Date.now(),
          });
          outcome = first
            ? {
                uid: head.uid,
                outcome: 'unmatched',
                reason: 'too_large',
                ticketId: null,
                claimedTicketId: null,
              }
            : { uid: head.uid, outcome: 'known', stored: false };
        } else {
          const message = await client.fetchOne(String(head.uid), { source: true }, { uid: true });
          if (!message || !message.source) continue;
          outcome = await processMail(ctx, head.uid, mailKey, message.source, options.now?.());
        }
        if (outcome.outcome === 'stored' || (outcome.outcome === 'known' && outcome.stored))
          await client.messageFlagsAdd(String(head.uid), ['\\Seen'], { uid: true });
        outcomes.push(outcome);
      }
    } finally {
      lock.release();
    }
  } finally {
    signal?.removeEventListener('abort', close);
    if (client.usable) await client.logout().catch(() => client.close());
    else client.close();
  }
  return outcomes;
}
