import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AuthUser, LoginResult } from '../../shared/api/auth.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { apiFrom, forgetAnswers } from './api-context.ts';
import { call } from './call.ts';
import { clearAuthToken, readAuthToken, storageKeys, writeItem } from '../lib/storage.ts';

export interface AuthState {
  user: AuthUser | null;
  error: string | null;
  /** False until the stored token (if any) was checked: a page for signed-in visitors waits for it. */
  checked: boolean;
  /** Signs out of this browser: the token is revoked on the server and forgotten here. */
  exit: () => void;
  /** Keeps a new session (sign-in, a confirmed email, a new password) and shows its user at once. */
  signedIn: (result: LoginResult) => void;
  /** Shows changes to the signed-in user (a new name) without asking the server again. */
  update: (user: AuthUser) => void;
}

const AuthContext = createContext<AuthState>({
  user: null,
  error: null,
  checked: false,
  exit: () => {},
  signedIn: () => {},
  update: () => {},
});

/**
 * The signed-in visitor: as the server rendered the page for them (their session cookie), else read once after
 * hydration with the token in the browser's storage, which the server never sees.
 */
export function AuthProvider({
  children,
  initialUser = null,
}: {
  children: ReactNode;
  initialUser?: AuthUser | null;
}) {
  const [state, setState] = useState<Pick<AuthState, 'user' | 'error' | 'checked'>>({
    user: initialUser,
    error: null,
    checked: initialUser !== null,
  });
  useEffect(() => {
    const token = readAuthToken();
    if (!token) {
      setState((current) => ({ ...current, error: null, checked: true }));
      return;
    }
    let cancelled = false;
    apiFrom(undefined)
      .me(token)
      .then((user) => !cancelled && setState({ user, error: null, checked: true }))
      .catch(
        (error: unknown) =>
          !cancelled &&
          setState({ user: null, error: error instanceof Error ? error.message : 'error', checked: true }),
      );
    return () => {
      cancelled = true;
    };
  }, []);
  const exit = () => {
    const token = readAuthToken();
    const done = () => {
      clearAuthToken();
      window.location.reload();
    };
    // Revoked on the server too, so a copy of the token is worth nothing, and the session cookie cleared (it alone
    // signs out a visitor the server rendered by it); gone here whatever the answer.
    call('logout', token ? { headers: { [AUTH_HEADER]: token } } : {}).then(done, done);
  };
  const signedIn = (result: LoginResult) => {
    writeItem(storageKeys.authToken, result.token);
    forgetAnswers();
    setState({ user: result.user, error: null, checked: true });
  };
  const update = (user: AuthUser) => setState((current) => ({ ...current, user }));
  return <AuthContext.Provider value={{ ...state, exit, signedIn, update }}>{children}</AuthContext.Provider>;
}

export const useAuth = () => useContext(AuthContext);
