import { AUTH_HEADER } from '../../shared/constants.ts';
import { readAuthToken } from '../lib/storage.ts';

/** The stored token; without one (a visitor the server knows by the session cookie) a call goes by the cookie. */
export const authHeaders = (): Record<string, string> => {
  const token = readAuthToken();
  return token ? { [AUTH_HEADER]: token } : {};
};
