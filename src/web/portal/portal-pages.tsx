import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import type { Language } from '../../shared/constants.ts';
import type { PortalPagePath } from '../../shared/paths.ts';
import { apiFrom } from '../api/api-context.ts';
import type { RouteHandle } from '../routes/head.ts';
import { LoginPage, SignUpPage } from './account-pages.tsx';
import { AcceptInvitePage, NewPasswordPage, VerifyEmailPage } from './emailed-link-pages.tsx';
import { ForgotPasswordPage, RequestLinkPage } from './mail-link-pages.tsx';
import { portalLoader, PortalLayout } from './portal-layout.tsx';
import { portalText, type PortalKey } from './portal-texts.ts';
import { ProfilePage } from './profile-page.tsx';
import { NewIssuePage } from './new-request-page.tsx';
import { IssuePage, issueLoader, IssuesPage, issuesLoader } from './request-pages.tsx';

/** The portal's own code, one chunk that the knowledge base's pages never load (see portal-routes.tsx). */
export const portalLayout = { loader: portalLoader, Component: PortalLayout };

interface PortalPage {
  Component: () => React.ReactNode;
  title: PortalKey;
  data?: (args: LoaderFunctionArgs) => Promise<object>;
}

const PAGES: Record<PortalPagePath, PortalPage> = {
  '/login': { Component: LoginPage, title: 'signInTitle' },
  '/signup': { Component: SignUpPage, title: 'signUpTitle' },
  '/forgot-password': { Component: ForgotPasswordPage, title: 'forgotTitle' },
  '/request-link': { Component: RequestLinkPage, title: 'requestLinkTitle' },
  '/new-password': { Component: NewPasswordPage, title: 'newPasswordTitle' },
  '/accept-invite': { Component: AcceptInvitePage, title: 'acceptTitle' },
  '/verify-email': { Component: VerifyEmailPage, title: 'verifyTitle' },
  '/issues': { Component: IssuesPage, title: 'myRequests', data: issuesLoader },
  '/issues/create': { Component: NewIssuePage, title: 'createTitle' },
  '/issues/:id': { Component: IssuePage, title: 'myRequests', data: issueLoader },
  '/user/profile': { Component: ProfilePage, title: 'profileTitle' },
};

/** Each portal page's loader gives its language, so its title in the head is in the visitor's language. */
const languageLoader = async ({ context }: LoaderFunctionArgs) => ({
  lang: (await apiFrom(context).branding()).lang,
});

/** What the route at `path` lazily adds: its page, its loader and its title. */
export function portalPage(path: PortalPagePath): Pick<RouteObject, 'loader' | 'Component' | 'handle'> {
  const page = PAGES[path];
  const { data } = page;
  return {
    loader: data
      ? async (args: LoaderFunctionArgs) => ({ ...(await data(args)), ...(await languageLoader(args)) })
      : languageLoader,
    Component: page.Component,
    handle: {
      head: (loaded) => ({ title: portalText((loaded as { lang: Language }).lang, page.title) }),
    } satisfies RouteHandle,
  };
}
