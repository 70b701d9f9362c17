import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuthUser } from '../../shared/api/auth.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { href } from '../../shared/paths.ts';
import { call, type FieldErrors } from '../api/call.ts';
import { useAuth } from '../features/layout/use-auth.tsx';
import { clearAuthToken, readAuthToken } from '../lib/storage.ts';
import { errorsOf, FormError, Panel, TextField } from './form-parts.tsx';
import { SignedIn, usePortalData } from './portal-layout.tsx';
import { usePortalTexts } from './portal-texts.ts';

/** The stored token; without one (a visitor the server knows by the session cookie) sign-out goes by the cookie. */
const headers = (): Record<string, string> => {
  const token = readAuthToken();
  return token ? { [AUTH_HEADER]: token } : {};
};

/** One form of the profile: its own fields, errors, busy state and the line that says it worked. */
function useProfileForm() {
  const { t } = usePortalTexts();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const run = async (event: FormEvent, action: () => Promise<string>) => {
    event.preventDefault();
    setBusy(true);
    setDone(null);
    try {
      setDone(await action());
      setErrors({});
    } catch (error) {
      setErrors(errorsOf(error, t('errorOccurred')));
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, busy, done, run };
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
        <form
          className="portal-form"
          noValidate
          onSubmit={(event) =>
            void nameForm.run(event, async () => {
              const result = await call('updateMe', { body: { name }, headers: headers() });
              update(result.user);
              return p('saved');
            })
          }
        >
          <TextField
            id="profile-name"
            label={t('nameLabel')}
            autoComplete="name"
            maxLength={200}
            value={name}
            onChange={setName}
            error={nameForm.errors.name}
          />
          <FormError message={nameForm.errors.form} />
          <button type="submit" className="button" disabled={nameForm.busy}>
            {p('saveName')}
          </button>
          <Done text={nameForm.done} />
        </form>
      </Block>
      {environments.accounts.mail && (
        <Block title={p('changeEmail')}>
          <form
            className="portal-form"
            noValidate
            onSubmit={(event) =>
              void emailForm.run(event, async () => {
                const result = await call('updateMe', {
                  body: { email, current_password: emailPassword },
                  headers: headers(),
                });
                setEmailPassword('');
                return result.email_change_sent_to
                  ? p('emailChangeSent', { email: result.email_change_sent_to })
                  : p('saved');
              })
            }
          >
            <TextField
              id="profile-email"
              label={t('emailLabel')}
              type="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
              error={emailForm.errors.email}
            />
            <TextField
              id="profile-email-password"
              label={p('currentPassword')}
              type="password"
              autoComplete="current-password"
              maxLength={1024}
              value={emailPassword}
              onChange={setEmailPassword}
              error={emailForm.errors.current_password}
            />
            <FormError message={emailForm.errors.form} />
            <button type="submit" className="button" disabled={emailForm.busy}>
              {p('changeEmail')}
            </button>
            <Done text={emailForm.done} />
          </form>
        </Block>
      )}
      <Block title={p('changePassword')}>
        <form
          className="portal-form"
          noValidate
          onSubmit={(event) =>
            void passwordForm.run(event, async () => {
              await call('updateMe', {
                body: { password: next, current_password: current },
                headers: headers(),
              });
              setCurrent('');
              setNext('');
              return p('passwordChanged');
            })
          }
        >
          <TextField
            id="current-password"
            label={p('currentPassword')}
            type="password"
            autoComplete="current-password"
            maxLength={1024}
            value={current}
            onChange={setCurrent}
            error={passwordForm.errors.current_password}
          />
          <TextField
            id="new-password"
            label={p('newPasswordLabel')}
            type="password"
            autoComplete="new-password"
            maxLength={1024}
            value={next}
            onChange={setNext}
            error={passwordForm.errors.password}
            hint={p('passwordHint')}
          />
          <FormError message={passwordForm.errors.form} />
          <button type="submit" className="button" disabled={passwordForm.busy}>
            {p('changePassword')}
          </button>
          <Done text={passwordForm.done} />
        </form>
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
              call('logoutEverywhere', { headers: headers() }).then(done, done);
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
            noValidate
            onSubmit={(event) =>
              void deleteForm.run(event, async () => {
                await call('deleteMe', { body: { password: deletePassword }, headers: headers() });
                clearAuthToken();
                setDeleted(true);
                return p('deleted');
              })
            }
          >
            <TextField
              id="delete-password"
              label={p('passwordLabel')}
              type="password"
              autoComplete="current-password"
              maxLength={1024}
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
