/** Every URL the product builds, in one table: the server registers these and the client links to them. */
export const BASE_PATH = '/knowledge';
/** Where the admin app lives; its router's basename. */
export const ADMIN_BASE_PATH = '/admin';

export const apiPaths = {
  branding: '/api/settings/branding',
  environments: '/panel/api/v2/system/environments',
  me: '/api/user/me',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  logoutEverywhere: '/api/auth/logout-everywhere',
  signUp: '/api/auth/signup',
  verifyEmail: '/api/auth/verify-email',
  passwordReset: '/api/auth/password-reset',
  newPassword: '/api/auth/new-password',
  acceptInvite: '/api/auth/accept-invite',
  sections: '/api/knowledge/all-sections',
  categories: '/api/knowledge/category',
  instructions: '/api/knowledge/instruction',
  instruction: '/api/knowledge/instruction/:id',
  instructionFeedback: '/api/knowledge/instruction/:id/feedback',
  instructionNearby: '/api/knowledge/instruction/:id/nearby',
  suggestions: '/api/search/knowledge/suggestions',
  searchEvents: '/api/search/events',
  adminSearchReport: '/api/admin/search-report',
  adminFeedback: '/api/admin/feedback',
  adminSynonyms: '/api/admin/synonyms',
  adminSearchLearning: '/api/admin/search-learning',
  openapi: '/api/openapi.json',
  file: '/files/:id/:name',
  upload: '/api/file',
  issueOpen: '/panel/api/issue-open',
  captchaChallenge: '/api/captcha/challenge',
  adminTickets: '/api/admin/tickets',
  adminTicket: '/api/admin/tickets/:id',
  adminTicketMessages: '/api/admin/tickets/:id/messages',
  adminTicketRelated: '/api/admin/tickets/:id/related',
  adminTicketRouting: '/api/admin/ticket-routing',
  adminTeam: '/api/admin/team',
  adminTicketCounts: '/api/admin/ticket-counts',
  portalIssues: '/api/portal/issues',
  portalIssue: '/api/portal/issues/:id',
  portalIssueMessages: '/api/portal/issues/:id/messages',
  portalIssueLinks: '/api/portal/issue-links',
  ticketFile: '/api/ticket-files/:id',
  adminTree: '/api/admin/tree',
  adminSections: '/api/admin/sections',
  adminSection: '/api/admin/sections/:id',
  adminCategories: '/api/admin/categories',
  adminCategory: '/api/admin/categories/:id',
  adminArticles: '/api/admin/articles',
  adminArticle: '/api/admin/articles/:id',
  adminMove: '/api/admin/move',
  adminPreview: '/api/admin/preview',
  adminArticlePreview: '/api/admin/preview/article',
  adminRevisions: '/api/admin/articles/:id/revisions',
  adminRevision: '/api/admin/articles/:id/revisions/:revision',
  adminRevisionRestore: '/api/admin/articles/:id/revisions/:revision/restore',
  adminRevisionDiff: '/api/admin/articles/:id/diff',
  adminFiles: '/api/admin/files',
  adminBranding: '/api/admin/branding',
  adminUsers: '/api/admin/users',
  adminUser: '/api/admin/users/:id',
  adminInvitations: '/api/admin/invitations',
  adminSectionTranslation: '/api/admin/sections/:id/translations/:lang',
  adminSectionTranslationPublished: '/api/admin/sections/:id/translations/:lang/published',
  adminCategoryTranslation: '/api/admin/categories/:id/translations/:lang',
  adminCategoryTranslationPublished: '/api/admin/categories/:id/translations/:lang/published',
  adminArticleTranslation: '/api/admin/articles/:id/translations/:lang',
  adminArticleTranslationPublished: '/api/admin/articles/:id/translations/:lang/published',
  adminTranslationStatus: '/api/admin/translations',
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
} as const;

/**
 * The query parameters each public page reads, by path (a page not named reads none): the server renders and keeps
 * a page by these alone, so any other parameter (utm_source, a client-only megapolName) shares its entry.
 */
export const pageQueryParams: Readonly<Record<string, readonly string[]>> = {
  [`${BASE_PATH}/search`]: ['query', 'page', 'lang'],
};

/** The one parameter every public page and call reads: the language the visitor reads in (`?lang=`). */
export const LANG_PARAM = 'lang';

export const href = {
  instructionApi: (id: number) => `/api/knowledge/instruction/${id}`,
  file: (id: number, name: string) => `/files/${id}/${encodeURIComponent(name)}`,
  ticketFile: (id: number) => `/api/ticket-files/${id}`,
  home: () => `${BASE_PATH}/`,
  category: (id: number) => `${BASE_PATH}/category/${id}`,
  instruction: (id: number) => `${BASE_PATH}/instruction/${id}`,
  search: (query?: string) => `${BASE_PATH}/search${query ? `?query=${encodeURIComponent(query)}` : ''}`,
  notFound: () => `${BASE_PATH}/notFound`,
  /** Any address under the base that names nothing: the not-found page, answered 404. */
  notFoundPage: () => `${BASE_PATH}/404`,
  admin: () => '/admin/',
  /** The customer portal's pages (served by Signpost when PORTAL_URL is unset). */
  portalIssues: () => '/issues',
  portalIssue: (id: number) => `/issues/${id}`,
  portalNewIssue: () => '/issues/create',
  portalProfile: () => '/user/profile',
  portalLogin: () => '/login?from=knowledge_base',
  /** Sign-in that leads on to the visitor's requests (from a mail, not from a help-centre page). */
  portalSignIn: () => '/login',
  portalSignUp: () => '/signup',
  /** The emailed links: the token travels in the fragment, which no server log or Referer header sees. */
  portalVerifyEmail: (token: string) => `/verify-email#${token}`,
  portalNewPassword: (token: string) => `/new-password#${token}`,
  portalAcceptInvite: (token: string) => `/accept-invite#${token}`,
  portalForgotPassword: () => '/forgot-password',
  /** Where a requester without an account asks for new private links to their requests. */
  portalRequestLink: () => '/request-link',
} as const;

/**
 * The customer portal's pages, which this server renders when no external portal is named (PORTAL_URL): the
 * specification's own links (/issues, /issues/create, /user/profile, /login) and the pages of its accounts.
 */
export const portalPagePaths = [
  '/login',
  '/signup',
  '/forgot-password',
  '/request-link',
  '/new-password',
  '/accept-invite',
  '/verify-email',
  '/issues',
  '/issues/create',
  '/issues/:id',
  '/user/profile',
] as const;
export type PortalPagePath = (typeof portalPagePaths)[number];

/** The help centre's main page, with or without its trailing slash. */
export const isHomePath = (pathname: string) => pathname === BASE_PATH || pathname === `${BASE_PATH}/`;
