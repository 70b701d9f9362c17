import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { MailSentResult } from '../../shared/api/auth.ts';
import type { Environments } from '../../shared/api/settings.ts';
import { BASE_PATH, href } from '../../shared/paths.ts';
import { ApiRequestError, call, fieldErrorsOf } from '../api/call.ts';
import { useAuth } from '../api/use-auth.tsx';
import { useCaptcha } from '../features/request/use-captcha.ts';
import { CaptchaSubmit, EmailField, FormError, Panel, PasswordField, TextField } from './form-parts.tsx';
import { usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { useFormValues, usePortalForm } from './use-portal-form.ts';
import { PERSON_NAME_MAX } from '../../shared/constants.ts';

/** Whether this server can make accounts, and can mail their links. */
export const canSignUp = (environments: Environments) =>
  environments.accounts.mail &&
  (environments.accounts.signup === 'open' || environments.accounts.signup === 'domains');

/** The help-centre page the visitor came from (same site, under /knowledge), else the help centre's main page. */
function knowledgeReferrer(): string {
  try {
    const url = new URL(document.referrer);
    if (url.origin === window.location.origin && url.pathname.startsWith(BASE_PATH))
      return url.pathname + url.search;
  } catch {
    // No referrer, or not a URL: the main page.
  }
  return href.home();
}

/** The token of an emailed link: in the fragment, which never reaches a server or a Referer header. */
const linkToken = () => (typeof window === 'undefined' ? '' : window.location.hash.replace(/^#/, ''));

/** Where a signed-in visitor goes next: their requests, or back to the help centre. */
function OnwardLinks() {
  const { p } = usePortalTexts();
  return (
    <p className="portal-actions">
      <Link className="button" to={href.portalIssues()}>
        {p('toMyRequests')}
      </Link>
      <Link className="button button-secondary" to={href.home()}>
        {p('toKnowledge')}
      </Link>
    </p>
  );
}

export function LoginPage() {
  const { p } = usePortalTexts();
  const { environments } = usePortalData();
  const { user, signedIn } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, send, complete } = usePortalForm();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete({ email: !email.trim(), password: !password })) return;
    await send(
      async () => {
        signedIn(await call('login', { body: { email: email.trim(), password } }));
        // From the help centre's sign-in link (from=knowledge_base): back to the page it was on.
        navigate(params.get('from') === 'knowledge_base' ? knowledgeReferrer() : href.portalIssues());
      },
      (error) =>
        error instanceof ApiRequestError && error.status === 401
          ? { form: p('wrongCredentials') }
          : undefined,
    );
  };

  if (user)
    return (
      <Panel title={p('signInTitle')}>
        <p>{p('signedInAs', { name: user.name })}</p>
        <OnwardLinks />
      </Panel>
    );
  return (
    <Panel title={p('signInTitle')}>
      <form className="portal-form" method="post" noValidate onSubmit={(event) => void submit(event)}>
        <EmailField value={email} onChange={setEmail} error={errors.email} />
        <PasswordField
          id="password"
          label={p('passwordLabel')}
          kind="current"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <FormError message={errors.form} />
        <button type="submit" className="button" disabled={busy}>
          {busy ? p('signingIn') : p('signInButton')}
        </button>
      </form>
      <div className="portal-links">
        {environments.accounts.mail && <Link to={href.portalForgotPassword()}>{p('forgotPassword')}</Link>}
        {environments.accounts.mail && (
          <p>
            {p('sentWithoutAccount')} <Link to={href.portalRequestLink()}>{p('newLinkButton')}</Link>
          </p>
        )}
        {canSignUp(environments) ? (
          <p>
            {p('noAccount')} <Link to={href.portalSignUp()}>{p('createAccount')}</Link>
          </p>
        ) : (
          <p className="field-hint">{p('accountsByTeam')}</p>
        )}
      </div>
    </Panel>
  );
}

/** What a page says once it has mailed the visitor a link. */
function CheckEmail({ text }: { text: string }) {
  const { p } = usePortalTexts();
  return (
    <Panel title={p('checkEmailTitle')}>
      <p role="status">{text}</p>
    </Panel>
  );
}

export function SignUpPage() {
  const { p, t } = usePortalTexts();
  const { environments } = usePortalData();
  const { errors, setErrors, busy, failures, send, complete } = usePortalForm();
  const { values, set } = useFormValues({ name: '', email: '', password: '' }, setErrors);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const captcha = useCaptcha(environments, failures);

  if (!canSignUp(environments))
    return (
      <Panel title={p('signUpTitle')}>
        <p>{environments.accounts.mail ? p('accountsByTeam') : p('noMail')}</p>
        <Link className="button" to={href.portalLogin()}>
          {p('signInButton')}
        </Link>
      </Panel>
    );
  if (sentTo) return <CheckEmail text={p('checkEmailSignUp', { email: sentTo })} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const blank = (field: keyof typeof values) => !values[field].trim();
    if (!complete({ name: blank('name'), email: blank('email'), password: blank('password') })) return;
    await send(async () => {
      const result = await call('signUp', {
        body: { ...values, g_recaptcha_response: captcha.read() },
      });
      setSentTo(result.sent_to);
    });
  };
  const domains = environments.accounts.signup_domains;
  return (
    <Panel title={p('signUpTitle')}>
      <form className="portal-form" method="post" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          id="name"
          label={t('nameLabel')}
          autoComplete="name"
          maxLength={PERSON_NAME_MAX}
          value={values.name}
          onChange={set('name')}
          error={errors.name}
        />
        <EmailField
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          hint={domains.length > 0 ? p('signUpDomains', { domains: domains.join(', ') }) : undefined}
        />
        <PasswordField
          id="password"
          label={p('passwordLabel')}
          kind="new"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <CaptchaSubmit captcha={captcha} errors={errors} busy={busy}>
          {p('signUpButton')}
        </CaptchaSubmit>
      </form>
      <p className="portal-links">
        {p('haveAccount')} <Link to={href.portalLogin()}>{p('signInButton')}</Link>
      </p>
    </Panel>
  );
}

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

function LinkBroken() {
  const { p } = usePortalTexts();
  return (
    <>
      <p role="alert">{p('linkBroken')}</p>
      <Link className="button" to={href.portalForgotPassword()}>
        {p('askNewLink')}
      </Link>
    </>
  );
}

/**
 * The form an emailed link opens to choose a password (a new one, or an invitee's first), which signs the visitor in.
 * A link whose token the server refuses shows `broken` instead.
 */
function ChoosePasswordForm({
  endpoint,
  title,
  intro,
  label,
  button,
  broken,
}: {
  endpoint: 'setNewPassword' | 'acceptInvite';
  title: string;
  intro?: ReactNode;
  label: string;
  button: string;
  broken: ReactNode;
}) {
  const { t } = usePortalTexts();
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const { errors, setErrors, busy, send } = usePortalForm();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setErrors({ password: t('fieldRequired') });
    await send(async () => {
      signedIn(await call(endpoint, { body: { token: linkToken(), password } }));
      navigate(href.portalIssues());
    });
  };
  return (
    <Panel title={title}>
      {errors.token ? (
        broken
      ) : (
        <>
          {intro}
          <form className="portal-form" method="post" noValidate onSubmit={(event) => void submit(event)}>
            <PasswordField
              id="password"
              label={label}
              kind="new"
              value={password}
              onChange={setPassword}
              error={errors.password}
            />
            <FormError message={errors.form} />
            <button type="submit" className="button" disabled={busy}>
              {button}
            </button>
          </form>
        </>
      )}
    </Panel>
  );
}

export function NewPasswordPage() {
  const { p } = usePortalTexts();
  return (
    <ChoosePasswordForm
      endpoint="setNewPassword"
      title={p('newPasswordTitle')}
      label={p('newPasswordLabel')}
      button={p('savePassword')}
      broken={<LinkBroken />}
    />
  );
}

/** The page an invitation's link opens: the invitee chooses their first password and is signed in. */
export function AcceptInvitePage() {
  const { p } = usePortalTexts();
  return (
    <ChoosePasswordForm
      endpoint="acceptInvite"
      title={p('acceptTitle')}
      intro={<p>{p('acceptText')}</p>}
      label={p('passwordLabel')}
      button={p('acceptButton')}
      broken={
        <>
          <p role="alert">{p('inviteBroken')}</p>
          <p className="portal-actions">
            <Link className="button" to={href.portalLogin()}>
              {p('signInButton')}
            </Link>
            <Link className="button button-secondary" to={href.portalForgotPassword()}>
              {p('forgotPassword')}
            </Link>
          </p>
        </>
      }
    />
  );
}

/**
 * The page a confirmation link opens. Nothing is sent until the visitor presses the button: a link someone else made
 * cannot confirm an address, or sign this browser in, just by being opened. The server signs in at once only the
 * browser that asked for the link; anywhere else it asks for a password (password_needed), which this page then
 * shows a field for, with the server's words naming the address, and for a name: the account's may be a stranger's
 * who signed up with the address, so the field starts empty.
 */
export function VerifyEmailPage() {
  const { p, t } = usePortalTexts();
  const { signedIn } = useAuth();
  const [step, setStep] = useState<'confirm' | 'password' | 'done'>('confirm');
  const [passwordIntro, setPasswordIntro] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const { errors, setErrors, busy, send } = usePortalForm();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (step === 'password' && (!name.trim() || !password))
      return setErrors({
        ...(!name.trim() && { name: t('fieldRequired') }),
        ...(!password && { password: t('fieldRequired') }),
      });
    await send(
      async () => {
        const body = { token: linkToken() || '-', ...(step === 'password' && { name, password }) };
        signedIn(await call('verifyEmail', { body }));
        window.history.replaceState(window.history.state, '', window.location.pathname);
        setStep('done');
      },
      (error) => {
        if (!(error instanceof ApiRequestError) || error.body?.code !== 'password_needed') return undefined;
        setPasswordIntro(fieldErrorsOf(error).password ?? p('verifyChoosePassword'));
        setStep('password');
        return {};
      },
    );
  };

  if (step === 'done')
    return (
      <Panel title={p('verifyTitle')}>
        <p role="status">{p('verified')}</p>
        <OnwardLinks />
      </Panel>
    );
  return (
    <Panel title={p('verifyTitle')}>
      {errors.token ? (
        <LinkBroken />
      ) : (
        <>
          <p>{step === 'confirm' ? p('verifyText') : passwordIntro}</p>
          <form className="portal-form" method="post" noValidate onSubmit={(event) => void submit(event)}>
            {step === 'password' && (
              <>
                <TextField
                  id="name"
                  label={p('verifyNameLabel')}
                  autoComplete="name"
                  maxLength={PERSON_NAME_MAX}
                  value={name}
                  onChange={setName}
                  error={errors.name}
                />
                <PasswordField
                  id="password"
                  label={p('passwordLabel')}
                  kind="new"
                  value={password}
                  onChange={setPassword}
                  error={errors.password}
                />
              </>
            )}
            <FormError message={errors.form} />
            <button type="submit" className="button" disabled={busy}>
              {step === 'confirm' ? p('verifyButton') : p('verifyWithPassword')}
            </button>
          </form>
        </>
      )}
    </Panel>
  );
}
