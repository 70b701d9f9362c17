import { apiPaths } from './paths.ts';

/**
 * Who may call an endpoint: anyone; any signed-in user (401 without a valid token); or an administrator (401, then
 * 403 for anyone else). The server's `route()` applies it before the handler runs. Agents arrive with the support
 * desk.
 */
export type Role = 'public' | 'customer' | 'agent' | 'admin';

/** Where an endpoint answers and who may call it. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  role: Role;
}

/**
 * The address half of the endpoint table (src/shared/api/endpoints.ts adds the schemas to each entry): plain data,
 * so the browser's one `call` reads the method and path from here without the schema library.
 */
export const routes = {
  getBranding: { method: 'GET', path: apiPaths.branding, role: 'public' },
  getEnvironments: { method: 'GET', path: apiPaths.environments, role: 'public' },
  getMe: { method: 'GET', path: apiPaths.me, role: 'customer' },
  login: { method: 'POST', path: apiPaths.login, role: 'public' },
  logout: { method: 'POST', path: apiPaths.logout, role: 'customer' },
  logoutEverywhere: { method: 'POST', path: apiPaths.logoutEverywhere, role: 'customer' },
  signUp: { method: 'POST', path: apiPaths.signUp, role: 'public' },
  verifyEmail: { method: 'POST', path: apiPaths.verifyEmail, role: 'public' },
  requestPasswordReset: { method: 'POST', path: apiPaths.passwordReset, role: 'public' },
  setNewPassword: { method: 'POST', path: apiPaths.newPassword, role: 'public' },
  acceptInvite: { method: 'POST', path: apiPaths.acceptInvite, role: 'public' },
  updateMe: { method: 'PATCH', path: apiPaths.me, role: 'customer' },
  deleteMe: { method: 'DELETE', path: apiPaths.me, role: 'customer' },
  listSections: { method: 'GET', path: apiPaths.sections, role: 'public' },
  listCategories: { method: 'GET', path: apiPaths.categories, role: 'public' },
  listInstructions: { method: 'GET', path: apiPaths.instructions, role: 'public' },
  getInstruction: { method: 'GET', path: apiPaths.instruction, role: 'public' },
  getInstructionNearby: { method: 'GET', path: apiPaths.instructionNearby, role: 'public' },
  sendArticleFeedback: { method: 'POST', path: apiPaths.instructionFeedback, role: 'public' },
  getSuggestions: { method: 'GET', path: apiPaths.suggestions, role: 'public' },
  issueOpen: { method: 'POST', path: apiPaths.issueOpen, role: 'public' },
  uploadRequestFiles: { method: 'POST', path: apiPaths.upload, role: 'public' },
  downloadFile: { method: 'GET', path: apiPaths.file, role: 'public' },
  downloadTicketFile: { method: 'GET', path: apiPaths.ticketFile, role: 'public' },
  getCaptchaChallenge: { method: 'GET', path: apiPaths.captchaChallenge, role: 'public' },
  listAdminTickets: { method: 'GET', path: apiPaths.adminTickets, role: 'agent' },
  getAdminTicket: { method: 'GET', path: apiPaths.adminTicket, role: 'agent' },
  getTicketRouting: { method: 'GET', path: apiPaths.adminTicketRouting, role: 'agent' },
  updateAdminTicket: { method: 'PATCH', path: apiPaths.adminTicket, role: 'agent' },
  replyAdminTicket: { method: 'POST', path: apiPaths.adminTicketMessages, role: 'agent' },
  listRelatedTickets: { method: 'GET', path: apiPaths.adminTicketRelated, role: 'agent' },
  listTeam: { method: 'GET', path: apiPaths.adminTeam, role: 'agent' },
  getTicketCounts: { method: 'GET', path: apiPaths.adminTicketCounts, role: 'agent' },
  listMyIssues: { method: 'GET', path: apiPaths.portalIssues, role: 'customer' },
  getMyIssue: { method: 'GET', path: apiPaths.portalIssue, role: 'public' },
  replyMyIssue: { method: 'POST', path: apiPaths.portalIssueMessages, role: 'public' },
  updateMyIssue: { method: 'PATCH', path: apiPaths.portalIssue, role: 'public' },
  requestIssueLinks: { method: 'POST', path: apiPaths.portalIssueLinks, role: 'public' },
  recordSearchEvent: { method: 'POST', path: apiPaths.searchEvents, role: 'public' },
  getSearchReport: { method: 'GET', path: apiPaths.adminSearchReport, role: 'admin' },
  getFeedbackReport: { method: 'GET', path: apiPaths.adminFeedback, role: 'admin' },
  getSynonyms: { method: 'GET', path: apiPaths.adminSynonyms, role: 'admin' },
  updateSynonyms: { method: 'PUT', path: apiPaths.adminSynonyms, role: 'admin' },
  getSearchLearning: { method: 'GET', path: apiPaths.adminSearchLearning, role: 'admin' },
  resetSearchLearning: { method: 'DELETE', path: apiPaths.adminSearchLearning, role: 'admin' },
  getAdminTree: { method: 'GET', path: apiPaths.adminTree, role: 'admin' },
  createSection: { method: 'POST', path: apiPaths.adminSections, role: 'admin' },
  updateSection: { method: 'PATCH', path: apiPaths.adminSection, role: 'admin' },
  deleteSection: { method: 'DELETE', path: apiPaths.adminSection, role: 'admin' },
  createCategory: { method: 'POST', path: apiPaths.adminCategories, role: 'admin' },
  updateCategory: { method: 'PATCH', path: apiPaths.adminCategory, role: 'admin' },
  deleteCategory: { method: 'DELETE', path: apiPaths.adminCategory, role: 'admin' },
  getAdminArticle: { method: 'GET', path: apiPaths.adminArticle, role: 'admin' },
  createArticle: { method: 'POST', path: apiPaths.adminArticles, role: 'admin' },
  updateArticle: { method: 'PATCH', path: apiPaths.adminArticle, role: 'admin' },
  deleteArticle: { method: 'DELETE', path: apiPaths.adminArticle, role: 'admin' },
  moveItem: { method: 'POST', path: apiPaths.adminMove, role: 'admin' },
  listRevisions: { method: 'GET', path: apiPaths.adminRevisions, role: 'admin' },
  getRevision: { method: 'GET', path: apiPaths.adminRevision, role: 'admin' },
  diffRevisions: { method: 'GET', path: apiPaths.adminRevisionDiff, role: 'admin' },
  previewHtml: { method: 'POST', path: apiPaths.adminPreview, role: 'admin' },
  previewArticle: { method: 'POST', path: apiPaths.adminArticlePreview, role: 'admin' },
  restoreRevision: { method: 'POST', path: apiPaths.adminRevisionRestore, role: 'admin' },
  uploadContentFiles: { method: 'POST', path: apiPaths.adminFiles, role: 'admin' },
  getAdminBranding: { method: 'GET', path: apiPaths.adminBranding, role: 'admin' },
  updateBranding: { method: 'PATCH', path: apiPaths.adminBranding, role: 'admin' },
  listUsers: { method: 'GET', path: apiPaths.adminUsers, role: 'admin' },
  createUser: { method: 'POST', path: apiPaths.adminUsers, role: 'admin' },
  updateUser: { method: 'PATCH', path: apiPaths.adminUser, role: 'admin' },
  deleteUser: { method: 'DELETE', path: apiPaths.adminUser, role: 'admin' },
  inviteCustomer: { method: 'POST', path: apiPaths.adminInvitations, role: 'admin' },
  getSectionTranslation: { method: 'GET', path: apiPaths.adminSectionTranslation, role: 'admin' },
  saveSectionTranslation: { method: 'PUT', path: apiPaths.adminSectionTranslation, role: 'admin' },
  deleteSectionTranslation: { method: 'DELETE', path: apiPaths.adminSectionTranslation, role: 'admin' },
  publishSectionTranslation: {
    method: 'PUT',
    path: apiPaths.adminSectionTranslationPublished,
    role: 'admin',
  },
  getCategoryTranslation: { method: 'GET', path: apiPaths.adminCategoryTranslation, role: 'admin' },
  saveCategoryTranslation: { method: 'PUT', path: apiPaths.adminCategoryTranslation, role: 'admin' },
  deleteCategoryTranslation: { method: 'DELETE', path: apiPaths.adminCategoryTranslation, role: 'admin' },
  publishCategoryTranslation: {
    method: 'PUT',
    path: apiPaths.adminCategoryTranslationPublished,
    role: 'admin',
  },
  getArticleTranslation: { method: 'GET', path: apiPaths.adminArticleTranslation, role: 'admin' },
  saveArticleTranslation: { method: 'PUT', path: apiPaths.adminArticleTranslation, role: 'admin' },
  deleteArticleTranslation: { method: 'DELETE', path: apiPaths.adminArticleTranslation, role: 'admin' },
  publishArticleTranslation: {
    method: 'PUT',
    path: apiPaths.adminArticleTranslationPublished,
    role: 'admin',
  },
  getTranslationStatus: { method: 'GET', path: apiPaths.adminTranslationStatus, role: 'admin' },
  getHealth: { method: 'GET', path: apiPaths.healthz, role: 'public' },
  getReadiness: { method: 'GET', path: apiPaths.readyz, role: 'public' },
  getMetrics: { method: 'GET', path: apiPaths.metrics, role: 'public' },
} as const satisfies Record<string, Route>;
