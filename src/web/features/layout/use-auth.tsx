import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AuthUser } from '../../../shared/api/auth.ts';
import { apiFrom } from '../../api/api-context.ts';
import { clearAuthToken, readAuthToken } from '../../lib/storage.ts';

export interface AuthState {
  user: AuthUser | null;
  error: string | null;
  exit: () => void;
}

const AuthContext = createContext<AuthState>({ user: null, error: null, exit: () => {} });

/**
 * The signed-in visitor, read once after hydration: the token lives in the browser's storage, so the server
 * always renders the anonymous page and this fills it in.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Omit<AuthState, 'exit'>>({ user: null, error: null });
  useEffect(() => {
    const token = readAuthToken();
    if (!token) return;
    let cancelled = false;
    apiFrom(undefined)
      .me(token)
      .then((user) => !cancelled && setState({ user, error: null }))
      .catch(
        (error: unknown) =>
          !cancelled && setState({ user: null, error: error instanceof Error ? error.message : 'error' }),
      );
    return () => {
      cancelled = true;
    };
  }, []);
  const exit = () => {
    clearAuthToken();
    setState({ user: null, error: null });
    window.location.reload();
  };
  return <AuthContext.Provider value={{ ...state, exit }}>{children}</AuthContext.Provider>;
}

export const useAuth = () => useContext(AuthContext);
