import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuthUser } from '../../shared/api/auth.ts';
import { href } from '../../shared/paths.ts';
import { call } from '../api/call.ts';
import { useAuth } from '../api/use-auth.tsx';
import { clearAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { EmailField, FormError, Panel, PasswordField, TextField } from './form-parts.tsx';
import { SignedIn, usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { usePortalForm } from './use-portal-form.ts';
import { PERSON_NAME_MAX } from '../../shared/constants.ts';

/** One form of the profile: its own fields, errors, busy state and the line that says it worked. */
function useProfileForm() {
  const { errors, setErrors, busy, send } = usePortalForm();
  const [done, setDone] = useState<string | null>(null);
  const run = async (event: FormEvent, action: () => Promise<string>) => {
    event.preventDefault();
    setDone(null);
    await send(async () => {
      setDone(await action());
      setErrors({});
    });
  };
  return { errors, busy, done, run };
}

type ProfileFormState = ReturnType<typeof useProfileForm>;

/** A form of the profile that says so when it worked. */
function ProfileForm({
  form,
  action,
  button,
  children,
}: {
  form: ProfileFormState;
  action: () => Promise<string>;
  button: string;
  children: ReactNode;
}) {
  return (
    <form className="portal-form" method="post" noValidate onSubmit={(event) => void form.run(event, action)}>
      {children}
      <FormError message={form.errors.form} />
      <button type="submit" className="button" disabled={form.busy}>
        {button}
      </button>
      <Done text={form.done} />
    </form>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="profile-block">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function Done({ text }: { text: string | null }) {
  return text ? (
    <p className="form-done" role="status">
      {text}
    </p>
  ) : null;
}

function Profile({ user }: { user: AuthUser }) {
  const { p, t } = usePortalTexts();
  const { environments } = usePortalData();
  const { update, exit } = useAuth();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [emailPassword, setEmailPassword] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [deletePassword, setDeletePassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const nameForm = useProfileForm();
  const emailForm = useProfileForm();
  const passwordForm = useProfileForm();
  const deleteForm = useProfileForm();

  if (deleted)
    return (
      <Panel title={p('profileTitle')}>
        <p role="status">{p('deleted')}</p>
        <a className="button" href={href.home()}>
          {p('toKnowledge')}
        </a>
      </Panel>
    );

  return (
    <section className="portal-panel profile">
      <h1>{p('profileTitle')}</h1>
      <Block title={t('nameLabel')}>
        <ProfileForm
          form={nameForm}
          button={p('saveName')}
          action={async () => {
            const result = await call('updateMe', { body: { name }, headers: authHeaders() });
            update(result.user);
            return p('saved');
          }}
        >
          <TextField
            id="profile-name"
            label={t('nameLabel')}
            autoComplete="name"
            maxLength={PERSON_NAME_MAX}
            value={name}
            onChange={setName}
            error={nameForm.errors.name}
          />
        </ProfileForm>
      </Block>
      {environments.accounts.mail && (
        <Block title={p('changeEmail')}>
          <ProfileForm
            form={emailForm}
            button={p('changeEmail')}
            action={async () => {
              const result = await call('updateMe', {
                body: { email, current_password: emailPassword },
                headers: authHeaders(),
              });
              setEmailPassword('');
              return result.email_change_sent_to
                ? p('emailChangeSent', { email: result.email_change_sent_to })
                : p('saved');
            }}
          >
            <EmailField id="profile-email" value={email} onChange={setEmail} error={emailForm.errors.email} />
            <PasswordField
              id="profile-email-password"
              label={p('currentPassword')}
              kind="current"
              value={emailPassword}
              onChange={setEmailPassword}
              error={emailForm.errors.current_password}
            />
          </ProfileForm>
        </Block>
      )}
      <Block title={p('changePassword')}>
        <ProfileForm
          form={passwordForm}
          button={p('changePassword')}
          action={async () => {
            await call('updateMe', {
              body: { password: next, current_password: current },
              headers: authHeaders(),
            });
            setCurrent('');
            setNext('');
            return p('passwordChanged');
          }}
        >
          <PasswordField
            id="current-password"
            label={p('currentPassword')}
            kind="current"
            value={current}
            onChange={setCurrent}
            error={passwordForm.errors.current_password}
          />
          <PasswordField
            id="new-password"
            label={p('newPasswordLabel')}
            kind="new"
            value={next}
            onChange={setNext}
            error={passwordForm.errors.password}
          />
        </ProfileForm>
      </Block>
      <Block title={p('sessionsTitle')}>
        <p className="portal-actions">
          <button type="button" className="button button-secondary" onClick={exit}>
            {p('signOut')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              const done = () => {
                clearAuthToken();
                window.location.assign(href.home());
              };
              call('logoutEverywhere', { headers: authHeaders() }).then(done, done);
            }}
          >
            {p('signOutEverywhere')}
          </button>
        </p>
      </Block>
      {user.role === 'customer' && (
        <Block title={p('deleteTitle')}>
          <p>{p('deleteText')}</p>
          <form
            className="portal-form"
            method="post"
            noValidate
            onSubmit={(event) =>
              void deleteForm.run(event, async () => {
                await call('deleteMe', { body: { password: deletePassword }, headers: authHeaders() });
                clearAuthToken();
                setDeleted(true);
                return p('deleted');
              })
            }
          >
            <PasswordField
              id="delete-password"
              label={p('passwordLabel')}
              kind="current"
              value={deletePassword}
              onChange={setDeletePassword}
              error={deleteForm.errors.password}
            />
            <label className="check">
              <input
                type="checkbox"
                checked={confirmed}
                onChange={(event) => setConfirmed(event.target.checked)}
              />{' '}
              {p('deleteConfirm')}
            </label>
            <FormError message={deleteForm.errors.form} />
            <button
              type="submit"
              className="button button-danger"
              disabled={deleteForm.busy || !confirmed || !deletePassword}
            >
              {p('deleteButton')}
            </button>
          </form>
        </Block>
      )}
    </section>
  );
}

/** /user/profile: the signed-in visitor's account. */
export function ProfilePage() {
  const { p } = usePortalTexts();
  return (
    <SignedIn
      fallback={
        <Panel title={p('profileTitle')}>
          <Link className="button" to={href.portalLogin()}>
            {p('signInButton')}
          </Link>
        </Panel>
      }
    >
      {(user) => <Profile user={user} />}
    </SignedIn>
  );
}
