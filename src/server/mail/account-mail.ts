import type { Language } from '../../shared/constants.ts';
import { href } from '../../shared/paths.ts';
import crypto from 'node:crypto';
import { INVITE_LIFETIME_DAYS, makeLinkToken } from '../accounts/account-links.ts';
import { isInvited } from '../accounts/accounts.service.ts';
import { findUser, findUserByEmail } from '../accounts/users.repository.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { giveBack, takeAllowance } from '../rate-limit/rate-limit.ts';
import { getBranding } from '../settings/branding.ts';
import { siteLanguage } from '../languages/index.ts';
import { awaitsOwner, findTicket, TICKET_LINK_LIFETIME_MS, ticketLinkKey } from '../tickets/index.ts';
import {
  claimAccountMail,
  deleteFinishedAccountMails,
  findDueAccountMail,
  insertAccountMail,
  markAccountMailSent,
  recordAccountMailFailure,
} from './account-mail.repository.ts';
import { sendMail } from '../lib/send-mail.ts';

/**
 * Account mails one client may have sent to one address in an hour. The limit counts the pair, so a stranger
 * asking for someone's address spends only their own share, never the owner's.
 */
export const ACCOUNT_MAILS_PER_ADDRESS = 5;
/**
 * Account mails one address may be sent in an hour, whoever asks: nobody floods a mailbox from many clients. Four
 * clients' worth, so one stranger alone cannot use it up before the owner asks; a browser that signed in to the
 * address's account before is not held by it at all (takeMailAllowance).
 */
export const ACCOUNT_MAILS_PER_ADDRESS_CEILING = 4 * ACCOUNT_MAILS_PER_ADDRESS;

/** The account mails, in the site's language: what happened, and the one link that acts on it. */
const TEXTS = {
  en: {
    verifySubject: 'Confirm your email for {{site}}',
    verify: 'Open this link to confirm your email and sign in to {{site}}:',
    existsSubject: 'Your account at {{site}}',
    exists:
      'Someone, probably you, tried to sign up at {{site}} with this email, which already has an account. Sign in, or choose a new password here:',
    resetSubject: 'Choose a new password for {{site}}',
    reset: 'Open this link to choose a new password for {{site}}:',
    noAccountSubject: 'Password reset at {{site}}',
    noAccount:
      'Someone, probably you, asked to reset the password of an account at {{site}} with this email, but this email has no account. You can sign up here:',
    noAccountClosed:
      'Someone, probably you, asked to reset the password of an account at {{site}} with this email, but this email has no account. Accounts here are made by the support team: ask them if you need one.',
    emailSubject: 'Confirm your new email for {{site}}',
    email: 'Open this link to use this email for your account at {{site}}:',
    expires:
      'The link works once and expires in {{hours}} hours. If you did not ask for it, ignore this email.',
    inviteSubject: 'You are invited to {{site}}',
    invite:
      'The support team of {{site}} has made an account for you with this email. Open this link to choose your password and sign in:',
    inviteExpires:
      'The link works once and expires in {{days}} days. If you do not want the account, ignore this email.',
    requestLinksSubject: 'Your requests at {{site}}',
    requestLinks:
      'Someone, probably you, asked for links to the requests sent to {{site}} from this email. Open each one here:',
    requestLine: 'Request #{{id}}, sent {{date}}',
    linksExpire: 'Each link works for {{days}} days. If you did not ask for them, ignore this email.',
    noRequestsSubject: 'Your requests at {{site}}',
    noRequests:
      'Someone, probably you, asked for links to the requests sent to {{site}} from this email, but none sent without an account were found. If you have an account, sign in to see your requests:',
  },
  ru: {
    verifySubject: 'Подтвердите email для {{site}}',
    verify: 'Откройте ссылку, чтобы подтвердить email и войти в {{site}}:',
    existsSubject: 'Ваша учётная запись в {{site}}',
    exists:
      'Кто-то, вероятно вы, пытался зарегистрироваться в {{site}} с этим email, но учётная запись уже есть. Войдите или задайте новый пароль здесь:',
    resetSubject: 'Новый пароль для {{site}}',
    reset: 'Откройте ссылку, чтобы задать новый пароль для {{site}}:',
    noAccountSubject: 'Сброс пароля в {{site}}',
    noAccount:
      'Кто-то, вероятно вы, запросил сброс пароля в {{site}} для этого email, но учётной записи с ним нет. Зарегистрироваться можно здесь:',
    noAccountClosed:
      'Кто-то, вероятно вы, запросил сброс пароля учётной записи в {{site}} для этого адреса, но у этого адреса нет учётной записи. Учётные записи здесь создаёт служба поддержки: обратитесь к ней, если она вам нужна.',
    emailSubject: 'Подтвердите новый email для {{site}}',
    email: 'Откройте ссылку, чтобы использовать этот email в {{site}}:',
    expires:
      'Ссылка действует один раз и истекает через {{hours}} ч. Если вы этого не запрашивали, проигнорируйте письмо.',
    inviteSubject: 'Приглашение в {{site}}',
    invite:
      'Служба поддержки {{site}} создала для вас учётную запись с этим email. Откройте ссылку, чтобы задать пароль и войти:',
    inviteExpires:
      'Ссылка действует один раз и истекает через {{days}} дн. Если учётная запись вам не нужна, проигнорируйте письмо.',
    requestLinksSubject: 'Ваши обращения в {{site}}',
    requestLinks:
      'Кто-то, вероятно вы, запросил ссылки на обращения, отправленные в {{site}} с этого email. Откройте каждое здесь:',
    requestLine: 'Обращение №{{id}} от {{date}}',
    linksExpire: 'Каждая ссылка действует {{days}} дн. Если вы их не запрашивали, проигнорируйте письмо.',
    noRequestsSubject: 'Ваши обращения в {{site}}',
    noRequests:
      'Кто-то, вероятно вы, запросил ссылки на обращения, отправленные в {{site}} с этого email, но обращений без учётной записи не нашлось. Если у вас есть учётная запись, войдите, чтобы увидеть свои обращения:',
  },
  'pt-BR': {
    verifySubject: 'Confirme seu e-mail em {{site}}',
    verify: 'Abra este link para confirmar seu e-mail e entrar em {{site}}:',
    existsSubject: 'Sua conta em {{site}}',
    exists:
      'Alguém, provavelmente você, tentou se cadastrar em {{site}} com este e-mail, que já tem uma conta. Entre, ou escolha uma nova senha aqui:',
    resetSubject: 'Escolha uma nova senha em {{site}}',
    reset: 'Abra este link para escolher uma nova senha em {{site}}:',
    noAccountSubject: 'Redefinição de senha em {{site}}',
    noAccount:
      'Alguém, provavelmente você, pediu para redefinir a senha de uma conta em {{site}} com este e-mail, mas ele não tem conta. Cadastre-se aqui:',
    noAccountClosed:
      'Alguém, provavelmente você, pediu para redefinir a senha de uma conta em {{site}} com este e-mail, mas este e-mail não tem conta. As contas aqui são criadas pela equipe de suporte: peça a ela se precisar de uma.',
    emailSubject: 'Confirme seu novo e-mail em {{site}}',
    email: 'Abra este link para usar este e-mail na sua conta em {{site}}:',
    expires: 'O link funciona uma vez e expira em {{hours}} horas. Se você não pediu, ignore este e-mail.',
    inviteSubject: 'Convite para {{site}}',
    invite:
      'A equipe de suporte de {{site}} criou uma conta para você com este e-mail. Abra este link para escolher sua senha e entrar:',
    inviteExpires:
      'O link funciona uma vez e expira em {{days}} dias. Se você não quer a conta, ignore este e-mail.',
    requestLinksSubject: 'Suas solicitações em {{site}}',
    requestLinks:
      'Alguém, provavelmente você, pediu links para as solicitações enviadas a {{site}} com este e-mail. Abra cada uma aqui:',
    requestLine: 'Solicitação nº {{id}}, enviada em {{date}}',
    linksExpire: 'Cada link funciona por {{days}} dias. Se você não pediu, ignore este e-mail.',
    noRequestsSubject: 'Suas solicitações em {{site}}',
    noRequests:
      'Alguém, provavelmente você, pediu links para as solicitações enviadas a {{site}} com este e-mail, mas nenhuma enviada sem conta foi encontrada. Se você tem uma conta, entre para ver suas solicitações:',
  },
  it: {
    verifySubject: 'Confermi la sua email per {{site}}',
    verify: 'Apra questo link per confermare la sua email ed entrare in {{site}}:',
    existsSubject: 'Il suo account su {{site}}',
    exists:
      'Qualcuno, probabilmente lei, ha provato a registrarsi su {{site}} con questa email, che ha già un account. Entri, o scelga una nuova password qui:',
    resetSubject: 'Scelga una nuova password per {{site}}',
    reset: 'Apra questo link per scegliere una nuova password per {{site}}:',
    noAccountSubject: 'Reimpostazione della password su {{site}}',
    noAccount:
      'Qualcuno, probabilmente lei, ha chiesto di reimpostare la password di un account su {{site}} con questa email, ma non esiste un account. Può registrarsi qui:',
    noAccountClosed:
      'Qualcuno, probabilmente lei, ha chiesto di reimpostare la password di un account su {{site}} con questa email, ma non esiste un account. Qui gli account li crea il team di supporto: si rivolga a loro se ne ha bisogno.',
    emailSubject: 'Confermi la nuova email per {{site}}',
    email: 'Apra questo link per usare questa email per il suo account su {{site}}:',
    expires:
      'Il link funziona una volta e scade tra {{hours}} ore. Se non lo ha chiesto, ignori questa email.',
    inviteSubject: 'Invito a {{site}}',
    invite:
      'Il team di supporto di {{site}} ha creato un account per lei con questa email. Apra questo link per scegliere la sua password ed entrare:',
    inviteExpires:
      "Il link funziona una volta e scade tra {{days}} giorni. Se non desidera l'account, ignori questa email.",
    requestLinksSubject: 'Le sue richieste su {{site}}',
    requestLinks:
      'Qualcuno, probabilmente lei, ha chiesto i link alle richieste inviate a {{site}} con questa email. Apra ciascuna qui:',
    requestLine: 'Richiesta n. {{id}}, inviata il {{date}}',
    linksExpire: 'Ogni link funziona per {{days}} giorni. Se non li ha chiesti, ignori questa email.',
    noRequestsSubject: 'Le sue richieste su {{site}}',
    noRequests:
      'Qualcuno, probabilmente lei, ha chiesto i link alle richieste inviate a {{site}} con questa email, ma non ne è stata trovata nessuna inviata senza account. Se ha un account, entri per vedere le sue richieste:',
  },
  sk: {
    verifySubject: 'Potvrďte svoj e-mail pre {{site}}',
    verify: 'Otvorte tento odkaz, aby ste potvrdili e-mail a prihlásili sa do {{site}}:',
    existsSubject: 'Váš účet v {{site}}',
    exists:
      'Niekto, pravdepodobne vy, sa pokúsil zaregistrovať v {{site}} s týmto e-mailom, ktorý už účet má. Prihláste sa alebo si tu zvoľte nové heslo:',
    resetSubject: 'Nové heslo pre {{site}}',
    reset: 'Otvorte tento odkaz a zvoľte si nové heslo pre {{site}}:',
    noAccountSubject: 'Obnovenie hesla v {{site}}',
    noAccount:
      'Niekto, pravdepodobne vy, požiadal o obnovenie hesla účtu v {{site}} s týmto e-mailom, ale tento e-mail účet nemá. Zaregistrovať sa môžete tu:',
    noAccountClosed:
      'Niekto, pravdepodobne vy, požiadal o obnovenie hesla účtu v {{site}} s týmto e-mailom, ale tento e-mail účet nemá. Účty tu vytvára tím podpory: ak účet potrebujete, obráťte sa na neho.',
    emailSubject: 'Potvrďte nový e-mail pre {{site}}',
    email: 'Otvorte tento odkaz, aby ste tento e-mail používali pre svoj účet v {{site}}:',
    expires: 'Odkaz funguje raz a platí {{hours}} h. Ak ste oň nežiadali, tento e-mail ignorujte.',
    inviteSubject: 'Pozvánka do {{site}}',
    invite:
      'Tím podpory {{site}} vám vytvoril účet s týmto e-mailom. Otvorte tento odkaz, zvoľte si heslo a prihláste sa:',
    inviteExpires: 'Odkaz funguje raz a platí {{days}} dní. Ak účet nechcete, tento e-mail ignorujte.',
    requestLinksSubject: 'Vaše požiadavky v {{site}}',
    requestLinks:
      'Niekto, pravdepodobne vy, požiadal o odkazy na požiadavky poslané do {{site}} z tohto e-mailu. Každú otvoríte tu:',
    requestLine: 'Požiadavka č. {{id}} zo dňa {{date}}',
    linksExpire: 'Každý odkaz funguje {{days}} dní. Ak ste o ne nežiadali, tento e-mail ignorujte.',
    noRequestsSubject: 'Vaše požiadavky v {{site}}',
    noRequests:
      'Niekto, pravdepodobne vy, požiadal o odkazy na požiadavky poslané do {{site}} z tohto e-mailu, ale nenašla sa žiadna poslaná bez účtu. Ak máte účet, prihláste sa a uvidíte svoje požiadavky:',
  },
} satisfies Record<Language, Record<string, string>>;

/**
 * What an account mail says and points at, as stored in the outbox. A link's token is made when the mail is sent,
 * from the account as it is then: none is stored, and a mail whose account moved on (confirmed, deleted, its
 * address changed) is not sent at all.
 */
export type AccountMail =
  /** Confirms a new account's address; `binding` is the hash of the sign-up browser's flow cookie. */
  | { kind: 'verify'; userId: number; binding: string | null }
  /** Someone tried to sign up with an address that has an account: a link to choose its password. */
  | { kind: 'exists'; userId: number }
  | { kind: 'reset'; userId: number }
  /** A reset asked for an address without an account; `signUp` when SIGNUP would let it sign up. */
  | { kind: 'noAccount'; signUp: boolean }
  /** Confirms an account's new address; `binding` as for verify. */
  | { kind: 'email'; userId: number; binding: string | null }
  | { kind: 'invite'; userId: number }
  | { kind: 'requestLinks'; requests: RequestLink[] }
  | { kind: 'noRequests' };

/**
 * One request of a requester without an account, and the purpose its fresh private key was saved for
 * (`saveTicketLink`): the key is made again when the mail is sent, so the queue holds none.
 */
export interface RequestLink {
  id: number;
  purpose: string;
}

/** A request as the links mail shows it: its title, or when its owner has not taken it up, when it was sent. */
interface ShownRequest {
  id: number;
  title?: string;
  sentAt?: number;
  key: string;
}

type TextKind = Exclude<AccountMail['kind'], 'noAccount'> | 'noAccountClosed' | 'noAccount';

/** How long each kind's link works; {{days}} is the same in days. */
const HOURS: Record<TextKind, number> = {
  verify: 48,
  reset: 1,
  email: 24,
  exists: 1,
  noAccount: 1,
  noAccountClosed: 1,
  invite: 24 * INVITE_LIFETIME_DAYS,
  requestLinks: TICKET_LINK_LIFETIME_MS / 3_600_000,
  noRequests: 1,
};

/** The mail as it goes out: its text's kind, and its one link (a page's path), if any. */
interface Composed {
  text: TextKind;
  link: string | null;
  requests?: ShownRequest[];
}

/**
 * Makes the link of a stored mail from the account as it is now; null when there is nothing left to send (the
 * account is gone, moved to another address, or no longer waits for what the mail offers).
 */
async function compose(db: Executor, to: string, mail: AccountMail): Promise<Composed | null> {
  switch (mail.kind) {
    case 'requestLinks': {
      // A request whose address its owner has not taken up shows no title, only when it was sent: its title is the
      // words of whoever typed the address, and this mail goes to anyone's address for the asking.
      const requests: ShownRequest[] = [];
      for (const { id, purpose } of mail.requests) {
        const ticket = await findTicket(db, id);
        if (!ticket || ticket.user_id !== null) continue;
        requests.push({
          id,
          ...(awaitsOwner(ticket) ? { sentAt: Number(ticket.created_at) } : { title: ticket.title }),
          key: await ticketLinkKey(db, id, purpose),
        });
      }
      return requests.length === 0 ? null : { text: 'requestLinks', link: null, requests };
    }
    case 'noRequests':
      return { text: 'noRequests', link: href.portalSignIn() };
    case 'noAccount':
      return mail.signUp
        ? { text: 'noAccount', link: href.portalSignUp() }
        : { text: 'noAccountClosed', link: null };
  }
  const user = await findUser(db, mail.userId);
  if (!user) return null;
  switch (mail.kind) {
    case 'verify':
      if (user.email !== to || user.email_verified_at !== null) return null;
      return {
        text: 'verify',
        link: href.portalVerifyEmail(await makeLinkToken(db, 'verify', user, to, undefined, mail.binding)),
      };
    case 'email':
      return {
        text: 'email',
        link: href.portalVerifyEmail(await makeLinkToken(db, 'email', user, to, undefined, mail.binding)),
      };
    case 'invite':
      if (user.email !== to || !isInvited(user)) return null;
      return { text: 'invite', link: href.portalAcceptInvite(await makeLinkToken(db, 'invite', user, to)) };
    case 'reset':
    case 'exists':
      if (user.email !== to) return null;
      return { text: mail.kind, link: href.portalNewPassword(await makeLinkToken(db, 'reset', user, to)) };
  }
}

/** Sends one stored account mail to `to`, in the site's language; false when there was nothing left to send. */
export async function sendAccountMail(ctx: AppContext, to: string, mail: AccountMail): Promise<boolean> {
  const composed = await compose(ctx.db, to, mail);
  if (!composed) return false;
  const branding = await getBranding(ctx.db);
  const texts = TEXTS[await siteLanguage(ctx.db)] ?? TEXTS.en;
  const site = branding.site_title || branding.knowledge_title || 'Signpost';
  const base = ctx.config.publicUrl.replace(/\/$/, '');
  const fill = (text: string) =>
    text
      .replaceAll('{{site}}', () => site)
      .replaceAll('{{hours}}', () => String(HOURS[composed.text]))
      .replaceAll('{{days}}', () => String(HOURS[composed.text] / 24));
  const lines = [fill(texts[composed.text]), ''];
  if (composed.requests) {
    // A title is the requester's own text: one line of it, so it cannot pose as more of the mail.
    for (const { id, title, sentAt, key } of composed.requests)
      lines.push(
        title !== undefined
          ? title.replace(/\s+/g, ' ').trim()
          : texts.requestLine
              .replace('{{id}}', String(id))
              .replace('{{date}}', new Date(sentAt ?? 0).toISOString().slice(0, 10)),
        `${base}${href.portalIssue(id)}?key=${key}`,
        '',
      );
    lines.push(fill(texts.linksExpire));
  } else if (composed.link) lines.push(`${base}${composed.link}`, '');
  if (['verify', 'reset', 'email', 'exists'].includes(composed.text)) lines.push(fill(texts.expires));
  if (composed.text === 'invite') lines.push(fill(texts.inviteExpires));
  await sendMail(ctx, {
    to,
    subject: fill(texts[`${composed.text === 'noAccountClosed' ? 'noAccount' : composed.text}Subject`]),
    text: `${lines.join('\n')}\n`,
  });
  return true;
}

/** The refusal of anything that needs an emailed link when this server sends no mail. */
export const mailUnavailable = () =>
  new ApiError(
    403,
    'mail_unavailable',
    'This help centre sends no email (SMTP_URL is not set), so emailed links cannot reach you; ask the team',
  );

/** A key of the rate limits for an address: fixed length, however long the address. */
const addressKey = (to: string) => crypto.createHash('sha256').update(to).digest('base64url').slice(0, 22);

/**
 * Who asks for an account mail: their address (clientKey), and the account their browser signed in to before (its
 * device cookie, accounts/device-cookie.ts), if any. A mail the team sends (an invitation) comes from TEAM_CLIENT.
 */
export interface MailClient {
  key: string;
  deviceUser: number | null;
}
export const TEAM_CLIENT: MailClient = { key: 'team', deviceUser: null };

/**
 * Takes one account mail to `to` from `client`'s allowance for that address and from the address's ceiling (429
 * past either, taking nothing). A browser that signed in to the address's account before is held by its own
 * allowance only: the ceiling is what strangers from many clients can fill, and they would lock its owner out.
 */
export async function takeMailAllowance(
  ctx: AppContext,
  to: string,
  client: MailClient = TEAM_CLIENT,
  now = Date.now(),
): Promise<void> {
  const address = addressKey(to);
  const pair = `${address} ${client.key}`;
  await takeAllowance(ctx.db, 'account-mail-pair', pair, ACCOUNT_MAILS_PER_ADDRESS, 1, now);
  if (client.deviceUser !== null && (await findUserByEmail(ctx.db, to))?.id === client.deviceUser) return;
  try {
    await takeAllowance(ctx.db, 'account-mail-to', address, ACCOUNT_MAILS_PER_ADDRESS_CEILING, 1, now);
  } catch (error) {
    await giveBack(ctx.db, 'account-mail-pair', pair, 1, now);
    throw error;
  }
}

const workers = new WeakMap<Executor, AccountMailWorker>();

/** Stores an account mail for the worker to send, and tells this server's worker. */
export async function queueAccountMail(ctx: AppContext, to: string, mail: AccountMail): Promise<void> {
  await insertAccountMail(ctx.db, { to, mail: JSON.stringify(mail), now: Date.now() });
  workers.get(ctx.db)?.nudge();
}

/**
 * An account mail within the allowances (takeMailAllowance), queued: a visitor signing up, resetting or asking for
 * links to their requests, or an administrator inviting. The request answers once it is stored, whatever it says.
 */
export async function mailAccount(
  ctx: AppContext,
  to: string,
  mail: AccountMail,
  client?: MailClient,
): Promise<void> {
  await takeMailAllowance(ctx, to, client);
  await queueAccountMail(ctx, to, mail);
}

/** How long a claimed mail is ours: twice the cap on one send (send-mail.ts), so no other server sends it too. */
export const ACCOUNT_MAIL_CLAIM_MS = 60_000;
export const ACCOUNT_MAIL_MAX_ATTEMPTS = 8;
/** Sent and failed mails are kept this long (what was sent, and why not), then forgotten. */
const KEPT_MS = 7 * 24 * 60 * 60 * 1000;
const PASS_INTERVAL_MS = 1000;

/** 10 s, 20 s, 40 s, ... up to half an hour: a reset link lasts an hour, so later would be too late anyway. */
export const accountMailRetryDelay = (attempts: number) =>
  Math.min(10_000 * 2 ** Math.max(attempts - 1, 0), 30 * 60 * 1000);

export interface AccountMailOutcome {
  id: number;
  status: 'sent' | 'skipped' | 'retry' | 'failed';
  attempts: number;
  error?: string;
}

/**
 * One pass: every due mail is claimed, sent, and marked or rescheduled. A mail is marked only after the mail server
 * took it, so a crash in between sends it again (at least once). Tests pass `now` to move time.
 */
export async function sendDueAccountMails(ctx: AppContext, now?: number): Promise<AccountMailOutcome[]> {
  const clock = () => now ?? Date.now();
  const outcomes: AccountMailOutcome[] = [];
  if (Math.random() < 0.01) await deleteFinishedAccountMails(ctx.db, clock() - KEPT_MS);
  for (;;) {
    const at = clock();
    const due = await findDueAccountMail(ctx.db, at);
    if (!due) return outcomes;
    const row = await claimAccountMail(ctx.db, due.id, at, at + ACCOUNT_MAIL_CLAIM_MS);
    // Another server took it between our look and our claim.
    if (!row) continue;
    let sent: boolean;
    try {
      sent = await sendAccountMail(ctx, row.to_address, JSON.parse(row.mail) as AccountMail);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
      const status = row.attempts >= ACCOUNT_MAIL_MAX_ATTEMPTS ? 'failed' : 'pending';
      const nextAttemptAt = clock() + accountMailRetryDelay(row.attempts);
      await recordAccountMailFailure(ctx.db, row, { status, nextAttemptAt, error: message });
      outcomes.push({
        id: row.id,
        attempts: row.attempts,
        status: status === 'failed' ? 'failed' : 'retry',
        error: message,
      });
      continue;
    }
    await markAccountMailSent(ctx.db, row.id, clock());
    outcomes.push({ id: row.id, attempts: row.attempts, status: sent ? 'sent' : 'skipped' });
  }
}

/** What the worker reports to; the server passes its logger. */
export interface AccountMailLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AccountMailWorker {
  /** No pass starts after this; resolves once the one running, if any, has finished. */
  stop(): Promise<void>;
  /** A mail was queued: a pass starts now (or right after the one under way). */
  nudge(): void;
}

/**
 * Sends the account mails every second and when nudged, one pass at a time, on every server: each mail is claimed
 * by one of them. Does not keep the process alive on its own.
 */
export function startAccountMailWorker(ctx: AppContext, log?: AccountMailLog): AccountMailWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let again = false;

  const runPass = async () => {
    try {
      for (const outcome of await sendDueAccountMails(ctx)) {
        if (outcome.status === 'retry') log?.warn(outcome, 'account mail not sent; will retry');
        else if (outcome.status === 'failed') log?.error(outcome, 'account mail not sent, for good');
      }
    } catch (error) {
      // The database may be briefly unreachable; the next pass tries again.
      log?.error({ err: error }, 'account mail pass failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pass, PASS_INTERVAL_MS);
    timer.unref();
  };
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

  const worker: AccountMailWorker = {
    nudge() {
      if (stopped) return;
      if (busy) again = true;
      else {
        clearTimeout(timer);
        pass();
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (workers.get(ctx.db) === worker) workers.delete(ctx.db);
      await running;
    },
  };
  workers.set(ctx.db, worker);
  schedule();
  return worker;
}
