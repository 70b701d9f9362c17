import { useState, type FormEvent } from 'react';
import type { MailSentResult } from '../../shared/api/auth.ts';
import { call } from '../api/call.ts';
import { useCaptcha } from '../features/request/use-captcha.ts';
import { CheckEmail } from './account-pages.tsx';
import { CaptchaSubmit, EmailField, Panel } from './form-parts.tsx';
import { usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { usePortalForm } from './use-portal-form.ts';

/** What a visitor gives to be mailed a link: the email, and the captcha's answer. */
type MailLinkBody = { email: string; g_recaptcha_response: string | undefined };

/**
 * A page that mails a link to the email the visitor gives (a new password's, new links to their requests), then says
 * where to look; without mail, that it cannot.
 */
function MailLinkPage({
  title,
  intro,
  sentText,
  send: sendMail,
}: {
  title: string;
  intro: string;
  sentText: (email: string) => string;
  send: (body: MailLinkBody) => Promise<MailSentResult>;
}) {
  const { p, t } = usePortalTexts();
  const { environments } = usePortalData();
  const [email, setEmail] = useState('');
  const { errors, setErrors, busy, failures, send } = usePortalForm();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const captcha = useCaptcha(environments, failures);

  if (!environments.accounts.mail)
    return (
      <Panel title={title}>
        <p>{p('noMail')}</p>
      </Panel>
    );
  if (sentTo) return <CheckEmail text={sentText(sentTo)} />;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setErrors({ email: t('fieldRequired') });
    await send(async () => {
      const result = await sendMail({ email: email.trim(), g_recaptcha_response: captcha.read() });
      setSentTo(result.sent_to);
    });
  };
  return (
    <Panel title={title}>
      <p>{intro}</p>
      <form className="portal-form" method="post" noValidate onSubmit={(event) => void submit(event)}>
        <EmailField value={email} onChange={setEmail} error={errors.email} />
        <CaptchaSubmit captcha={captcha} errors={errors} busy={busy}>
          {p('sendLink')}
        </CaptchaSubmit>
      </form>
    </Panel>
  );
}

export function ForgotPasswordPage() {
  const { p } = usePortalTexts();
  return (
    <MailLinkPage
      title={p('forgotTitle')}
      intro={p('forgotText')}
      sentText={(email) => p('checkEmailReset', { email })}
      send={(body) => call('requestPasswordReset', { body })}
    />
  );
}

/** /request-link: a requester without an account asks for new private links to the requests they sent. */
export function RequestLinkPage() {
  const { p } = usePortalTexts();
  return (
    <MailLinkPage
      title={p('requestLinkTitle')}
      intro={p('requestLinkText')}
      sentText={(email) => p('checkEmailLinks', { email })}
      send={(body) => call('requestIssueLinks', { body })}
    />
  );
}
