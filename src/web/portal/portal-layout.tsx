import { useEffect } from 'react';
import { useMatches, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Branding, Environments } from '../../shared/api/settings.ts';
import { apiFrom, sessionUser } from '../api/api-context.ts';
import type { AuthUser } from '../../shared/api/auth.ts';
import { Spinner } from '../components/spinner.tsx';
import { Footer } from '../layout/footer.tsx';
import { Header } from '../layout/header.tsx';
import { AuthProvider, useAuth } from '../api/use-auth.tsx';
import { I18nProvider, loadMessages, useI18n } from '../i18n/i18n.tsx';
import { loadPortalTexts } from './portal-languages.ts';
import { portalLinks } from '../lib/portal-links.ts';
import { pageHead } from '../routes/head.ts';
import { PageMain, useHydratedMarker } from '../routes/layout.tsx';
import { BundleError } from '../lib/use-root-data.ts';

export interface PortalData {
  branding: Branding;
  environments: Environments;
  /** The signed-in visitor, when the server rendered the page for them (their session cookie). */
  user: AuthUser | null;
}

/**
 * What every portal page needs: the branding (look, language) and environments (captcha, what accounts offer).
 * The portal stands apart from the knowledge base: it works while the knowledge base is switched off.
 */
export async function portalLoader({ context }: LoaderFunctionArgs): Promise<PortalData> {
  const api = apiFrom(context);
  const [branding, environments, user] = await Promise.allSettled([
    api.branding(),
    api.environments(),
    sessionUser(context),
  ]);
  if (branding.status === 'rejected' || environments.status === 'rejected')
    throw new BundleError('bundleFailed');
  await Promise.all([loadMessages(branding.value.lang), loadPortalTexts(branding.value.lang)]);
  return {
    branding: branding.value,
    environments: environments.value,
    user: user.status === 'fulfilled' ? user.value : null,
  };
}

export const usePortalData = () => useRouteLoaderData('portal') as PortalData;

function PortalBody() {
  const { branding, environments } = usePortalData();
  const { t } = useI18n();
  const matches = useMatches();
  useHydratedMarker();
  useEffect(() => {
    document.title = pageHead(matches, branding.site_title, t).title;
  }, [matches, branding.site_title, t]);
  return (
    <>
      <a className="skip-link" href="#content">
        {t('skipToContent')}
      </a>
      <Header
        isHome={false}
        branding={branding}
        portal={portalLinks(branding, environments)}
        search={branding.knowledge_enabled}
      />
      <PageMain className="page portal-page" />
      <Footer branding={branding} />
    </>
  );
}

export function PortalLayout() {
  const { branding, user } = usePortalData();
  return (
    <I18nProvider lang={branding.lang}>
      <AuthProvider initialUser={user}>
        <PortalBody />
      </AuthProvider>
    </I18nProvider>
  );
}

/** A page's spinner while what it shows is on its way. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner />
    </div>
  );
}

/** For pages of one signed-in visitor: a spinner while the stored token is checked, then `children` or `fallback`. */
export function SignedIn({
  children,
  fallback,
}: {
  children: (user: NonNullable<ReturnType<typeof useAuth>['user']>) => React.ReactNode;
  fallback: React.ReactNode;
}) {
  const { user, checked } = useAuth();
  if (!checked) return <PageLoading />;
  return user ? <>{children(user)}</> : <>{fallback}</>;
}
