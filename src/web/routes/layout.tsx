import { useEffect } from 'react';
import { isHomePath } from '../../shared/paths.ts';
import {
  isRouteErrorResponse,
  Outlet,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
} from 'react-router';
import { Spinner } from '../components/spinner.tsx';
import { Footer } from '../layout/footer.tsx';
import { Header } from '../layout/header.tsx';
import { AuthProvider } from '../api/use-auth.tsx';
import { RequestHint } from '../layout/request-hint.tsx';
import { I18nProvider, useI18n } from '../i18n/i18n.tsx';
import { storageKeys, writeItem } from '../lib/storage.ts';
import { pageLanguageOf } from '../../shared/page-language.ts';
import { pageHead, type RouteHandle } from './head.ts';
import { usePortalLinks, useRootData } from '../lib/use-root-data.ts';
import { PageNotFound } from './page-not-found.tsx';

/** Query parameters megapolName and megapolEmail, on any page, prefill the request form later. */
function useRememberVisitorParams() {
  const { search } = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(search);
    for (const key of [storageKeys.megapolName, storageKeys.megapolEmail] as const) {
      const value = params.get(key);
      if (value) writeItem(key, value);
    }
  }, [search]);
}

function useDocumentTitle() {
  const matches = useMatches();
  const { branding } = useRootData();
  const { t, lang } = useI18n();
  useEffect(() => {
    document.title = pageHead(matches, branding.site_title, t).title;
  }, [matches, branding.site_title, t]);
  // The language switcher moves without reloading: the document says the language it is now in.
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
}

/** Marks the document once the browser has hydrated the page, for tests and for styles that need JavaScript. */
export function useHydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}

function LayoutBody() {
  const { t } = useI18n();
  const data = useRootData();
  const portal = usePortalLinks();
  const matches = useMatches();
  const { pathname } = useLocation();
  useRememberVisitorParams();
  useDocumentTitle();
  useHydratedMarker();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const hideHint = handle?.hideRequestHint?.(matches[matches.length - 1]?.data) ?? false;

  return (
    <>
      <a className="skip-link" href="#content">
        {t('skipToContent')}
      </a>
      <Header isHome={isHomePath(pathname)} branding={data.branding} portal={portal} />
      {portal.createIssue && !hideHint && <RequestHint href={portal.createIssue} />}
      {data.bundleError && (
        <p className="banner banner-warning" role="alert">
          {t(data.bundleError)}
        </p>
      )}
      <PageMain />
      <Footer branding={data.branding} />
    </>
  );
}

/** The page's own part, under the header: a spinner while the next page loads, then the page. */
export function PageMain({ className = 'page' }: { className?: string }) {
  const navigation = useNavigation();
  return (
    <main id="content" className={className} tabIndex={-1}>
      {navigation.state === 'loading' ? (
        <div className="page-loading">
          <Spinner />
        </div>
      ) : null}
      <div hidden={navigation.state === 'loading'}>
        <Outlet />
      </div>
    </main>
  );
}

export function Layout() {
  const { branding, user } = useRootData();
  const pageLang = pageLanguageOf(useLocation().search);
  return (
    <I18nProvider lang={pageLang ?? branding.lang} pageLang={pageLang}>
      <AuthProvider initialUser={user}>
        <LayoutBody />
      </AuthProvider>
    </I18nProvider>
  );
}

/** When the shared data itself fails there is no layout to show: say so plainly, in the default language. */
export function LayoutError() {
  const error = useRouteError();
  return (
    <I18nProvider lang="en">
      <RootFailure status={isRouteErrorResponse(error) ? error.status : 500} />
    </I18nProvider>
  );
}

function RootFailure({ status }: { status: number }) {
  const { t } = useI18n();
  return (
    <main className="page page-error">
      <h1>{t('errorOccurred')}</h1>
      <p>{status === 404 ? t('pageNotFound') : t('bundleFailed')}</p>
      <a className="button" href="/knowledge/">
        {t('tryAgain')}
      </a>
    </main>
  );
}

/** Errors inside a page: not found shows the not-found screen; anything else a message and a way back. */
export function PageError() {
  const error = useRouteError();
  const { t } = useI18n();
  if (isRouteErrorResponse(error) && error.status === 404) return <PageNotFound />;
  return (
    <div className="page-error" role="alert">
      <h1>{t('errorOccurred')}</h1>
      <a className="button" href="">
        {t('tryAgain')}
      </a>
    </div>
  );
}
