import { Type, type TSchema } from 'typebox';
import { apiPaths } from '../paths.ts';
import { ErrorBody, Id, OkBody, Paged } from './common.ts';
import { AUTH_HEADER, AuthUser, LoginBody, LoginResult } from './auth.ts';
import {
  CategoryList,
  CategoryListQuery,
  InstructionBundle,
  Instruction,
  InstructionListQuery,
  InstructionPage,
  InstructionParams,
  SectionList,
} from './knowledge.ts';
import { Branding, Environments } from './settings.ts';
import { SearchEvent, SearchReport, SearchReportQuery, SuggestionList, SuggestionsQuery } from './search.ts';
import { CaptchaChallenge, IssueOpenBody, IssueOpenResult, TicketListQuery, TicketView } from './tickets.ts';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  tags: string[];
  querystring?: TSchema;
  params?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  /** The success answer; every endpoint also answers ErrorBody for its errors. */
  response: TSchema;
  status?: number;
}

const authHeader = Type.Object({ [AUTH_HEADER]: Type.Optional(Type.String({ maxLength: 512 })) });

/** The HTTP contract: the server registers and validates every route from this table; the client infers its types. */
export const endpoints = {
  getBranding: {
    method: 'GET',
    path: apiPaths.branding,
    summary: 'Branding of the help centre',
    tags: ['settings'],
    response: Branding,
  },
  getEnvironments: {
    method: 'GET',
    path: apiPaths.environments,
    summary: 'Hosts and captcha settings the web client needs',
    tags: ['settings'],
    response: Environments,
  },
  getMe: {
    method: 'GET',
    path: apiPaths.me,
    summary: 'The signed-in user (header x-auth-token)',
    tags: ['auth'],
    headers: authHeader,
    response: AuthUser,
  },
  login: {
    method: 'POST',
    path: apiPaths.login,
    summary: 'Sign in with email and password; returns a token for x-auth-token',
    tags: ['auth'],
    body: LoginBody,
    response: LoginResult,
  },
  logout: {
    method: 'POST',
    path: apiPaths.logout,
    summary: 'Revoke the token sent in x-auth-token',
    tags: ['auth'],
    headers: authHeader,
    response: OkBody,
  },
  listSections: {
    method: 'GET',
    path: apiPaths.sections,
    summary: 'Sections with something visible in them',
    tags: ['knowledge'],
    response: SectionList,
  },
  listCategories: {
    method: 'GET',
    path: apiPaths.categories,
    summary:
      'Without parameters: every visible category. With page, per_page, category_parent_id, section_id or query: one page of children.',
    tags: ['knowledge'],
    querystring: CategoryListQuery,
    response: CategoryList,
  },
  listInstructions: {
    method: 'GET',
    path: apiPaths.instructions,
    summary:
      'Without parameters: every published article, without bodies. With page, per_page, category_id, section_id or query: one page of full articles.',
    tags: ['knowledge'],
    querystring: InstructionListQuery,
    response: Type.Union([InstructionPage, InstructionBundle]),
  },
  getInstruction: {
    method: 'GET',
    path: apiPaths.instruction,
    summary: 'One published article with its body and files',
    tags: ['knowledge'],
    params: InstructionParams,
    response: Instruction,
  },
  getSuggestions: {
    method: 'GET',
    path: apiPaths.suggestions,
    summary: 'Articles matching the text, title matches first',
    tags: ['search'],
    querystring: SuggestionsQuery,
    response: SuggestionList,
  },
  issueOpen: {
    method: 'POST',
    path: apiPaths.issueOpen,
    summary: 'Send a support request (header x-auth-token when signed in); files are ids from POST /api/file',
    tags: ['requests'],
    headers: authHeader,
    body: IssueOpenBody,
    response: IssueOpenResult,
    status: 201,
  },
  getCaptchaChallenge: {
    method: 'GET',
    path: apiPaths.captchaChallenge,
    summary: 'A proof-of-work challenge for the request form (CAPTCHA_PROVIDER=altcha)',
    tags: ['requests'],
    response: CaptchaChallenge,
  },
  listAdminTickets: {
    method: 'GET',
    path: apiPaths.adminTickets,
    summary: "Support requests, newest first, with their files and delivery state (an admin's x-auth-token)",
    tags: ['admin'],
    headers: authHeader,
    querystring: TicketListQuery,
    response: Paged(TicketView),
  },
  getAdminTicket: {
    method: 'GET',
    path: apiPaths.adminTicket,
    summary: "One support request with its files and delivery state (an admin's x-auth-token)",
    tags: ['admin'],
    headers: authHeader,
    params: Type.Object({ id: Id }),
    response: TicketView,
  },
  recordSearchEvent: {
    method: 'POST',
    path: apiPaths.searchEvents,
    summary: 'Record a search the visitor saw, or a result they opened (no personal data is kept)',
    tags: ['search'],
    body: SearchEvent,
    response: OkBody,
  },
  getSearchReport: {
    method: 'GET',
    path: apiPaths.adminSearchReport,
    summary: 'Most frequent queries and queries that found nothing (admins)',
    tags: ['admin'],
    headers: authHeader,
    querystring: SearchReportQuery,
    response: SearchReport,
  },
} as const satisfies Record<string, Endpoint>;

export { ErrorBody };
