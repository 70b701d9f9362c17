import { useEffect } from 'react';
import { Link, useRevalidator } from 'react-router';
import { href } from '../../../shared/paths.ts';
import { ApiRequestError } from '../../api/client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { readAuthToken } from '../../lib/storage.ts';
import { usePortalLinks } from '../../lib/use-root-data.ts';

/** What a loader answers for a page that exists but is for signed-in visitors: no title, nothing of its content. */
export interface SignInRequired {
  signInRequired: true;
}

/** Whether the server refused the call because the page is for signed-in visitors (401 sign_in_required). */
export const isSignInRequired = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 401 && error.body?.code === 'sign_in_required';

export const hasSignInPrompt = (data: unknown): data is SignInRequired =>
  typeof data === 'object' && data !== null && 'signInRequired' in data;

/**
 * A direct link to an article or category for signed-in visitors, followed by someone who is not: where to sign
 * in, and the way home. After signing in (the sign-in page returns here) the page itself shows. A visitor whose token
 * the server did not see while rendering (signed in through a portal elsewhere, which sets no cookie here) is asked
 * for again with it, once the page is running.
 */
export function SignInPrompt() {
  const { t, localHref } = useI18n();
  const portal = usePortalLinks();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (readAuthToken()) void revalidate();
    // Once per page: an answer still refused with the token shows this prompt again, and stops there.
  }, [revalidate]);
  return (
    <section className="not-found sign-in-prompt">
      <h1>{t('signInToReadTitle')}</h1>
      <p>{t('signInToReadText')}</p>
      <p className="not-found-actions">
        {portal.signIn && (
          <a className="button" href={portal.signIn}>
            {t('signIn')}
          </a>
        )}
        <Link className={portal.signIn ? 'button button-secondary' : 'button'} to={localHref(href.home())}>
          {t('toMainPage')}
        </Link>
      </p>
    </section>
  );
}
