import type { Language } from '../../../shared/constants.ts';
import { href } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import { sendMail } from '../../mail/send-mail.ts';
import { getBranding } from '../../settings/branding.ts';

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
  },
} satisfies Record<Language, Record<string, string>>;

export type AccountMail =
  | { kind: 'verify'; token: string }
  | { kind: 'exists' }
  | { kind: 'reset'; token: string }
  | { kind: 'noAccount' }
  | { kind: 'email'; token: string };

const HOURS = { verify: 48, reset: 1, email: 24, exists: 1, noAccount: 1 } as const;

/** Mails one account link (or the note that stands in for it) to `to`, from this server's public address. */
export async function sendAccountMail(ctx: AppContext, to: string, mail: AccountMail): Promise<void> {
  const branding = await getBranding(ctx.db);
  const texts = TEXTS[branding.lang as Language] ?? TEXTS.en;
  const site = branding.site_title || branding.knowledge_title || 'Signpost';
  const base = ctx.config.publicUrl.replace(/\/$/, '');
  const link =
    mail.kind === 'verify'
      ? href.portalVerifyEmail(mail.token)
      : mail.kind === 'reset'
        ? href.portalNewPassword(mail.token)
        : mail.kind === 'email'
          ? href.portalVerifyEmail(mail.token)
          : mail.kind === 'exists'
            ? href.portalForgotPassword()
            : href.portalSignUp();
  const fill = (text: string) =>
    text.replaceAll('{{site}}', () => site).replaceAll('{{hours}}', () => String(HOURS[mail.kind]));
  const lines = [fill(texts[mail.kind]), '', `${base}${link}`, ''];
  if (mail.kind === 'verify' || mail.kind === 'reset' || mail.kind === 'email')
    lines.push(fill(texts.expires));
  await sendMail(ctx, { to, subject: fill(texts[`${mail.kind}Subject`]), text: `${lines.join('\n')}\n` });
}
