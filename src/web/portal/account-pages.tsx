import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Environments } from '../../shared/api/settings.ts';
import { BASE_PATH, href } from '../../shared/paths.ts';
import { ApiRequestError, call } from '../api/call.ts';
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

/** Where a signed-in visitor goes next: their requests, or back to the help centre. */
export function OnwardLinks() {
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
export function CheckEmail({ text }: { text: string }) {
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
