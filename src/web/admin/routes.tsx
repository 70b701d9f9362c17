import type { RouteObject, ShouldRevalidateFunctionArgs } from 'react-router';
import { adminOnly, sessionLoader } from './features/session/session.tsx';
import { articleLoader, newArticleLoader } from './routes/article.tsx';
import { BrandingPage, brandingLoader } from './routes/branding.tsx';
import { categoryLoader } from './routes/category.tsx';
import { FeedbackPage, feedbackLoader } from './routes/feedback.tsx';
import { ContentHome, ContentLayout, contentLoader } from './routes/content.tsx';
import { Shell } from './routes/shell.tsx';
import { AdminNotFound, Loading, PageError, ShellError } from './routes/shell-errors.tsx';
import { RequestPage, requestLoader } from './routes/request.tsx';
import { RequestsPage, requestsLoader } from './routes/requests.tsx';
import { SearchReportPage, searchReportLoader } from './routes/search-report.tsx';
import { SearchTuningPage, searchTuningLoader } from './routes/search-tuning.tsx';
import { SignInPage } from './routes/sign-in.tsx';
import { UsersPage, usersLoader } from './routes/users.tsx';
import { translationLoader } from './routes/translation.tsx';
import { TranslationsPage, translationsLoader } from './routes/translations.tsx';

const translationPage = async () => ({
  Component: (await import('./routes/translation-page.tsx')).TranslationPage,
});

/** Loaders of the frame run again only when asked to (after a branding save), not on every move inside. */
const onlyWhenAsked = ({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
  currentUrl.href === nextUrl.href && defaultShouldRevalidate;

/** The admin app, under /admin, rendered in the browser only. */
export const routes: RouteObject[] = [
  { path: '/sign-in', Component: SignInPage },
  {
    id: 'session',
    path: '/',
    loader: sessionLoader,
    shouldRevalidate: onlyWhenAsked,
    Component: Shell,
    HydrateFallback: Loading,
    ErrorBoundary: ShellError,
    children: [
      {
        ErrorBoundary: PageError,
        children: [
          {
            id: 'content',
            loader: adminOnly(contentLoader),
            // The tree keeps its own state once loaded (content-tree-context.tsx).
            shouldRevalidate: () => false,
            Component: ContentLayout,
            children: [
              { index: true, Component: ContentHome },
              {
                path: 'articles/new',
                loader: newArticleLoader,
                lazy: async () => ({ Component: (await import('./routes/article-page.tsx')).NewArticlePage }),
              },
              {
                path: 'articles/:id',
                loader: articleLoader,
                lazy: async () => ({ Component: (await import('./routes/article-page.tsx')).ArticlePage }),
              },
              {
                path: 'categories/:id',
                loader: categoryLoader,
                lazy: async () => ({ Component: (await import('./routes/category-page.tsx')).CategoryPage }),
              },
            ],
          },
          { path: 'requests', loader: requestsLoader, Component: RequestsPage },
          { path: 'requests/:id', loader: requestLoader, Component: RequestPage },
          { path: 'feedback', loader: adminOnly(feedbackLoader), Component: FeedbackPage },
          { path: 'search-report', loader: adminOnly(searchReportLoader), Component: SearchReportPage },
          { path: 'search-tuning', loader: adminOnly(searchTuningLoader), Component: SearchTuningPage },
          { path: 'branding', loader: adminOnly(brandingLoader), Component: BrandingPage },
          { path: 'users', loader: adminOnly(usersLoader), Component: UsersPage },
          {
            path: 'translations',
            loader: adminOnly(translationsLoader),
            Component: TranslationsPage,
            // The language tabs change only the query.
            shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.search !== nextUrl.search,
          },
          {
            path: 'articles/:id/translations/:lang',
            loader: adminOnly(translationLoader('article')),
            lazy: translationPage,
          },
          {
            path: 'categories/:id/translations/:lang',
            loader: adminOnly(translationLoader('category')),
            lazy: translationPage,
          },
          {
            path: 'sections/:id/translations/:lang',
            loader: adminOnly(translationLoader('section')),
            lazy: translationPage,
          },
          { path: '*', Component: AdminNotFound },
        ],
      },
    ],
  },
];
