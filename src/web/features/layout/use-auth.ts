import { useEffect, useState } from 'react';
import type { AuthUser } from '../../../shared/api/auth.ts';
import { apiFrom } from '../../api/api-context.ts';
import { clearAuthToken, readAuthToken } from '../../lib/storage.ts';

export interface AuthState {
  user: AuthUser | null;
  error: string | null;
}

/**
 * The signed-in visitor, read after hydration: the token lives in the browser's storage, so the server always
 * renders the anonymous header and this fills it in.
 */
export function useAuth(): AuthState & { exit: () => void } {
  const [state, setState] = useState<AuthState>({ user: null, error: null });
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
  return { ...state, exit };
}
