import { useState } from 'react';
import { Link } from 'react-router';
import type { AuthUser } from '../../shared/api/auth.ts';
import { href } from '../../shared/paths.ts';
import { call } from '../api/call.ts';
import { useAuth } from '../api/use-auth.tsx';
import { clearAuthToken } from '../lib/storage.ts';
import { authHeaders } from './auth-headers.ts';
import { EmailField, FormError, Panel, PasswordField, TextField } from './form-parts.tsx';
import { Block, ProfileForm, useProfileForm } from './profile-parts.tsx';
import { SignedIn, usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';
import { PERSON_NAME_MAX } from '../../shared/constants.ts';

/** The signed-in visitor's account: name, email, password, sessions and, for a customer, deleting it. */
function Profile({ user }: { user: AuthUser }) {
  const { p } = usePortalTexts();
  const { environments } = usePortalData();
  const [deleted, setDeleted] = useState(false);

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
      <NameBlock user={user} />
      {environments.accounts.mail && <EmailBlock user={user} />}
      <PasswordBlock />
      <SessionsBlock />
      {user.role === 'customer' && <DeleteBlock onDeleted={() => setDeleted(true)} />}
    </section>
  );
}

function NameBlock({ user }: { user: AuthUser }) {
  const { p, t } = usePortalTexts();
  const { update } = useAuth();
  const [name, setName] = useState(user.name);
  const form = useProfileForm();
  return (
    <Block title={t('nameLabel')}>
      <ProfileForm
        form={form}
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
          error={form.errors.name}
        />
      </ProfileForm>
    </Block>
  );
}

/** A new email, confirmed with the password; where the server mails a link to confirm it, the line says so. */
function EmailBlock({ user }: { user: AuthUser }) {
  const { p } = usePortalTexts();
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState('');
  const form = useProfileForm();
  return (
    <Block title={p('changeEmail')}>
      <ProfileForm
        form={form}
        button={p('changeEmail')}
        action={async () => {
          const result = await call('updateMe', {
            body: { email, current_password: password },
            headers: authHeaders(),
          });
          setPassword('');
          return result.email_change_sent_to
            ? p('emailChangeSent', { email: result.email_change_sent_to })
            : p('saved');
        }}
      >
        <EmailField id="profile-email" value={email} onChange={setEmail} error={form.errors.email} />
        <PasswordField
          id="profile-email-password"
          label={p('currentPassword')}
          kind="current"
          value={password}
          onChange={setPassword}
          error={form.errors.current_password}
        />
      </ProfileForm>
    </Block>
  );
}

function PasswordBlock() {
  const { p } = usePortalTexts();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const form = useProfileForm();
  return (
    <Block title={p('changePassword')}>
      <ProfileForm
        form={form}
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
          error={form.errors.current_password}
        />
        <PasswordField
          id="new-password"
          label={p('newPasswordLabel')}
          kind="new"
          value={next}
          onChange={setNext}
          error={form.errors.password}
        />
      </ProfileForm>
    </Block>
  );
}

/** Signing out of this browser, or of every browser (which then leaves for the help centre). */
function SessionsBlock() {
  const { p } = usePortalTexts();
  const { exit } = useAuth();
  const exitEverywhere = () => {
    const done = () => {
      clearAuthToken();
      window.location.assign(href.home());
    };
    call('logoutEverywhere', { headers: authHeaders() }).then(done, done);
  };
  return (
    <Block title={p('sessionsTitle')}>
      <p className="portal-actions">
        <button type="button" className="button button-secondary" onClick={exit}>
          {p('signOut')}
        </button>
        <button type="button" className="button button-secondary" onClick={exitEverywhere}>
          {p('signOutEverywhere')}
        </button>
      </p>
    </Block>
  );
}

/** A customer deletes their own account, with their password and a box ticked to confirm. */
function DeleteBlock({ onDeleted }: { onDeleted: () => void }) {
  const { p } = usePortalTexts();
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const form = useProfileForm();
  return (
    <Block title={p('deleteTitle')}>
      <p>{p('deleteText')}</p>
      <form
        className="portal-form"
        method="post"
        noValidate
        onSubmit={(event) =>
          void form.run(event, async () => {
            await call('deleteMe', { body: { password }, headers: authHeaders() });
            clearAuthToken();
            onDeleted();
            return p('deleted');
          })
        }
      >
        <PasswordField
          id="delete-password"
          label={p('passwordLabel')}
          kind="current"
          value={password}
          onChange={setPassword}
          error={form.errors.password}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
          />{' '}
          {p('deleteConfirm')}
        </label>
        <FormError message={form.errors.form} />
        <button
          type="submit"
          className="button button-danger"
          disabled={form.busy || !confirmed || !password}
        >
          {p('deleteButton')}
        </button>
      </form>
    </Block>
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
