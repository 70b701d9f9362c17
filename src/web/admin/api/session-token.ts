/** The admin's own token, apart from the public site's: signing out of one does not sign out of the other. */
const TOKEN_KEY = 'signpost.admin.token';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function writeToken(token: string | null): void {
  try {
    if (token === null) window.localStorage.removeItem(TOKEN_KEY);
    else window.localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage may be off (private mode): the session then lasts as long as the page.
  }
}
