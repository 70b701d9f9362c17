import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import type { Language } from '../../shared/constants.ts';
import { apiFrom } from '../api/api-context.ts';
import type { RouteHandle } from '../routes/head.ts';
import { LayoutError, PageError } from '../routes/layout.tsx';
import {
  AcceptInvitePage,
  ForgotPasswordPage,
  LoginPage,
  NewPasswordPage,
  RequestLinkPage,
  SignUpPage,
  VerifyEmailPage,
} from './account-pages.tsx';
import { portalLoader, PortalLayout } from './portal-layout.tsx';
import { portalText, type PortalKey } from './portal-texts.ts';
import { ProfilePage } from './profile-page.tsx';
import { IssuePage, issueLoader, IssuesPage, issuesLoader, NewIssuePage } from './request-pages.tsx';

/** Each portal page's loader gives its language, so its title in the head is in the visitor's language. */
const languageLoader = async ({ context }: LoaderFunctionArgs) => ({
  lang: (await apiFrom(context).branding()).lang,
});

const page = (
  path: string,
  Component: () => React.ReactNode,
  title: PortalKey,
  data?: (args: LoaderFunctionArgs) => Promise<object>,
): RouteObject => ({
  id: `portal:${path}`,
  path,
  loader: data
    ? async (args: LoaderFunctionArgs) => ({ ...(await data(args)), ...(await languageLoader(args)) })
    : languageLoader,
  Component,
  handle: {
    head: (data) => ({ title: portalText((data as { lang: Language }).lang, title) }),
  } satisfies RouteHandle,
});

/**
 * The customer portal's pages (src/shared/paths.ts, portalPagePaths), served when no external portal is named.
 * A visitor known by their session cookie gets their requests and conversations rendered by the server (pages sent
 * `private, no-store`, never kept); without it, the page asks for them in the browser with the token it keeps.
 */
export const portalRoutes: RouteObject[] = [
  {
    id: 'portal',
    loader: portalLoader,
    Component: PortalLayout,
    ErrorBoundary: LayoutError,
    shouldRevalidate: () => false,
    children: [
      {
        ErrorBoundary: PageError,
        children: [
          page('/login', LoginPage, 'signInTitle'),
          page('/signup', SignUpPage, 'signUpTitle'),
          page('/forgot-password', ForgotPasswordPage, 'forgotTitle'),
          page('/request-link', RequestLinkPage, 'requestLinkTitle'),
          page('/new-password', NewPasswordPage, 'newPasswordTitle'),
          page('/accept-invite', AcceptInvitePage, 'acceptTitle'),
          page('/verify-email', VerifyEmailPage, 'verifyTitle'),
          page('/issues', IssuesPage, 'myRequests', issuesLoader),
          page('/issues/create', NewIssuePage, 'createTitle'),
          page('/issues/:id', IssuePage, 'myRequests', issueLoader),
          page('/user/profile', ProfilePage, 'profileTitle'),
        ],
      },
    ],
  },
];
