import type { Language } from '../../shared/constants.ts';
import { href } from '../../shared/paths.ts';
import { INVITE_LIFETIME_DAYS } from '../accounts/account-links.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';
import { getBranding } from '../settings/branding.ts';
import { TICKET_LINK_LIFETIME_MS } from '../tickets/ticket-links.ts';
import { sendMail } from './send-mail.ts';

/** Account mails one address may be sent in an hour, whoever asks: nobody can flood someone's mailbox. */
export const ACCOUNT_MAILS_PER_ADDRESS = 5;

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
    linksExpire: 'Každý odkaz funguje {{days}} dní. Ak ste o ne nežiadali, tento e-mail ignorujte.',
    noRequestsSubject: 'Vaše požiadavky v {{site}}',
    noRequests:
      'Niekto, pravdepodobne vy, požiadal o odkazy na požiadavky poslané do {{site}} z tohto e-mailu, ale nenašla sa žiadna poslaná bez účtu. Ak máte účet, prihláste sa a uvidíte svoje požiadavky:',
  },
} satisfies Record<Language, Record<string, string>>;

export type AccountMail =
  | { kind: 'verify'; token: string }
  | { kind: 'exists' }
  | { kind: 'reset'; token: string }
  | { kind: 'noAccount' }
  | { kind: 'email'; token: string }
  | { kind: 'invite'; token: string }
  | { kind: 'requestLinks'; requests: RequestLink[] }
  | { kind: 'noRequests' };

/** One request of a requester without an account, with a fresh private key to its page. */
export interface RequestLink {
  id: number;
  title: string;
  key: string;
}

/** How long each kind's link works; {{days}} is the same in days. */
const HOURS = {
  verify: 48,
  reset: 1,
  email: 24,
  exists: 1,
  noAccount: 1,
  invite: 24 * INVITE_LIFETIME_DAYS,
  requestLinks: TICKET_LINK_LIFETIME_MS / 3_600_000,
  noRequests: 1,
} as const;

function linkOf(mail: Exclude<AccountMail, { kind: 'requestLinks' }>): string {
  switch (mail.kind) {
    case 'verify':
    case 'email':
      return href.portalVerifyEmail(mail.token);
    case 'reset':
      return href.portalNewPassword(mail.token);
    case 'invite':
      return href.portalAcceptInvite(mail.token);
    case 'exists':
      return href.portalForgotPassword();
    case 'noAccount':
      return href.portalSignUp();
    case 'noRequests':
      return href.portalSignIn();
  }
}

/** Mails one account link, a requester's links to their requests, or the note that stands in, to `to`. */
export async function sendAccountMail(ctx: AppContext, to: string, mail: AccountMail): Promise<void> {
  const branding = await getBranding(ctx.db);
  const texts = TEXTS[branding.lang as Language] ?? TEXTS.en;
  const site = branding.site_title || branding.knowledge_title || 'Signpost';
  const base = ctx.config.publicUrl.replace(/\/$/, '');
  const fill = (text: string) =>
    text
      .replaceAll('{{site}}', () => site)
      .replaceAll('{{hours}}', () => String(HOURS[mail.kind]))
      .replaceAll('{{days}}', () => String(HOURS[mail.kind] / 24));
  const lines = [fill(texts[mail.kind]), ''];
  if (mail.kind === 'requestLinks') {
    // A title is the requester's own text: one line of it, so it cannot pose as more of the mail.
    for (const { id, title, key } of mail.requests)
      lines.push(title.replace(/\s+/g, ' ').trim(), `${base}${href.portalIssue(id)}?key=${key}`, '');
    lines.push(fill(texts.linksExpire));
  } else lines.push(`${base}${linkOf(mail)}`, '');
  if (mail.kind === 'verify' || mail.kind === 'reset' || mail.kind === 'email')
    lines.push(fill(texts.expires));
  if (mail.kind === 'invite') lines.push(fill(texts.inviteExpires));
  await sendMail(ctx, { to, subject: fill(texts[`${mail.kind}Subject`]), text: `${lines.join('\n')}\n` });
}

/** The refusal of anything that needs an emailed link when this server sends no mail. */
export const mailUnavailable = () =>
  new ApiError(
    403,
    'mail_unavailable',
    'This help centre sends no email (SMTP_URL is not set), so emailed links cannot reach you; ask the team',
  );

/**
 * Sends an account mail within the address's hourly allowance (429 past it), whoever asks for it: a visitor signing
 * up, resetting or asking for links to their requests, or an administrator inviting.
 */
export async function mailAccount(ctx: AppContext, to: string, what: AccountMail): Promise<void> {
  await hitRateLimit(ctx.db, 'account-mail-to', to, ACCOUNT_MAILS_PER_ADDRESS);
  try {
    await sendAccountMail(ctx, to, what);
  } catch {
    throw new ApiError(503, 'mail_failed', 'The email could not be sent; try again in a few minutes');
  }
}
