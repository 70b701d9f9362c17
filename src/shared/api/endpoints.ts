import { Type, type Static, type TSchema } from 'typebox';
import { routes, type Route } from '../routes.ts';
import { ErrorBody, FileLinkQuery, FileParams, Id, OkBody, Paged } from './common.ts';
import {
  AUTH_HEADER,
  AuthUser,
  DeleteMeBody,
  VerifyEmailBody,
  LoginBody,
  LoginResult,
  MailSentResult,
  NewPasswordBody,
  PasswordResetBody,
  SignUpBody,
  UpdateMeBody,
  UpdateMeResult,
} from './auth.ts';
import {
  CategoryList,
  CategoryListQuery,
  InstructionBundle,
  Instruction,
  InstructionListQuery,
  InstructionPage,
  InstructionNearby,
  InstructionParams,
  LangQuery,
  SectionList,
} from './knowledge.ts';
import {
  FeedbackAnswer,
  FeedbackBody,
  FeedbackParams,
  FeedbackReport,
  FeedbackReportQuery,
} from './feedback.ts';
import { Branding, Environments } from './settings.ts';
import { SearchEvent, SearchReport, SearchReportQuery, SuggestionList, SuggestionsQuery } from './search.ts';
import { LearnedList, ResetLearnedQuery, SynonymsBody, SynonymsResponse } from './synonyms.ts';
import {
  AdminArticle,
  AdminCategory,
  AdminFileList,
  AdminSection,
  AdminTree,
  AdminUser,
  AdminUserList,
  ArticleCreateBody,
  ArticleUpdateBody,
  BrandingUpdateBody,
  CategoryCreateBody,
  CategoryUpdateBody,
  DeleteQuery,
  HtmlPreview,
  HtmlPreviewBody,
  ArticlePreview,
  ArticlePreviewBody,
  IdParams,
  MAX_HTML_BYTES,
  MoveBody,
  Revision,
  RevisionDiff,
  RevisionDiffQuery,
  RevisionList,
  RevisionParams,
  SectionCreateBody,
  SectionUpdateBody,
  UserCreateBody,
  InviteBody,
  UserListQuery,
  UserUpdateBody,
} from './admin.ts';
import {
  ArticleTranslationBody,
  ArticleTranslationView,
  CategoryTranslationBody,
  CategoryTranslationView,
  PublishTranslationBody,
  SectionTranslationBody,
  SectionTranslationView,
  TranslationParams,
  TranslationStatus,
  TranslationStatusQuery,
} from './admin-translations.ts';
import {
  CaptchaChallenge,
  IssueOpenBody,
  IssueOpenResult,
  TicketFileParams,
  TicketFileQuery,
  TicketListQuery,
  TicketReplyBody,
  TeamList,
  TicketCounts,
  TicketRouting,
  RelatedTickets,
  TicketUpdateBody,
  TicketView,
  UploadResult,
} from './tickets.ts';
import { ISSUE_FILES_MAX } from '../constants.ts';
import { Health, MetricsHeaders, MetricsText, Readiness } from './operations.ts';
import {
  IssueLinksBody,
  PortalListQuery,
  PortalReplyBody,
  PortalStatusBody,
  PortalTicket,
  PortalTicketParams,
  PortalTicketQuery,
  PortalTicketSummary,
} from './portal.ts';

export type { Role } from '../routes.ts';

/**
 * How often one client may call an endpoint, by the name of its counter. 'issue-open', 'upload', 'search-event',
 * 'feedback' and 'invite' count every call in the hour (their numbers are the server's configuration or fixed) and
 * `route()` applies them; 'sign-in' counts failed guesses only, per address and per account, so its handler applies
 * it around the password check.
 */
export type RateLimit =
  'sign-in' | 'account-mail' | 'invite' | 'issue-open' | 'upload' | 'search-event' | 'reply' | 'feedback';

export interface Endpoint extends Route {
  rateLimit?: RateLimit;
  /**
   * A public endpoint that knows a signed-in caller: a valid token gives the session, a stale one counts as none.
   * 'files': a download, which <img> tags and links call with cookies and no header: the session is the editor's (an
   * admin by the token header or the files cookie, who also sees drafts' files), else the session cookie's, looked up
   * only when the handler asks (a public file asks nobody).
   */
  identifies?: true | 'files';
  summary: string;
  tags: string[];
  querystring?: TSchema;
  params?: TSchema;
  /** 'multipart': files, streamed into storage by the handler as they arrive, never buffered to be validated. */
  body?: TSchema | 'multipart';
  headers?: TSchema;
  /**
   * The success answer; every endpoint also answers ErrorBody for its errors. 'stream': a file's bytes, sent by the
   * handler with its own headers (a download).
   */
  response: TSchema | 'stream';
  status?: number;
  /**
   * A body allowed past the server's 1 MiB: its size in bytes, and the field a refusal names (the one that grows) with
   * the limit that field is held to.
   */
  bodyLimit?: BodyLimit;
}

export interface BodyLimit {
  bytes: number;
  field: string;
  message: string;
}

/** Room for a 1 MiB HTML field and its JSON escaping (a 2 MiB body does not fit), refused naming that field. */
const htmlBody = (field: string): BodyLimit => ({
  bytes: 2 * MAX_HTML_BYTES,
  field,
  message: `must be at most ${MAX_HTML_BYTES} bytes (1 MiB)`,
});

const authHeader = Type.Object({ [AUTH_HEADER]: Type.Optional(Type.String({ maxLength: 512 })) });

/**
 * The HTTP contract, one entry per endpoint (its method, path and role come from src/shared/routes.ts): the server
 * registers every route from it with `route()`, uploads and downloads included, validating input and answer and
 * applying the role and the rate limit; the web client's one `call(name, input)` (src/web/api/call.ts) takes its
 * input and answer types from the same entry, so a call that pairs them wrongly does not compile.
 */
export const endpoints = {
  getBranding: {
    ...routes.getBranding,
    summary: 'Branding of the help centre; its titles in the language asked for (lang)',
    tags: ['settings'],
    querystring: LangQuery,
    response: Branding,
  },
  getEnvironments: {
    ...routes.getEnvironments,
    summary: 'Hosts and captcha settings the web client needs',
    tags: ['settings'],
    response: Environments,
  },
  getMe: {
    ...routes.getMe,
    summary: 'The signed-in user (header x-auth-token)',
    tags: ['auth'],
    headers: authHeader,
    response: AuthUser,
  },
  login: {
    ...routes.login,
    summary: 'Sign in with email and password; returns a token for x-auth-token',
    tags: ['auth'],
    body: LoginBody,
    response: LoginResult,
    rateLimit: 'sign-in',
  },
  logout: {
    ...routes.logout,
    summary: 'Revoke the token sent in x-auth-token',
    tags: ['auth'],
    headers: authHeader,
    response: OkBody,
  },
  logoutEverywhere: {
    ...routes.logoutEverywhere,
    summary: 'Revoke every token of the signed-in user, this one included (sign out of every device)',
    tags: ['auth'],
    headers: authHeader,
    response: OkBody,
  },
  signUp: {
    ...routes.signUp,
    summary:
      'Open a customer account (SIGNUP permitting); answers the same whether or not the email has one, and mails a verification link',
    tags: ['auth'],
    body: SignUpBody,
    response: MailSentResult,
    rateLimit: 'account-mail',
    status: 202,
  },
  verifyEmail: {
    ...routes.verifyEmail,
    summary:
      "Confirm an email with the emailed link's token (a new account, or a changed address) and sign in: in the browser " +
      'that asked for the link as it is; elsewhere with a password chosen now (400 password_needed without one), which ' +
      "replaces the account's and signs out every device",
    tags: ['auth'],
    body: VerifyEmailBody,
    response: LoginResult,
  },
  requestPasswordReset: {
    ...routes.requestPasswordReset,
    summary: 'Mail a link to choose a new password; answers the same whether or not the email has an account',
    tags: ['auth'],
    body: PasswordResetBody,
    response: MailSentResult,
    rateLimit: 'account-mail',
    status: 202,
  },
  setNewPassword: {
    ...routes.setNewPassword,
    summary:
      "Choose a new password with the emailed link's token: signs out every device, clears the account's lockout, signs in",
    tags: ['auth'],
    body: NewPasswordBody,
    response: LoginResult,
  },
  acceptInvite: {
    ...routes.acceptInvite,
    summary:
      "Choose the first password of an invited account with the invitation's token: confirms the email, signs in",
    tags: ['auth'],
    body: NewPasswordBody,
    response: LoginResult,
  },
  updateMe: {
    ...routes.updateMe,
    summary:
      'Change my name, my password (with the current one) or my email (confirmed by a link to the new one)',
    tags: ['auth'],
    headers: authHeader,
    body: UpdateMeBody,
    response: UpdateMeResult,
  },
  deleteMe: {
    ...routes.deleteMe,
    summary: 'Delete my account (with my password); my requests stay with the team, without my name or email',
    tags: ['auth'],
    headers: authHeader,
    body: DeleteMeBody,
    response: OkBody,
  },
  listSections: {
    ...routes.listSections,
    identifies: true,
    summary: 'Sections with something visible in them',
    tags: ['knowledge'],
    querystring: LangQuery,
    response: SectionList,
  },
  listCategories: {
    ...routes.listCategories,
    identifies: true,
    summary:
      'Without parameters: every visible category. With page, per_page, category_parent_id, section_id or query: one page of children.',
    tags: ['knowledge'],
    querystring: CategoryListQuery,
    response: CategoryList,
  },
  listInstructions: {
    ...routes.listInstructions,
    identifies: true,
    summary:
      'Without parameters: every published article, without bodies. With page, per_page, category_id, section_id or query: one page of full articles.',
    tags: ['knowledge'],
    querystring: InstructionListQuery,
    response: Type.Union([InstructionPage, InstructionBundle]),
  },
  getInstruction: {
    ...routes.getInstruction,
    identifies: true,
    summary:
      'One published article with its body and files, in the language asked for (lang) or the best there is',
    tags: ['knowledge'],
    querystring: LangQuery,
    params: InstructionParams,
    response: Instruction,
  },
  getInstructionNearby: {
    ...routes.getInstructionNearby,
    identifies: true,
    summary:
      "What the article page shows around an article: the sidebar's list and the previous and next articles, in the language asked for",
    tags: ['knowledge'],
    querystring: LangQuery,
    params: InstructionParams,
    response: InstructionNearby,
  },
  sendArticleFeedback: {
    ...routes.sendArticleFeedback,
    identifies: true,
    summary:
      "Was this article helpful: yes or no, with an optional reason and comment; sent again the same day, it replaces that visitor's answer (no address is kept)",
    tags: ['knowledge'],
    params: FeedbackParams,
    body: FeedbackBody,
    response: FeedbackAnswer,
    rateLimit: 'feedback',
  },
  getSuggestions: {
    ...routes.getSuggestions,
    identifies: true,
    summary: 'Articles matching the text, title matches first',
    tags: ['search'],
    querystring: SuggestionsQuery,
    response: SuggestionList,
  },
  issueOpen: {
    ...routes.issueOpen,
    summary: 'Send a support request (header x-auth-token when signed in); files are ids from POST /api/file',
    tags: ['requests'],
    headers: authHeader,
    body: IssueOpenBody,
    response: IssueOpenResult,
    identifies: true,
    rateLimit: 'issue-open',
    status: 201,
  },
  uploadRequestFiles: {
    ...routes.uploadRequestFiles,
    summary: 'Upload files for a support request (multipart, file[] entries)',
    tags: ['requests'],
    body: 'multipart',
    response: UploadResult,
    identifies: true,
    rateLimit: 'upload',
  },
  downloadFile: {
    ...routes.downloadFile,
    summary: 'Download a file by id',
    tags: ['files'],
    params: FileParams,
    querystring: FileLinkQuery,
    identifies: 'files',
    response: 'stream',
  },
  downloadTicketFile: {
    ...routes.downloadTicketFile,
    summary: "Download a ticket's file through the signed link sent with the ticket",
    tags: ['requests'],
    params: TicketFileParams,
    querystring: TicketFileQuery,
    response: 'stream',
  },
  getCaptchaChallenge: {
    ...routes.getCaptchaChallenge,
    summary: 'A proof-of-work challenge for the request form (CAPTCHA_PROVIDER=altcha)',
    tags: ['requests'],
    response: CaptchaChallenge,
  },
  listAdminTickets: {
    ...routes.listAdminTickets,
    summary:
      "Support requests, latest activity first, by status and assignee if asked, with their thread and delivery state (the team's x-auth-token)",
    tags: ['admin'],
    headers: authHeader,
    querystring: TicketListQuery,
    response: Paged(TicketView),
  },
  getAdminTicket: {
    ...routes.getAdminTicket,
    summary: "One support request with its files and delivery state (an admin's x-auth-token)",
    tags: ['admin'],
    headers: authHeader,
    params: Type.Object({ id: Id }),
    response: TicketView,
  },
  updateAdminTicket: {
    ...routes.updateAdminTicket,
    summary: 'Change where a request stands (its status, by the allowed moves) and who answers it',
    tags: ['admin'],
    headers: authHeader,
    params: Type.Object({ id: Id }),
    body: TicketUpdateBody,
    response: TicketView,
  },
  replyAdminTicket: {
    ...routes.replyAdminTicket,
    summary:
      'Reply to the requester (mailed to them) or leave an internal note; answers the request as it is now',
    tags: ['admin'],
    headers: authHeader,
    params: Type.Object({ id: Id }),
    body: TicketReplyBody,
    response: TicketView,
  },
  listRelatedTickets: {
    ...routes.listRelatedTickets,
    summary: "The same requester's other requests (by account or email), latest activity first",
    tags: ['admin'],
    headers: authHeader,
    params: Type.Object({ id: Id }),
    response: RelatedTickets,
  },
  listTeam: {
    ...routes.listTeam,
    summary: 'The members of the team (administrators and agents), whom a request can be given to',
    tags: ['admin'],
    headers: authHeader,
    response: TeamList,
  },
  getTicketCounts: {
    ...routes.getTicketCounts,
    summary: 'How many requests stand in each status',
    tags: ['admin'],
    headers: authHeader,
    response: TicketCounts,
  },
  listMyIssues: {
    ...routes.listMyIssues,
    summary: "The signed-in requester's requests, latest activity first",
    tags: ['portal'],
    headers: authHeader,
    querystring: PortalListQuery,
    response: Paged(PortalTicketSummary),
  },
  getMyIssue: {
    ...routes.getMyIssue,
    identifies: true,
    summary: "One of the requester's requests with the conversation (signed in, or the private link's key)",
    tags: ['portal'],
    params: PortalTicketParams,
    querystring: PortalTicketQuery,
    response: PortalTicket,
  },
  replyMyIssue: {
    ...routes.replyMyIssue,
    identifies: true,
    rateLimit: 'reply',
    summary: 'The requester answers the team, with files uploaded first',
    tags: ['portal'],
    params: PortalTicketParams,
    body: PortalReplyBody,
    response: PortalTicket,
  },
  updateMyIssue: {
    ...routes.updateMyIssue,
    identifies: true,
    summary: 'The requester marks the request solved, or reopens it',
    tags: ['portal'],
    params: PortalTicketParams,
    body: PortalStatusBody,
    response: PortalTicket,
  },
  requestIssueLinks: {
    ...routes.requestIssueLinks,
    summary:
      'Mail fresh private links to the requests an email sent without an account; answers the same whatever the email',
    tags: ['portal'],
    body: IssueLinksBody,
    response: MailSentResult,
    rateLimit: 'account-mail',
    status: 202,
  },
  getTicketRouting: {
    ...routes.getTicketRouting,
    summary: 'Whether new support requests reach the team (email, webhook), and how many are kept',
    tags: ['admin'],
    headers: authHeader,
    response: TicketRouting,
  },
  recordSearchEvent: {
    ...routes.recordSearchEvent,
    summary:
      'Record a search the visitor saw, a result they opened, an article suggested under a request form they opened, or a request sent after opening such articles (no personal data is kept)',
    tags: ['search'],
    body: SearchEvent,
    response: OkBody,
    rateLimit: 'search-event',
  },
  getSearchReport: {
    ...routes.getSearchReport,
    summary:
      'Most frequent queries, queries that found nothing or whose results nobody opened, unhelpful articles, requests avoided by suggested articles per week (admins)',
    tags: ['admin'],
    headers: authHeader,
    querystring: SearchReportQuery,
    response: SearchReport,
  },
  getFeedbackReport: {
    ...routes.getFeedbackReport,
    summary: "Articles' yes and no answers, reasons and recent comments, worst first (admins)",
    tags: ['admin'],
    headers: authHeader,
    querystring: FeedbackReportQuery,
    response: FeedbackReport,
  },
  getSynonyms: {
    ...routes.getSynonyms,
    summary: "The synonym sets search applies, per language: the team's, or the shipped ones (admins)",
    tags: ['admin'],
    headers: authHeader,
    response: SynonymsResponse,
  },
  updateSynonyms: {
    ...routes.updateSynonyms,
    summary: 'Replace the synonym sets; every server applies them within the revision interval (admins)',
    tags: ['admin'],
    headers: authHeader,
    body: SynonymsBody,
    response: SynonymsResponse,
  },
  getSearchLearning: {
    ...routes.getSearchLearning,
    summary: 'What search learned from the articles visitors opened, per query, strongest first (admins)',
    tags: ['admin'],
    headers: authHeader,
    querystring: SearchReportQuery,
    response: LearnedList,
  },
  resetSearchLearning: {
    ...routes.resetSearchLearning,
    summary: 'Forget what search learned, for one query or all (admins)',
    tags: ['admin'],
    headers: authHeader,
    querystring: ResetLearnedQuery,
    response: OkBody,
  },
  getAdminTree: {
    ...routes.getAdminTree,
    summary: 'Every section, category and article, drafts included, flat',
    tags: ['admin'],
    headers: authHeader,
    response: AdminTree,
  },
  createSection: {
    ...routes.createSection,
    summary: 'Create a section',
    tags: ['admin'],
    headers: authHeader,
    body: SectionCreateBody,
    response: AdminSection,
    status: 201,
  },
  updateSection: {
    ...routes.updateSection,
    summary: 'Rename a section',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    body: SectionUpdateBody,
    response: AdminSection,
  },
  deleteSection: {
    ...routes.deleteSection,
    summary: 'Delete a section; 409 not_empty unless its content is deleted or moved (query)',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    querystring: DeleteQuery,
    response: OkBody,
  },
  createCategory: {
    ...routes.createCategory,
    bodyLimit: htmlBody('description'),
    summary: 'Create a category in a section or inside another category',
    tags: ['admin'],
    headers: authHeader,
    body: CategoryCreateBody,
    response: AdminCategory,
    status: 201,
  },
  updateCategory: {
    ...routes.updateCategory,
    bodyLimit: htmlBody('description'),
    summary: 'Change a category (description is sanitised HTML)',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    body: CategoryUpdateBody,
    response: AdminCategory,
  },
  deleteCategory: {
    ...routes.deleteCategory,
    summary: 'Delete a category; 409 not_empty unless its content is deleted or moved (query)',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    querystring: DeleteQuery,
    response: OkBody,
  },
  getAdminArticle: {
    ...routes.getAdminArticle,
    summary: 'One article, draft or published, with its body and files',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    response: AdminArticle,
  },
  createArticle: {
    ...routes.createArticle,
    bodyLimit: htmlBody('body_html'),
    summary: 'Create an article (a draft unless published is true); keeps revision 1',
    tags: ['admin'],
    headers: authHeader,
    body: ArticleCreateBody,
    response: AdminArticle,
    status: 201,
  },
  updateArticle: {
    ...routes.updateArticle,
    bodyLimit: htmlBody('body_html'),
    summary: 'Save an article (edit, publish, unpublish); every save keeps a revision',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    body: ArticleUpdateBody,
    response: AdminArticle,
  },
  deleteArticle: {
    ...routes.deleteArticle,
    summary: 'Delete an article and its revisions',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    response: OkBody,
  },
  moveItem: {
    ...routes.moveItem,
    summary: 'Move or reorder a section, category or article',
    tags: ['admin'],
    headers: authHeader,
    body: MoveBody,
    response: AdminTree,
  },
  listRevisions: {
    ...routes.listRevisions,
    summary: "An article's revisions, newest first",
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    response: RevisionList,
  },
  getRevision: {
    ...routes.getRevision,
    summary: 'One revision with its body',
    tags: ['admin'],
    headers: authHeader,
    params: RevisionParams,
    response: Revision,
  },
  diffRevisions: {
    ...routes.diffRevisions,
    summary: 'What changed between two revisions of an article',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    querystring: RevisionDiffQuery,
    response: RevisionDiff,
  },
  previewHtml: {
    ...routes.previewHtml,
    bodyLimit: htmlBody('html'),
    summary: 'HTML as a save would store it, cleaned by the same rules: what the editor previews',
    tags: ['admin'],
    headers: authHeader,
    body: HtmlPreviewBody,
    response: HtmlPreview,
  },
  previewArticle: {
    ...routes.previewArticle,
    bodyLimit: htmlBody('body_html'),
    summary: 'An article, saved or not, drawn as its public page would be once published; nothing is stored',
    tags: ['admin'],
    headers: authHeader,
    body: ArticlePreviewBody,
    response: ArticlePreview,
  },
  restoreRevision: {
    ...routes.restoreRevision,
    summary: 'Make an older revision the current one, as a new revision',
    tags: ['admin'],
    headers: authHeader,
    params: RevisionParams,
    response: AdminArticle,
  },
  uploadContentFiles: {
    ...routes.uploadContentFiles,
    summary: `Upload content files (multipart \`file\` parts, up to ${ISSUE_FILES_MAX}, 25 MB each; admins)`,
    tags: ['admin'],
    body: 'multipart',
    response: AdminFileList,
    status: 201,
  },
  getAdminBranding: {
    ...routes.getAdminBranding,
    summary: 'Branding as the public site reads it',
    tags: ['admin'],
    headers: authHeader,
    response: Branding,
  },
  updateBranding: {
    ...routes.updateBranding,
    summary: 'Change the branding; the public site follows at once',
    tags: ['admin'],
    headers: authHeader,
    body: BrandingUpdateBody,
    response: Branding,
  },
  listUsers: {
    ...routes.listUsers,
    summary: 'The team (admins and agents) or the customers, a page at a time',
    tags: ['admin'],
    headers: authHeader,
    querystring: UserListQuery,
    response: AdminUserList,
  },
  createUser: {
    ...routes.createUser,
    summary: 'Add a user: an admin, an agent or a customer',
    tags: ['admin'],
    headers: authHeader,
    body: UserCreateBody,
    response: AdminUser,
    status: 201,
  },
  updateUser: {
    ...routes.updateUser,
    summary: 'Rename a user, set a password or the admin flag',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    body: UserUpdateBody,
    response: AdminUser,
  },
  deleteUser: {
    ...routes.deleteUser,
    summary: 'Delete a user and sign them out everywhere',
    tags: ['admin'],
    headers: authHeader,
    params: IdParams,
    response: OkBody,
  },
  inviteCustomer: {
    ...routes.inviteCustomer,
    summary:
      'Invite a customer by email: makes the account (or, for one not yet accepted, sends a fresh link) and mails a link to choose a password',
    tags: ['admin'],
    headers: authHeader,
    body: InviteBody,
    response: AdminUser,
    rateLimit: 'invite',
  },
  getSectionTranslation: {
    ...routes.getSectionTranslation,
    summary: "A section's translation into one language, with its source's current text and changes since",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: SectionTranslationView,
  },
  saveSectionTranslation: {
    ...routes.saveSectionTranslation,
    summary: "Save a section's translation (made when new); records the source it was made from",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: SectionTranslationBody,
    response: SectionTranslationView,
  },
  deleteSectionTranslation: {
    ...routes.deleteSectionTranslation,
    summary: "Delete a section's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: OkBody,
  },
  publishSectionTranslation: {
    ...routes.publishSectionTranslation,
    summary: "Publish or unpublish a section's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: PublishTranslationBody,
    response: SectionTranslationView,
  },
  getCategoryTranslation: {
    ...routes.getCategoryTranslation,
    summary: "A category's translation into one language, with its source's current text and changes since",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: CategoryTranslationView,
  },
  saveCategoryTranslation: {
    ...routes.saveCategoryTranslation,
    bodyLimit: htmlBody('description'),
    summary: "Save a category's translation (made when new); records the source it was made from",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: CategoryTranslationBody,
    response: CategoryTranslationView,
  },
  deleteCategoryTranslation: {
    ...routes.deleteCategoryTranslation,
    summary: "Delete a category's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: OkBody,
  },
  publishCategoryTranslation: {
    ...routes.publishCategoryTranslation,
    summary: "Publish or unpublish a category's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: PublishTranslationBody,
    response: CategoryTranslationView,
  },
  getArticleTranslation: {
    ...routes.getArticleTranslation,
    summary: "A article's translation into one language, with its source's current text and changes since",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: ArticleTranslationView,
  },
  saveArticleTranslation: {
    ...routes.saveArticleTranslation,
    bodyLimit: htmlBody('body_html'),
    summary: "Save a article's translation (made when new); records the source it was made from",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: ArticleTranslationBody,
    response: ArticleTranslationView,
  },
  deleteArticleTranslation: {
    ...routes.deleteArticleTranslation,
    summary: "Delete a article's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    response: OkBody,
  },
  publishArticleTranslation: {
    ...routes.publishArticleTranslation,
    summary: "Publish or unpublish a article's translation",
    tags: ['admin'],
    headers: authHeader,
    params: TranslationParams,
    body: PublishTranslationBody,
    response: ArticleTranslationView,
  },
  getTranslationStatus: {
    ...routes.getTranslationStatus,
    summary: 'Per language, how many items are missing, outdated or unpublished, and which for one language',
    tags: ['admin'],
    headers: authHeader,
    querystring: TranslationStatusQuery,
    response: TranslationStatus,
  },
  getHealth: {
    ...routes.getHealth,
    summary: 'The process is alive (no database access)',
    tags: ['operations'],
    response: Health,
  },
  getReadiness: {
    ...routes.getReadiness,
    summary:
      'Ready for traffic: database reachable, migrations current, search index built; else 503 naming the check',
    tags: ['operations'],
    response: Readiness,
  },
  getMetrics: {
    ...routes.getMetrics,
    summary:
      'Prometheus metrics (text): with METRICS_TOKEN set, needs Authorization: Bearer <token>; without, answers only a loopback connection carrying no relay header such as X-Forwarded-For (METRICS_PUBLIC=true: anyone)',
    tags: ['operations'],
    headers: MetricsHeaders,
    response: MetricsText,
  },
} as const satisfies { [K in keyof typeof routes]: Endpoint };

export { ErrorBody };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

type StaticOf<T> = T extends TSchema ? Static<T> : never;

/** A part the caller must give when its schema requires something, may leave out when not, and cannot give else. */
type Part<Name extends string, S> = [S] extends ['multipart']
  ? { [K in Name]: FormData }
  : [S] extends [TSchema]
    ? object extends Static<S>
      ? { [K in Name]?: Static<S> }
      : { [K in Name]: Static<S> }
    : { [K in Name]?: never };

/** What a call of an endpoint takes, from its own entry: path params, query and body (the client's `call`). */
export type EndpointInput<K extends EndpointName> = Part<'params', SchemaOf<Endpoints[K], 'params'>> &
  Part<'query', SchemaOf<Endpoints[K], 'querystring'>> &
  Part<'body', SchemaOf<Endpoints[K], 'body'>>;

type SchemaOf<E, Key extends string> = E extends { [K in Key]: infer S } ? S : undefined;

/** What a call of an endpoint answers when it succeeds. */
export type EndpointOutput<K extends EndpointName> = StaticOf<Endpoints[K]['response']>;
