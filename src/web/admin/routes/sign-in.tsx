import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { adminCall } from '../api/admin-api.ts';
import { Field, FormError } from '../components/field.tsx';
import { messageOf, statusOf } from '../lib/errors.ts';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { writeToken } from '../api/session-token.ts';
import { signOut } from '../features/session/session.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';

/** Where to go after signing in: only paths inside the admin app. */
const safeNext = (next: string | null) =>
  next && next.startsWith('/') && !next.startsWith('//') ? next : '/';

export function SignInPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, message, busy, submitWith } = useFormSubmission((error) =>
    statusOf(error) === 401 ? 'Wrong email or password.' : messageOf(error),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const [status, setStatus] = useState('');
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (!(location.state as { signOut?: boolean } | null)?.signOut) return;
    void signOut().then(() => setStatus('You are signed out.'));
  }, [location.state]);

  const handleSubmit = submitWith(async () => {
    const result = await adminCall('login', { body: { email: email.trim(), password } });
    writeToken(result.token);
    navigate(safeNext(params.get('next')), { replace: true });
  });

  return (
    <main className="sign-in" id="main">
      <form className="sign-in-card" onSubmit={handleSubmit} noValidate>
        <h1 ref={heading} tabIndex={-1}>
          Sign in to the help centre admin
        </h1>
        <p role="status" className="muted">
          {status}
        </p>
        <FormError message={message} />
        <Field label="Email" error={errors.email}>
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password" error={errors.password}>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="sign-in-note">
          Accounts are made with <code>signpost user add --admin</code> or by another administrator.
        </p>
      </form>
    </main>
  );
}
