import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PERSON_NAME_MAX } from '../../shared/constants.ts';
import { href } from '../../shared/paths.ts';
import { ApiRequestError, call, fieldErrorsOf } from '../api/call.ts';
import { useAuth } from '../api/use-auth.tsx';
import { OnwardLinks } from './account-pages.tsx';
import { FormError, Panel, PasswordField, TextField } from './form-parts.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { usePortalForm } from './use-portal-form.ts';

/** The token of an emailed link: in the fragment, which never reaches a server or a Referer header. */
const linkToken = () => (typeof window === 'undefined' ? '' : window.location.hash.replace(/^#/, ''));

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
