import type { IssueOpenBody, IssueOpenResult } from '../../../shared/api/tickets.ts';
import {
  ISSUE_DESCRIPTION_MAX,
  ISSUE_FILES_MAX,
  ISSUE_NAME_MAX,
  ISSUE_TITLE_MAX,
  type Language,
} from '../../../shared/constants.ts';
import type { FieldError } from '../../../shared/api/common.ts';
import type { AppContext } from '../../context.ts';
import type { OutboxTarget, UserRow } from '../../db/tables.ts';
import { ApiError } from '../../http/errors.ts';
import type { Cookie } from '../../http/cookies.ts';
import { verifyCaptcha } from '../../captcha/captcha.service.ts';
import { siteLanguage } from '../../languages/index.ts';
import { message, type MessageKey } from '../../lib/field-messages.ts';
import {
  attachFiles,
  enqueue,
  findAttachableUploads,
  insertTicket,
  inTransaction,
  provesAddress,
  SENDER_ACCESS_MS,
  senderCookies,
  userKey,
} from '../../tickets/index.ts';
import { href } from '../../../shared/paths.ts';
import { cleanText } from '../../lib/clean-text.ts';
import { isEmailAddress } from '../../lib/email-address.ts';

export interface Requester {
  visitorKey: string | null;
  user: UserRow | null;
}

/**
 * Where a new request goes besides the inbox: the webhook, and by mail either SUPPORT_EMAIL or, with SMTP_URL alone,
 * every member of the team.
 */
function targets(ctx: AppContext): OutboxTarget[] {
  const { webhookUrl, supportEmail, smtpUrl } = ctx.config.tickets;
  return [
    ...(webhookUrl ? ['webhook' as const] : []),
    ...(smtpUrl ? [supportEmail ? ('email' as const) : ('team' as const)] : []),
    // The requester's receipt, with the request's page in this server's portal (and its private key); to an address
    // the sender has not proved, it says only that a request gave it (delivery/ticket-emails.ts).
    ...(smtpUrl && ctx.config.portalUrl === null ? ['requester' as const] : []),
  ];
}

/**
 * Checks a support request field by field and stores the ticket, its files and its deliveries in one transaction.
 * Every problem is answered at once (422, per field, in the interface language) and nothing is stored.
 *
 * A request for an address its sender has not proved (decisions.md, "A request for someone else's address") answers
 * no private link: that goes to the address by mail. The sending browser gets a cookie for the request's page and
 * calls instead (`cookies`, to set), which opens it until the address's owner takes it up.
 */
export async function openIssue(
  ctx: AppContext,
  body: IssueOpenBody,
  requester: Requester,
): Promise<{ answer: IssueOpenResult; cookies: Cookie[] }> {
  // The language of the page it was sent from, else the site's: the ticket records it, the errors answer in it.
  const lang = body.lang ?? (await siteLanguage(ctx.db));
  const errors: FieldError[] = [];
  const flag = (field: string, key: MessageKey, vars?: Record<string, string | number>) =>
    errors.push({ field, message: message(lang as Language, key, vars) });

  const title = cleanText(body.title, false);
  const name = cleanText(body.name, false);
  const email = cleanText(body.email, false);
  const description = cleanText(body.description, true);
  if (!title) flag('title', 'required');
  else if (title.length > ISSUE_TITLE_MAX) flag('title', 'tooLong', { max: ISSUE_TITLE_MAX });
  if (!name) flag('name', 'required');
  else if (name.length > ISSUE_NAME_MAX) flag('name', 'tooLong', { max: ISSUE_NAME_MAX });
  if (!email) flag('email', 'required');
  else if (!isEmailAddress(email)) flag('email', 'invalidEmail');
  if (!description) flag('description', 'required');
  else if (description.length > ISSUE_DESCRIPTION_MAX)
    flag('description', 'tooLong', { max: ISSUE_DESCRIPTION_MAX });
  if (body.channel !== undefined && body.channel !== 'web') flag('channel', 'invalidChannel');

  const fileIds = [...new Set(body.files ?? [])];
  if (fileIds.length > ISSUE_FILES_MAX) flag('files', 'tooManyFiles', { max: ISSUE_FILES_MAX });
  const owners = [requester.visitorKey, requester.user ? userKey(requester.user.id) : null].filter(
    (key): key is string => key !== null,
  );
  const attachable = new Set((await findAttachableUploads(ctx.db, owners, fileIds)).map((f) => f.id));
  for (const id of fileIds) if (!attachable.has(id)) flag('files', 'fileUnavailable', { id });

  // The captcha is checked last, and only for an otherwise valid request, so fixing a typo does not burn it.
  if (errors.length === 0) {
    const problem = await verifyCaptcha(ctx, body.g_recaptcha_response);
    if (problem) flag('g_recaptcha_response', problem);
  }
  if (errors.length > 0) {
    throw new ApiError(
      422,
      'invalid_request',
      errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    );
  }

  const now = Date.now();
  const proved = provesAddress(requester.user, email);
  const ticket = await inTransaction(ctx.db, async (trx) => {
    const row = await insertTicket(
      trx,
      {
        title,
        description,
        name,
        email,
        channel: 'web',
        user_id: requester.user?.id ?? null,
        lang,
        sender_access_until: proved ? null : now + SENDER_ACCESS_MS,
      },
      now,
    );
    await attachFiles(trx, row.id, fileIds);
    await enqueue(trx, row.id, { kind: 'request', targets: targets(ctx) }, now);
    return row;
  });
  // Served here only when no external portal is named. A signed-in sender follows it in their account; one without
  // an account by the cookie, while the private link goes to the address alone.
  const here = ctx.config.portalUrl === null;
  const link = here && requester.user ? href.portalIssue(ticket.id) : null;
  const cookies = here && !requester.user ? await senderCookies(ctx.db, ticket, now) : [];
  return { answer: { data: { id: ticket.id, files: fileIds }, link }, cookies };
}
