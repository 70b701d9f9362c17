import crypto from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_HEADER, SESSION_COOKIE } from '../../shared/constants.ts';
import { portalPagePaths } from '../../shared/paths.ts';
import { routes } from '../../shared/routes.ts';
import type { AppContext } from '../context.ts';
import type { Dialect } from '../db/schema-helpers.ts';
import type { UserRow } from '../db/tables.ts';
import { saveTicketLink, signFileLink, VISITOR_COOKIE } from '../tickets/index.ts';
import { makeLinkToken } from '../accounts/account-links.ts';
import { findUser, updateAccount } from '../accounts/users.repository.ts';
import { bindingOf, FLOW_COOKIE } from '../features/auth/flow-cookie.ts';
import {
  buildArticle,
  buildArticleTranslation,
  buildCategory,
  buildFile,
  buildSection,
  buildUser,
  DEFAULT_PASSWORD,
  hiddenTranslations,
} from '../testing/factories.ts';
import { BOUNDARY, multipartBody, type FilePart } from '../testing/hostile-values.ts';
import { startMailServer } from '../testing/mail-server.ts';
import { sendRaw, type RawResponse } from '../testing/raw-http.ts';
import { buildTicket, issueOpenBody } from '../testing/ticket-fixtures.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';

/**
 * Who may do what: every route the app registers, each entry of the endpoint table (src/shared/routes.ts) and each
 * route outside it (pages, files, feeds, operations), called over a real socket as every kind of caller, with input
 * that is otherwise valid, so the answer is the access decision's. An allowed call answers 2xx or 3xx (or a status
 * its case names as coming from inside the handler); a refused one answers exactly the rule's status, writes
 * nothing, and carries nothing of what it may not see. Every write is sent with a session cookie alone too. Content
 * for signed-in visitors is walked once per kind of reader (lists, search, pages, the sitemap), and what ends a
 * session is seen to end it.
 *
 * A route with no rule fails the suite by name, and so does a rule whose route is gone. To add one: give RULES an
 * entry keyed by the endpoint's name in src/shared/routes.ts (or "METHOD /path" as Fastify registers a route outside
 * the table) with the outcome for each caller (`everyone`, `signedIn`, `team`, `adminOnly`, or one spelled out),
 * the input that reaches the handler (`input`, called afresh for each caller, so a delete has something to delete
 * each time), and what only some callers may read in the answer (`shows`). A call that ends a session takes one
 * of its own (`session: 'fresh'`, or 'twin' for a new account of the caller's role).
 */

const CALLERS = ['anonymous', 'visitor', 'customerA', 'customerB', 'agent', 'admin'] as const;
/**
 * anonymous: no cookie, no token. visitor: the cookie a browser gets with its first upload, here the browser that
 * sent the anonymous request. customerA owns the fixture's request and upload; customerB is another customer. The
 * signed-in send the token and the session cookie, as the browser does.
 */
type Caller = (typeof CALLERS)[number];
type SignedIn = Exclude<Caller, 'anonymous' | 'visitor'>;
const SIGNED_IN: readonly SignedIn[] = ['customerA', 'customerB', 'agent', 'admin'];

/**
 * Every write is also sent with the session cookie alone, as another site's form could make a browser send it: it
 * counts on reads and on signing out (which a page rendered by it must offer), so such a write is anonymous's.
 */
const COOKIE_CALLERS: readonly SignedIn[] = ['customerA', 'admin'];
const COOKIE_WRITES = new Set(['logout', 'logoutEverywhere']);
interface Who {
  caller: Caller;
  cookieOnly?: boolean;
}
const nameOf = (who: Who) => (who.cookieOnly ? `${who.caller} by the session cookie alone` : who.caller);

/**
 * 'ok': the handler ran and answered (2xx, 3xx or a status in `reached`). A number: refused with exactly that (302: a
 * page sent to the not-found page; 400 or 422: the field naming what the caller may not use).
 */
type Outcome = 'ok' | 302 | 400 | 401 | 403 | 404 | 422;
type Expect = Record<Caller, Outcome>;

const outcomes = (anonymous: Outcome, customer: Outcome, agent: Outcome, admin: Outcome): Expect => ({
  anonymous,
  visitor: anonymous,
  customerA: customer,
  customerB: customer,
  agent,
  admin,
});
const everyone = outcomes('ok', 'ok', 'ok', 'ok');
const signedIn = outcomes(401, 'ok', 'ok', 'ok');
const team = outcomes(401, 403, 'ok', 'ok');
const adminOnly = outcomes(401, 403, 403, 'ok');
/** What customer A alone may reach: anyone else learns only that nothing is there. */
const ownerA: Expect = { ...outcomes(404, 404, 404, 404), customerA: 'ok' };
/** Content for signed-in visitors: a prompt to sign in for everyone else. */
const readers = outcomes(401, 'ok', 'ok', 'ok');
const nobody = outcomes(404, 404, 404, 404);
/** An anonymous request: the browser that sent it alone, by what sending it gave (see Fixture.sentTicket). */
const fromSender: Expect = { ...nobody, visitor: 'ok' };
const senderKey = (fx: Fixture, caller: Caller): { key?: string } =>
  caller === 'visitor' && fx.sentTicket.senderKey ? { key: fx.sentTicket.senderKey } : {};

interface Input {
  /** The path template when it is not the route's own (a page under a wildcard route). */
  path?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  multipart?: FilePart[];
  /** For a call that ends a session: a new sign-in of the caller's account, or of a new account of their role. */
  session?: 'fresh' | 'twin';
}

interface Case {
  label?: string;
  expect: Expect;
  input?: (fx: Fixture, caller: Caller) => Input | Promise<Input>;
  /** Statuses an allowed call answers from inside the handler (an input it refuses on its own terms). */
  reached?: number[];
  /**
   * Text only these callers' answers carry; every other answer (allowed or refused) must not. `optional`: theirs
   * may carry it or not (a page that loads it in the browser).
   */
  shows?: { text: (fx: Fixture) => string; to: readonly Caller[]; optional?: true }[];
}

interface Fixture {
  ctx: AppContext;
  users: Record<SignedIn, UserRow>;
  sectionId: number;
  categoryId: number;
  articleId: number;
  draftId: number;
  movableId: number;
  revisionIds: number[];
  file: { id: number; name: string };
  draftFile: { id: number; name: string };
  restricted: {
    articleId: number;
    categoryId: number;
    sectionId: number;
    file: { id: number; name: string };
  };
  ticketA: { id: number; title: string; description: string; note: string; uploadId: number };
  ticketFileLink: { id: number; expires: string; signature: string };
  /** An anonymous request and its private link's key, as mailed to its address. */
  linkedTicket: { id: number; description: string; key: string };
  /**
   * The request the visitor sent: their browser follows it by what sending it gave, the link's key in the answer
   * (`senderKey`) or a cookie (in `visitorCookies`).
   */
  sentTicket: { id: number; description: string; senderKey: string | undefined };
  /** What the visitor's browser was given: the upload cookie, and whatever sending the request set. */
  visitorCookies: string[];
  loginEmail: string;
  /** A new upload of customer A's or of the visitor's (through the upload call), not yet in a request. */
  uploadOf(caller: 'customerA' | 'visitor'): Promise<number>;
  /** A new request of customer A's, or an anonymous one with its key. */
  freshTicket(owner: 'customerA' | 'anonymous'): Promise<{ id: number; key: string }>;
}

let n = 0;
const next = () => ++n;
const articleParams = (fx: Fixture) => ({ params: { id: fx.articleId } });

/**
 * The rule of every route: keyed by the endpoint's name for the table's routes, by "METHOD /path" for the others.
 * Ids come from the fixture; writes that would spend what they change get a fresh row from their input.
 */
const RULES: Record<string, Case | Case[]> = {
  getBranding: { expect: everyone },
  getEnvironments: { expect: everyone },
  getMe: {
    expect: signedIn,
    shows: [{ text: (fx) => fx.users.customerA.email, to: ['customerA'] }],
  },
  login: {
    expect: everyone,
    input: (fx) => ({ body: { email: fx.loginEmail, password: DEFAULT_PASSWORD } }),
  },
  logout: { expect: signedIn, input: () => ({ session: 'fresh' }) },
  // Ends every session of the account: a new account of the caller's role, so the suite's own live on.
  logoutEverywhere: { expect: signedIn, input: () => ({ session: 'twin' }) },
  signUp: {
    expect: everyone,
    input: () => ({
      body: { name: `New ${next()}`, email: `signup-${n}@example.com`, password: 'long enough password' },
    }),
  },
  // A link that is not one: the handler's own 400, whoever sends it.
  verifyEmail: { expect: everyone, reached: [400], input: () => ({ body: { token: 'not.a-link' } }) },
  requestPasswordReset: {
    expect: everyone,
    input: () => ({ body: { email: `reset-${next()}@example.com` } }),
  },
  setNewPassword: {
    expect: everyone,
    reached: [400],
    input: () => ({ body: { token: 'not.a-link', password: 'long enough password' } }),
  },
  acceptInvite: {
    expect: everyone,
    reached: [400],
    input: () => ({ body: { token: 'not.a-link', password: 'long enough password' } }),
  },
  updateMe: { expect: signedIn, input: () => ({ body: { name: `Renamed ${next()}` } }) },
  // A team member's account is removed by an administrator, on the Users page.
  deleteMe: {
    expect: outcomes(401, 'ok', 403, 403),
    input: () => ({ session: 'twin', body: { password: DEFAULT_PASSWORD } }),
  },

  listSections: { expect: everyone },
  listCategories: [
    { expect: everyone, input: (fx) => ({ query: { section_id: fx.sectionId } }) },
    {
      label: 'in a category for signed-in visitors',
      expect: readers,
      input: (fx) => ({ query: { category_parent_id: fx.restricted.categoryId, page: 1, per_page: 10 } }),
    },
  ],
  listInstructions: [
    { expect: everyone, input: (fx) => ({ query: { category_id: fx.categoryId, page: 1, per_page: 10 } }) },
    {
      label: 'in a category for signed-in visitors',
      expect: readers,
      input: (fx) => ({ query: { category_id: fx.restricted.categoryId, page: 1, per_page: 10 } }),
    },
  ],
  getInstruction: [
    { expect: everyone, input: (fx) => ({ params: { id: fx.articleId } }) },
    {
      label: 'for signed-in visitors',
      expect: readers,
      input: (fx) => ({ params: { id: fx.restricted.articleId } }),
      shows: [{ text: () => 'quokka', to: SIGNED_IN }],
    },
    // The public API shows published articles only, to the team too (the admin API has drafts).
    { label: 'a draft', expect: nobody, input: (fx) => ({ params: { id: fx.draftId } }) },
  ],
  getInstructionNearby: [
    { expect: everyone, input: (fx) => ({ params: { id: fx.articleId } }) },
    {
      label: 'for signed-in visitors',
      expect: readers,
      input: (fx) => ({ params: { id: fx.restricted.articleId } }),
    },
    { label: 'a draft', expect: nobody, input: (fx) => ({ params: { id: fx.draftId } }) },
  ],
  sendArticleFeedback: [
    {
      expect: everyone,
      input: (fx) => ({ params: { id: fx.articleId }, body: { helpful: true } }),
    },
    {
      label: 'on an article for signed-in visitors',
      expect: readers,
      input: (fx) => ({ params: { id: fx.restricted.articleId }, body: { helpful: true } }),
    },
    {
      label: 'on a draft',
      expect: nobody,
      input: (fx) => ({ params: { id: fx.draftId }, body: { helpful: true } }),
    },
  ],
  getSuggestions: { expect: everyone, input: () => ({ query: { text: 'wifi', limit: 5, perPage: 5 } }) },
  issueOpen: [
    { expect: everyone, input: () => ({ body: issueOpenBody({ title: `Help ${next()}` }) }) },
    {
      label: "attaching customer A's upload",
      expect: { ...outcomes(422, 422, 422, 422), customerA: 'ok' },
      input: async (fx) => ({ body: issueOpenBody({ files: [await fx.uploadOf('customerA')] }) }),
    },
    {
      label: "attaching the visitor's upload",
      expect: { ...outcomes(422, 422, 422, 422), visitor: 'ok' },
      input: async (fx) => ({ body: issueOpenBody({ files: [await fx.uploadOf('visitor')] }) }),
    },
  ],
  uploadRequestFiles: {
    expect: everyone,
    input: () => ({
      multipart: [{ name: 'file[]', filename: `note-${next()}.txt`, type: 'text/plain', content: 'hello' }],
    }),
  },
  downloadFile: [
    { expect: everyone, input: (fx) => ({ params: { id: fx.file.id, name: fx.file.name } }) },
    {
      label: 'of an article for signed-in visitors',
      expect: outcomes(404, 'ok', 'ok', 'ok'),
      input: (fx) => ({ params: { id: fx.restricted.file.id, name: fx.restricted.file.name } }),
    },
    // Drafts' files and fresh uploads: the editor's, by the admin's token.
    {
      label: 'of a draft',
      expect: { ...nobody, admin: 'ok' },
      input: (fx) => ({ params: { id: fx.draftFile.id, name: fx.draftFile.name } }),
    },
    // A request's upload is never a content file, whoever asks.
    {
      label: "of customer A's request",
      expect: nobody,
      input: (fx) => ({ params: { id: fx.ticketA.uploadId, name: 'screenshot.txt' } }),
    },
  ],
  downloadTicketFile: [
    // The signed link is the key: whoever holds it (the team's mail, the requester's page) opens the file.
    {
      expect: everyone,
      input: (fx) => ({
        params: { id: fx.ticketFileLink.id },
        query: { expires: fx.ticketFileLink.expires, signature: fx.ticketFileLink.signature },
      }),
    },
    {
      label: 'with a signature that is not its own',
      expect: outcomes(403, 403, 403, 403),
      input: (fx) => ({
        params: { id: fx.ticketFileLink.id },
        query: { expires: fx.ticketFileLink.expires, signature: '0'.repeat(64) },
      }),
    },
    {
      label: "with another file's signature",
      expect: outcomes(403, 403, 403, 403),
      input: async (fx) => ({
        params: { id: await fx.uploadOf('visitor') },
        query: { expires: fx.ticketFileLink.expires, signature: fx.ticketFileLink.signature },
      }),
    },
  ],
  // CAPTCHA_PROVIDER=none: there is no challenge to hand out, to anyone.
  getCaptchaChallenge: { expect: nobody },

  listAdminTickets: {
    expect: team,
    input: () => ({ query: { page: 1, per_page: 50 } }),
    shows: [{ text: (fx) => fx.ticketA.title, to: ['agent', 'admin'] }],
  },
  getAdminTicket: {
    expect: team,
    input: (fx) => ({ params: { id: fx.ticketA.id } }),
    shows: [{ text: (fx) => fx.ticketA.note, to: ['agent', 'admin'] }],
  },
  getTicketRouting: { expect: team },
  updateAdminTicket: {
    expect: team,
    input: async (fx) => ({
      params: { id: (await fx.freshTicket('customerA')).id },
      body: { status: 'open' },
    }),
  },
  replyAdminTicket: {
    expect: team,
    input: (fx) => ({ params: { id: fx.ticketA.id }, body: { body: `Note ${next()}`, internal: true } }),
  },
  listRelatedTickets: { expect: team, input: (fx) => ({ params: { id: fx.ticketA.id } }) },
  listTeam: { expect: team },
  getTicketCounts: { expect: team },

  listMyIssues: {
    expect: signedIn,
    input: () => ({ query: { page: 1 } }),
    shows: [{ text: (fx) => fx.ticketA.title, to: ['customerA'] }],
  },
  getMyIssue: [
    {
      label: "customer A's",
      expect: ownerA,
      input: (fx) => ({ params: { id: fx.ticketA.id } }),
      shows: [
        { text: (fx) => fx.ticketA.description, to: ['customerA'] },
        // The team's internal note is theirs alone.
        { text: (fx) => fx.ticketA.note, to: [] },
      ],
    },
    {
      label: "customer A's, with another request's key",
      expect: ownerA,
      input: (fx) => ({ params: { id: fx.ticketA.id }, query: { key: fx.linkedTicket.key } }),
    },
    {
      label: 'an anonymous request, by its private link',
      expect: everyone,
      input: (fx) => ({ params: { id: fx.linkedTicket.id }, query: { key: fx.linkedTicket.key } }),
      shows: [{ text: (fx) => fx.linkedTicket.description, to: CALLERS }],
    },
    {
      label: 'an anonymous request, by the browser that sent it',
      expect: fromSender,
      input: (fx, caller) => ({ params: { id: fx.sentTicket.id }, query: senderKey(fx, caller) }),
      shows: [{ text: (fx) => fx.sentTicket.description, to: ['visitor'] }],
    },
  ],
  replyMyIssue: [
    {
      label: "customer A's",
      expect: ownerA,
      input: (fx) => ({ params: { id: fx.ticketA.id }, body: { body: `Reply ${next()}` } }),
    },
    {
      label: 'an anonymous request, by its private link',
      expect: everyone,
      input: (fx) => ({
        params: { id: fx.linkedTicket.id },
        body: { body: `Reply ${next()}`, key: fx.linkedTicket.key },
      }),
    },
    {
      label: 'an anonymous request, by the browser that sent it',
      expect: fromSender,
      input: (fx, caller) => ({
        params: { id: fx.sentTicket.id },
        body: { body: `Reply ${next()}`, ...senderKey(fx, caller) },
      }),
    },
    {
      label: "customer A's, attaching the visitor's upload",
      expect: { ...ownerA, customerA: 400 },
      input: async (fx) => ({
        params: { id: fx.ticketA.id },
        body: { body: `Reply ${next()}`, files: [await fx.uploadOf('visitor')] },
      }),
    },
  ],
  updateMyIssue: [
    {
      label: "customer A's",
      expect: ownerA,
      input: async (fx) => ({
        params: { id: (await fx.freshTicket('customerA')).id },
        body: { status: 'solved' },
      }),
    },
    {
      label: 'an anonymous request, by its private link',
      expect: everyone,
      input: async (fx) => {
        const ticket = await fx.freshTicket('anonymous');
        return { params: { id: ticket.id }, body: { status: 'solved', key: ticket.key } };
      },
    },
    {
      label: 'an anonymous request, without its link',
      expect: nobody,
      input: async (fx) => ({
        params: { id: (await fx.freshTicket('anonymous')).id },
        body: { status: 'solved' },
      }),
    },
    {
      label: 'an anonymous request, by the browser that sent it',
      expect: fromSender,
      input: (fx, caller) => ({
        params: { id: fx.sentTicket.id },
        body: { status: 'solved', ...senderKey(fx, caller) },
      }),
    },
  ],
  requestIssueLinks: { expect: everyone, input: () => ({ body: { email: `links-${next()}@example.com` } }) },
  recordSearchEvent: {
    expect: everyone,
    input: () => ({ body: { type: 'search', query: `wifi ${next()}`, found: 1 } }),
  },

  getSearchReport: { expect: adminOnly, input: () => ({ query: { limit: 10, weeks: 8 } }) },
  getFeedbackReport: { expect: adminOnly, input: () => ({ query: { page: 1, per_page: 10 } }) },
  getSynonyms: { expect: adminOnly },
  updateSynonyms: { expect: adminOnly, input: () => ({ body: { sets: { en: [['sign in', 'log in']] } } }) },
  getSearchLearning: { expect: adminOnly, input: () => ({ query: { limit: 10 } }) },
  resetSearchLearning: { expect: adminOnly, input: () => ({ query: { query: 'wifi' } }) },
  getAdminTree: { expect: adminOnly },
  createSection: { expect: adminOnly, input: () => ({ body: { name: `Section ${next()}` } }) },
  updateSection: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.sectionId }, body: { name: `Wifi section ${next()}` } }),
  },
  deleteSection: {
    expect: adminOnly,
    input: async (fx) => ({ params: { id: (await buildSection(fx.ctx.db)).id } }),
  },
  createCategory: {
    expect: adminOnly,
    input: (fx) => ({ body: { section_id: fx.sectionId, name: `Category ${next()}` } }),
  },
  updateCategory: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.categoryId }, body: { name: `Wifi category ${next()}` } }),
  },
  deleteCategory: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await buildCategory(fx.ctx.db, { section_id: fx.sectionId })).id },
    }),
  },
  getAdminArticle: { expect: adminOnly, input: (fx) => ({ params: { id: fx.draftId } }) },
  createArticle: {
    expect: adminOnly,
    input: (fx) => ({ body: { section_id: fx.sectionId, title: `Article ${next()}`, published: false } }),
  },
  updateArticle: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.draftId }, body: { title: `Draft ${next()}` } }),
  },
  deleteArticle: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await buildArticle(fx.ctx.db, { section_id: fx.sectionId, published: 0 })).id },
    }),
  },
  moveItem: {
    expect: adminOnly,
    input: (fx) => ({
      body: { kind: 'article', id: fx.movableId, section_id: fx.sectionId, parent_id: null, index: 0 },
    }),
  },
  listRevisions: { expect: adminOnly, input: articleParams },
  getRevision: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.articleId, revision: fx.revisionIds[0] ?? 0 } }),
  },
  diffRevisions: {
    expect: adminOnly,
    input: (fx) => ({
      params: { id: fx.articleId },
      query: { from: fx.revisionIds[0] ?? 0, to: fx.revisionIds[1] ?? 0 },
    }),
  },
  previewHtml: { expect: adminOnly, input: () => ({ body: { html: '<p>Preview</p>' } }) },
  previewArticle: {
    expect: adminOnly,
    input: (fx) => ({
      body: {
        article_id: fx.articleId,
        section_id: fx.sectionId,
        category_id: fx.categoryId,
        title: 'Preview',
        body_html: '<p>Preview</p>',
        can_create_issue: true,
        file_ids: [],
      },
    }),
  },
  restoreRevision: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.articleId, revision: fx.revisionIds[1] ?? 0 } }),
  },
  uploadContentFiles: {
    expect: adminOnly,
    input: () => ({
      multipart: [{ name: 'file', filename: `guide-${next()}.txt`, type: 'text/plain', content: 'how to' }],
    }),
  },
  getAdminBranding: { expect: adminOnly },
  updateBranding: { expect: adminOnly, input: () => ({ body: { knowledge_title: `Help ${next()}` } }) },
  listUsers: { expect: adminOnly },
  createUser: {
    expect: adminOnly,
    input: () => ({
      body: {
        email: `new-${next()}@example.com`,
        name: 'New',
        password: 'long enough password',
        role: 'customer',
      },
    }),
  },
  updateUser: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await buildUser(fx.ctx.db)).id },
      body: { name: `Renamed ${next()}` },
    }),
  },
  deleteUser: {
    expect: adminOnly,
    input: async (fx) => ({ params: { id: (await buildUser(fx.ctx.db)).id } }),
  },
  inviteCustomer: {
    expect: adminOnly,
    input: () => ({ body: { email: `invite-${next()}@example.com`, name: 'Invited' } }),
  },
  getSectionTranslation: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.sectionId, lang: 'ru' } }),
  },
  saveSectionTranslation: {
    expect: adminOnly,
    input: (fx) => ({
      params: { id: fx.sectionId, lang: 'ru' },
      body: { name: `Раздел ${next()}`, published: true },
    }),
  },
  deleteSectionTranslation: {
    expect: adminOnly,
    input: async (fx) => ({ params: { id: (await translatedSection(fx)).section_id, lang: 'it' } }),
  },
  publishSectionTranslation: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await translatedSection(fx)).section_id, lang: 'it' },
      body: { published: false },
    }),
  },
  getCategoryTranslation: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.categoryId, lang: 'ru' } }),
  },
  saveCategoryTranslation: {
    expect: adminOnly,
    input: (fx) => ({
      params: { id: fx.categoryId, lang: 'ru' },
      body: { name: `Категория ${next()}`, description: '<p>Описание</p>', published: true },
    }),
  },
  deleteCategoryTranslation: {
    expect: adminOnly,
    input: async (fx) => ({ params: { id: (await translatedCategory(fx)).category_id, lang: 'it' } }),
  },
  publishCategoryTranslation: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await translatedCategory(fx)).category_id, lang: 'it' },
      body: { published: false },
    }),
  },
  getArticleTranslation: {
    expect: adminOnly,
    input: (fx) => ({ params: { id: fx.articleId, lang: 'ru' } }),
  },
  saveArticleTranslation: {
    expect: adminOnly,
    input: (fx) => ({
      params: { id: fx.articleId, lang: 'ru' },
      body: { title: `Статья ${next()}`, body_html: '<p>Текст</p>', published: false },
    }),
  },
  deleteArticleTranslation: {
    expect: adminOnly,
    input: async (fx) => ({ params: { id: (await translatedArticle(fx)).article_id, lang: 'it' } }),
  },
  publishArticleTranslation: {
    expect: adminOnly,
    input: async (fx) => ({
      params: { id: (await translatedArticle(fx)).article_id, lang: 'it' },
      body: { published: true },
    }),
  },
  getTranslationStatus: { expect: adminOnly, input: () => ({ query: { lang: 'ru' } }) },
  getHealth: { expect: everyone },
  getReadiness: { expect: everyone },
  // METRICS_TOKEN unset: only this machine's own scraper, never a request a proxy relays, as every call here is
  // (X-Forwarded-For), whoever signed in; ops.test.ts walks the loopback, the token and METRICS_PUBLIC.
  getMetrics: { expect: outcomes(403, 403, 403, 403) },

  // Outside the table: the admin app's shell, whose calls are the ones held to their role above.
  'GET /admin': { expect: everyone },
  'GET /admin/*': { expect: everyone, input: () => ({ params: { '*': 'tickets/1' } }) },
  'GET /api/openapi.json': { expect: everyone },
  'GET /assets/*': { expect: nobody, input: () => ({ params: { '*': 'no-such-asset.js' } }) },
  'GET /favicon.svg': { expect: everyone },
  'GET /robots.txt': { expect: everyone },
  'GET /sitemap.xml': {
    expect: everyone,
    // For search engines: what anonymous visitors can read, whoever asks.
    shows: [{ text: (fx) => `/knowledge/instruction/${fx.restricted.articleId}`, to: [] }],
  },
  // Part 1 is the whole sitemap while it is short.
  'GET /sitemaps/:part': {
    expect: everyone,
    input: () => ({ params: { part: '1.xml' } }),
    shows: [{ text: (fx) => `/knowledge/instruction/${fx.restricted.articleId}`, to: [] }],
  },
  'GET /': { expect: everyone },
  'GET /knowledge': { expect: everyone },
  'GET /knowledge/*': [
    { label: 'home', expect: everyone, input: () => ({ params: { '*': '' } }) },
    {
      label: 'an article',
      expect: everyone,
      input: (fx) => ({ path: '/knowledge/instruction/:id', params: { id: fx.articleId } }),
    },
    {
      label: 'an article for signed-in visitors',
      expect: readers,
      input: (fx) => ({ path: '/knowledge/instruction/:id', params: { id: fx.restricted.articleId } }),
      shows: [{ text: () => 'quokka', to: SIGNED_IN }],
    },
    {
      label: 'a category for signed-in visitors',
      expect: readers,
      input: (fx) => ({ path: '/knowledge/category/:id', params: { id: fx.restricted.categoryId } }),
      shows: [{ text: () => 'Zanzibar', to: SIGNED_IN }],
    },
    // As for an article that does not exist: to the not-found page.
    {
      label: 'a draft',
      expect: outcomes(302, 302, 302, 302),
      input: (fx) => ({ path: '/knowledge/instruction/:id', params: { id: fx.draftId } }),
    },
  ],
  // The portal's pages: a frame for everyone, the requester's own things only in theirs.
  'GET /login': { expect: everyone },
  'GET /signup': { expect: everyone },
  'GET /forgot-password': { expect: everyone },
  'GET /request-link': { expect: everyone },
  'GET /new-password': { expect: everyone },
  'GET /accept-invite': { expect: everyone },
  'GET /verify-email': { expect: everyone },
  'GET /issues': { expect: everyone, shows: [{ text: (fx) => fx.ticketA.title, to: ['customerA'] }] },
  'GET /issues/create': { expect: everyone },
  'GET /issues/:id': [
    {
      label: "customer A's",
      expect: everyone,
      input: (fx) => ({ params: { id: fx.ticketA.id } }),
      shows: [
        { text: (fx) => fx.ticketA.description, to: ['customerA'] },
        { text: (fx) => fx.ticketA.note, to: [] },
      ],
    },
    {
      label: 'an anonymous request, by its private link',
      expect: everyone,
      input: (fx) => ({ params: { id: fx.linkedTicket.id }, query: { key: fx.linkedTicket.key } }),
      shows: [{ text: (fx) => fx.linkedTicket.description, to: CALLERS }],
    },
    {
      label: 'an anonymous request, by the browser that sent it',
      expect: everyone,
      input: (fx, caller) => ({ params: { id: fx.sentTicket.id }, query: senderKey(fx, caller) }),
      // Rendered with it on the server when the link's key says whose it is; else loaded by the browser.
      shows: [{ text: (fx) => fx.sentTicket.description, to: ['visitor'], optional: true }],
    },
  ],
  'GET /user/profile': {
    expect: everyone,
    shows: [{ text: (fx) => fx.users.customerA.email, to: ['customerA'] }],
  },
  // A portal form sent before its page's scripts ran comes back to its page, read by nobody.
  ...Object.fromEntries(
    portalPagePaths.map((path): [string, Case] => [
      `POST ${path}`,
      {
        expect: everyone,
        input: (fx) => ({ params: { id: fx.ticketA.id }, body: { email: 'a@example.com' } }),
      },
    ]),
  ),
};

const translatedSection = (fx: Fixture) => hiddenTranslations.section(fx.ctx.db);
const translatedCategory = (fx: Fixture) => hiddenTranslations.category(fx.ctx.db, fx.sectionId);
const translatedArticle = (fx: Fixture) => hiddenTranslations.article(fx.ctx.db, fx.sectionId);

/**
 * What a reader of each kind finds of the content for signed-in visitors (every name of it says Zanzibar; its
 * text says quokka, which the searches ask for), asked by readers first, so an answer kept for one would show.
 */
const WALK: { url: (fx: Fixture) => string; readersSee: boolean }[] = [
  { url: () => '/api/knowledge/all-sections', readersSee: true },
  { url: (fx) => `/api/knowledge/category?section_id=${fx.sectionId}`, readersSee: true },
  { url: () => '/api/knowledge/instruction', readersSee: true },
  {
    url: (fx) => `/api/knowledge/instruction?category_id=${fx.categoryId}&page=1&per_page=50`,
    readersSee: true,
  },
  { url: () => '/api/search/knowledge/suggestions?text=quokka&limit=10&perPage=10', readersSee: true },
  { url: (fx) => `/api/knowledge/instruction/${fx.articleId}/nearby`, readersSee: true },
  { url: () => '/knowledge/', readersSee: true },
  { url: () => '/knowledge/search?query=quokka', readersSee: true },
  { url: (fx) => `/knowledge/category/${fx.categoryId}`, readersSee: true },
  { url: () => '/sitemap.xml', readersSee: false },
  // The same in another language the article has a version in.
  { url: () => '/api/knowledge/instruction?lang=ru', readersSee: true },
  {
    url: () => '/api/search/knowledge/suggestions?text=quokka&limit=10&perPage=10&lang=ru',
    readersSee: true,
  },
  { url: (fx) => `/knowledge/instruction/${fx.articleId}?lang=ru`, readersSee: true },
];
const SECRET = /zanzibar/i;

/** Tables a refused call may write by design: the counters a rate limit keeps. */
const NOT_COMPARED = new Set(['rate_limits', 'captcha_uses']);
/**
 * Columns compared where not all are: an account mail queued by an earlier allowed call (a sign-up, a reset) is
 * sent in the background meanwhile, which moves its delivery's columns; a mail queued is a row all the same.
 */
const COMPARED_COLUMNS: Record<string, string[]> = {
  account_mails: ['id', 'to_address', 'mail', 'created_at'],
};

async function tableNames(ctx: AppContext, dialect: Dialect): Promise<string[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'
          and name not like 'sqlite_%' and sql not like 'CREATE VIRTUAL TABLE%'`.execute(ctx.db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(ctx.db);
  return rows.rows.map((row) => row.name).filter((name) => !NOT_COMPARED.has(name));
}

/** One hash per table of its rows, in a fixed order, to name what a refused call changed. */
async function digest(ctx: AppContext, names: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const name of names) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(ctx.db);
    const columns = COMPARED_COLUMNS[name];
    const lines = rows.rows.map((row) =>
      JSON.stringify(
        Object.keys(row)
          .filter((key) => !columns || columns.includes(key))
          .sort()
          .map((key) => [key, String(row[key])]),
      ),
    );
    result.set(name, crypto.createHash('sha1').update(lines.sort().join('\n')).digest('hex'));
  }
  return result;
}

interface Registered {
  method: string;
  url: string;
}

interface Findings {
  coverage: string[];
  outcomes: string[];
  shown: string[];
  written: string[];
  walk: string[];
  sessions: string[];
  links: string[];
  requests: number;
  routes: number;
  cases: number;
  seconds: number;
}

async function runSuite(dialect: Dialect): Promise<Findings> {
  const started = performance.now();
  const findings: Findings = {
    coverage: [],
    outcomes: [],
    shown: [],
    written: [],
    walk: [],
    sessions: [],
    links: [],
    requests: 0,
    routes: 0,
    cases: 0,
    seconds: 0,
  };
  const smtp = await startMailServer();
  const registered: Registered[] = [];
  let t: TestApp | undefined;
  try {
    // Limits out of the way, so every call meets the access decision rather than a counter; mail goes to a sink.
    t = await createTestApp(
      dialect,
      {
        TRUST_PROXY: 'true',
        CAPTCHA_PROVIDER: 'none',
        SMTP_URL: smtp.url,
        REQUESTS_PER_HOUR: '1000000',
        UPLOADS_PER_HOUR: '1000000',
        UPLOAD_MB_PER_HOUR: '1000000',
        UPLOADS_PENDING_MAX_MB: '1000000',
      },
      {
        onRoute: (route: RouteOptions) => {
          for (const method of ([] as string[]).concat(route.method))
            if (method !== 'HEAD') registered.push({ method, url: route.url });
        },
      },
    );
    const { ctx, app } = t;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    let address = 0;
    const send = async (
      method: string,
      target: string,
      options: { token?: string; cookies?: string[]; body?: unknown; multipart?: FilePart[] } = {},
    ): Promise<RawResponse> => {
      address += 1;
      const headers: [string, string][] = [
        ['Host', `127.0.0.1:${port}`],
        ['Connection', 'close'],
        ['X-Forwarded-For', `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`],
      ];
      if (options.token) headers.push([AUTH_HEADER, options.token]);
      if (options.cookies?.length) headers.push(['Cookie', options.cookies.join('; ')]);
      let body: Buffer | undefined;
      if (options.multipart) {
        headers.push(['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`]);
        body = multipartBody(options.multipart);
      } else if (options.body !== undefined) {
        headers.push(['Content-Type', 'application/json']);
        body = Buffer.from(JSON.stringify(options.body));
      }
      return sendRaw(port, { method, target, headers, body });
    };
    /** A call the fixture needs to succeed: its JSON. */
    const api = async <T>(method: string, target: string, options: Parameters<typeof send>[2] = {}) => {
      const response = await send(method, target, options);
      if (response.status >= 300)
        throw new Error(
          `fixture: ${method} ${target} answered ${response.status} ${response.body.toString()}`,
        );
      return { json: JSON.parse(response.body.toString('utf8')) as T, headers: response.headers };
    };
    const signIn = async (email: string) =>
      (
        await api<{ token: string }>('POST', '/api/auth/login', {
          body: { email, password: DEFAULT_PASSWORD },
        })
      ).json.token;

    const fx = await createFixture(ctx, api, signIn);
    const tokens = {} as Record<SignedIn, string>;
    for (const kind of SIGNED_IN) tokens[kind] = await signIn(fx.users[kind].email);
    const credentials = ({ caller, cookieOnly }: Who, token?: string) => {
      if (caller === 'anonymous') return { cookies: [] };
      if (caller === 'visitor') return { cookies: fx.visitorCookies };
      const own = token ?? tokens[caller];
      return { token: cookieOnly ? undefined : own, cookies: [`${SESSION_COOKIE}=${own}`] };
    };
    const roleOf: Record<SignedIn, UserRow['role']> = {
      customerA: 'customer',
      customerB: 'customer',
      agent: 'agent',
      admin: 'admin',
    };
    const sessionToken = async (caller: SignedIn, session: 'fresh' | 'twin') =>
      signIn(
        session === 'fresh'
          ? fx.users[caller].email
          : (await buildUser(ctx.db, { role: roleOf[caller] })).email,
      );

    // The walk first, while the content is as made: readers first, then an account whose email is not confirmed
    // (anyone, for content), the visitor, and anonymous twice: the second answer may come from memory.
    const unconfirmed = await buildUser(ctx.db);
    const unconfirmedToken = await signIn(unconfirmed.email);
    await ctx.db
      .updateTable('users')
      .set({ email_verified_at: null })
      .where('id', '=', unconfirmed.id)
      .execute();
    const walkers: {
      name: string;
      credentials: ReturnType<typeof credentials>;
      reader: boolean | 'calls';
    }[] = [
      ...SIGNED_IN.map((caller) => ({ name: caller, credentials: credentials({ caller }), reader: true })),
      // Signed in through a portal elsewhere: the token alone, which the calls read and the pages do not.
      {
        name: 'customerA by the token alone',
        credentials: { token: tokens.customerA, cookies: [] },
        reader: 'calls' as const,
      },
      {
        name: 'a customer whose email is not confirmed',
        credentials: { token: unconfirmedToken, cookies: [`${SESSION_COOKIE}=${unconfirmedToken}`] },
        reader: false,
      },
      ...(['visitor', 'anonymous', 'anonymous'] as const).map((caller) => ({
        name: caller,
        credentials: credentials({ caller }),
        reader: false,
      })),
    ];
    for (const { name: caller, credentials: given, reader } of walkers) {
      for (const step of WALK) {
        const url = step.url(fx);
        const response = await send('GET', url, given);
        findings.requests += 1;
        const body = response.body.toString('utf8');
        const reads = reader === 'calls' ? url.startsWith('/api/') : reader;
        if (response.status >= 400) findings.walk.push(`${caller} ${url}: ${response.status}`);
        else if (SECRET.test(body) !== (reads && step.readersSee))
          findings.walk.push(`${caller} ${url}: ${SECRET.test(body) ? 'shows' : 'does not show'} Zanzibar`);
      }
    }

    // Every rule names a route, every route has a rule.
    const tableKey = new Map<string, string>(
      Object.entries(routes).map(([name, entry]) => [`${entry.method} ${entry.path}`, name]),
    );
    const seen = new Set<string>();
    const plan: { key: string; method: string; url: string }[] = [];
    for (const route of registered) {
      const routeKey = `${route.method} ${route.url}`;
      if (seen.has(routeKey)) continue;
      seen.add(routeKey);
      const key = tableKey.get(routeKey) ?? routeKey;
      if (!(key in RULES)) {
        findings.coverage.push(
          tableKey.has(routeKey)
            ? `${key} (${routeKey}) has no rule: add one to RULES`
            : `${routeKey} has no rule: add one to RULES under "${routeKey}"`,
        );
        continue;
      }
      plan.push({ key, method: route.method, url: route.url });
    }
    findings.routes = seen.size;
    for (const [name, entry] of Object.entries(routes))
      if (!seen.has(`${entry.method} ${entry.path}`))
        findings.coverage.push(`${name} is in the table, not registered`);
    const planned = new Set(plan.map((p) => p.key));
    for (const key of Object.keys(RULES))
      if (!planned.has(key) && !(key in routes))
        findings.coverage.push(`RULES names ${key}, which is no route`);

    const names = await tableNames(ctx, dialect);
    for (const { key, method, url } of plan) {
      for (const c of ([] as Case[]).concat(RULES[key] as Case | Case[])) {
        findings.cases += 1;
        const label = c.label ? `${key} (${c.label})` : key;
        const read = method === 'GET';
        const everyWho: Who[] = [
          ...CALLERS.map((caller) => ({ caller })),
          ...(read ? [] : COOKIE_CALLERS.map((caller) => ({ caller, cookieOnly: true }))),
        ];
        /** A write sent with the session cookie alone is anonymous, but for signing out. */
        const as = (who: Who): Caller =>
          who.cookieOnly && !COOKIE_WRITES.has(key) ? 'anonymous' : who.caller;
        const allowed = everyWho.filter((who) => c.expect[as(who)] === 'ok');
        const refused = everyWho.filter((who) => c.expect[as(who)] !== 'ok');
        /** The caller's request, made before it is sent: the rows an input makes are there before any digest. */
        const prepare = async (who: Who) => {
          const input = (await c.input?.(fx, who.caller)) ?? {};
          const token =
            input.session && who.caller !== 'anonymous' && who.caller !== 'visitor'
              ? await sessionToken(who.caller, input.session)
              : undefined;
          return { who, input, token };
        };
        const call = async ({ who, input, token }: Awaited<ReturnType<typeof prepare>>) => {
          const target = targetOf(input.path ?? url, input);
          const response = await send(method, target, { ...credentials(who, token), ...input });
          findings.requests += 1;
          const expected = c.expect[as(who)];
          const status = response.status;
          const passed =
            expected === 'ok'
              ? status >= 200 && (status < 400 || (c.reached ?? []).includes(status))
              : status === expected;
          const text = response.body.toString('utf8');
          const name = nameOf(who);
          if (!passed)
            findings.outcomes.push(
              `${label} as ${name}: expected ${expected}, answered ${status} ${text.slice(0, 200)}`,
            );
          for (const secret of c.shows ?? []) {
            const must = expected === 'ok' && secret.to.includes(as(who));
            const shown = text.includes(secret.text(fx));
            if (shown !== must && !(must && secret.optional))
              findings.shown.push(
                `${label} as ${name}: ${shown ? 'shows' : 'does not show'} "${secret.text(fx)}"`,
              );
          }
        };
        // Reads: the allowed first, so an answer kept for them would reach the refused. Writes: the refused first,
        // on what is there before any allowed call changes it. Either way nothing refused may write.
        if (read) for (const who of allowed) await call(await prepare(who));
        if (refused.length) {
          const requests = [];
          for (const who of refused) requests.push(await prepare(who));
          const before = await digest(ctx, names);
          for (const request of requests) await call(request);
          const after = await digest(ctx, names);
          const changed = names.filter((name) => before.get(name) !== after.get(name));
          if (changed.length)
            findings.written.push(`${label} as ${refused.map(nameOf).join(', ')}: ${changed.join(', ')}`);
        }
        if (!read) for (const who of allowed) await call(await prepare(who));
      }
    }

    // What ends a session ends it: each step on accounts of its own.
    const live = async (token: string, path = '/api/user/me') =>
      (await send('GET', path, { token })).status === 200;
    const expectSessions = async (what: string, states: [string, boolean][], path?: string) => {
      for (const [index, [token, alive]] of states.entries())
        if ((await live(token, path)) !== alive)
          findings.sessions.push(`${what}: session ${index + 1} ${alive ? 'ended' : 'still open'}`);
    };
    const sessionsOf = async (role: UserRow['role'] = 'customer') => {
      const user = await buildUser(ctx.db, { role });
      return { user, first: await signIn(user.email), second: await signIn(user.email) };
    };
    const asAdmin = { token: tokens.admin };
    {
      const { first, second } = await sessionsOf();
      await send('POST', '/api/auth/logout', { token: first });
      await expectSessions('signing out', [
        [first, false],
        [second, true],
      ]);
    }
    {
      const { first, second } = await sessionsOf();
      await send('POST', '/api/auth/logout-everywhere', { token: first });
      await expectSessions('signing out everywhere', [
        [first, false],
        [second, false],
      ]);
    }
    {
      const { first, second } = await sessionsOf();
      await send('DELETE', '/api/user/me', { token: first, body: { password: DEFAULT_PASSWORD } });
      await expectSessions('deleting my account', [
        [first, false],
        [second, false],
      ]);
    }
    {
      const { first, second } = await sessionsOf();
      await send('PATCH', '/api/user/me', {
        token: first,
        body: { password: 'another long password', current_password: DEFAULT_PASSWORD },
      });
      // The device that changed it stays signed in; every other is signed out.
      await expectSessions('a new password of my own', [
        [first, true],
        [second, false],
      ]);
    }
    {
      const { user, first } = await sessionsOf();
      await send('PATCH', `/api/admin/users/${user.id}`, {
        ...asAdmin,
        body: { password: 'another long password' },
      });
      await expectSessions('a new password set by an admin', [[first, false]]);
    }
    {
      const { user, first } = await sessionsOf();
      await send('DELETE', `/api/admin/users/${user.id}`, asAdmin);
      await expectSessions('an account deleted by an admin', [[first, false]]);
    }
    for (const role of ['agent', 'admin'] as const) {
      const { user, first } = await sessionsOf(role);
      await send('PATCH', `/api/admin/users/${user.id}`, { ...asAdmin, body: { role: 'customer' } });
      // Still signed in, as a customer now: the team's calls are closed to them at once.
      await expectSessions(`an ${role} made a customer`, [[first, true]]);
      await expectSessions(
        `an ${role} made a customer, on the team's calls`,
        [[first, false]],
        '/api/admin/team',
      );
    }

    // A valid confirmation link: from another browser it asks for a password and signs nobody in, whoever calls;
    // from the browser holding the flow cookie its link was made for, it signs in to the account.
    {
      const waiting = await buildUser(ctx.db, { name: 'Waiting Owner' });
      await updateAccount(ctx.db, waiting.id, { email_verified_at: null });
      const flow = crypto.randomBytes(32).toString('base64url');
      const user = (await findUser(ctx.db, waiting.id))!;
      const link = await makeLinkToken(ctx.db, 'verify', user, user.email, undefined, bindingOf(flow));
      const meOf = async (token: string) =>
        JSON.parse((await send('GET', '/api/user/me', { token })).body.toString('utf8')) as { id?: number };
      for (const caller of ['anonymous', 'customerB'] as const) {
        const token = caller === 'anonymous' ? undefined : tokens[caller];
        const elsewhere = await send('POST', '/api/auth/verify-email', {
          body: { token: link },
          ...(token && { token, cookies: [`${SESSION_COOKIE}=${token}`] }),
        });
        const code = (JSON.parse(elsewhere.body.toString('utf8')) as { code?: string }).code;
        if (elsewhere.status !== 400 || code !== 'password_needed')
          findings.links.push(`a valid link from another browser as ${caller}: ${elsewhere.status} ${code}`);
        if (elsewhere.headers['set-cookie'])
          findings.links.push(
            `a valid link from another browser as ${caller} sets ${elsewhere.headers['set-cookie']}`,
          );
        if (token && (await meOf(token)).id !== fx.users.customerB.id)
          findings.links.push(`a valid link from another browser as ${caller}: the caller's session changed`);
      }
      if ((await findUser(ctx.db, waiting.id))?.email_verified_at !== null)
        findings.links.push('a valid link from another browser confirmed the address');
      const bound = await send('POST', '/api/auth/verify-email', {
        body: { token: link },
        cookies: [`${FLOW_COOKIE}=${flow}`],
      });
      const session =
        bound.status === 200 ? (JSON.parse(bound.body.toString('utf8')) as { token: string }) : null;
      if (!session) findings.links.push(`a valid link with its flow cookie: ${bound.status}`);
      else if ((await meOf(session.token)).id !== waiting.id)
        findings.links.push('a valid link with its flow cookie signs in to another account');
    }
  } finally {
    await t?.close();
    await smtp.close();
  }
  findings.seconds = Math.round((performance.now() - started) / 100) / 10;
  return findings;
}

function targetOf(template: string, input: Input): string {
  const path = template.replace(/:(\w+)|\*/g, (_match, name: string | undefined) => {
    const value = String(input.params?.[name ?? '*'] ?? '');
    return name ? encodeURIComponent(value) : value;
  });
  const query = new URLSearchParams(
    Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)]),
  ).toString();
  return query ? `${path}?${query}` : path;
}

type Api = <T>(
  method: string,
  target: string,
  options?: { token?: string; cookies?: string[]; body?: unknown; multipart?: FilePart[] },
) => Promise<{ json: T; headers: Record<string, string> }>;

/** Content open and restricted, a draft, users of each kind, customer A's request and an anonymous one. */
async function createFixture(ctx: AppContext, api: Api, signIn: (email: string) => Promise<string>) {
  const users: Record<SignedIn, UserRow> = {
    customerA: await buildUser(ctx.db, { name: 'Ann Customer', email: 'ann.customer@example.com' }),
    customerB: await buildUser(ctx.db, { name: 'Bob Customer', email: 'bob.customer@example.com' }),
    agent: await buildUser(ctx.db, { role: 'agent' }),
    admin: await buildUser(ctx.db, { role: 'admin' }),
  };
  const loginUser = await buildUser(ctx.db);
  const asAdmin = { token: await signIn(users.admin.email) };
  const asAgent = { token: await signIn(users.agent.email) };
  const asA = { token: await signIn(users.customerA.email) };

  const section = (
    await api<{ id: number }>('POST', '/api/admin/sections', { ...asAdmin, body: { name: 'Wifi' } })
  ).json;
  const category = (
    await api<{ id: number }>('POST', '/api/admin/categories', {
      ...asAdmin,
      body: { section_id: section.id, name: 'Wifi setup', description: '<p>Wifi help</p>' },
    })
  ).json;
  const upload = async (filename: string) =>
    (
      await api<{ items: { id: number; name: string }[] }>('POST', '/api/admin/files', {
        ...asAdmin,
        multipart: [{ name: 'file', filename, type: 'text/plain', content: `The file ${filename}` }],
      })
    ).json.items[0] as { id: number; name: string };
  const file = await upload('guide.txt');
  const draftFile = await upload('draft-notes.txt');
  const article = (
    await api<{ id: number }>('POST', '/api/admin/articles', {
      ...asAdmin,
      body: {
        section_id: section.id,
        category_id: category.id,
        title: 'Wifi setup',
        body_html: '<p>Connect to the wifi</p>',
        published: true,
        file_ids: [file.id],
      },
    })
  ).json;
  await api('PATCH', `/api/admin/articles/${article.id}`, {
    ...asAdmin,
    body: { title: 'Wifi setup guide' },
  });
  const draft = (
    await api<{ id: number }>('POST', '/api/admin/articles', {
      ...asAdmin,
      body: {
        section_id: section.id,
        title: 'Unpublished wifi notes',
        published: false,
        file_ids: [draftFile.id],
      },
    })
  ).json;
  const movable = (
    await api<{ id: number }>('POST', '/api/admin/articles', {
      ...asAdmin,
      body: { section_id: section.id, title: 'Movable', published: true },
    })
  ).json;
  const revisions = (
    await api<{ items: { id: number }[] }>('GET', `/api/admin/articles/${article.id}/revisions`, asAdmin)
  ).json.items;

  // For signed-in visitors: an article of its own beside the open one, a category, a section.
  const restrictedArticle = await buildArticle(ctx.db, {
    category_id: category.id,
    title: 'Zanzibar partner pricing',
    body_html: '<p>The quokka discount for routers.</p>',
    visibility: 'signed_in',
  });
  const restrictedFile = await buildFile(ctx, {
    name: 'price-sheet.txt',
    content: 'quokka prices',
    articleId: restrictedArticle.id,
  });
  await buildArticleTranslation(ctx.db, {
    article_id: restrictedArticle.id,
    lang: 'ru',
    title: 'Zanzibar: цены для партнёров',
    body_html: '<p>Скидка quokka на роутеры.</p>',
  });
  const restrictedCategory = await buildCategory(ctx.db, {
    section_id: section.id,
    name: 'Zanzibar deals',
    visibility: 'signed_in',
  });
  await buildArticle(ctx.db, {
    category_id: restrictedCategory.id,
    title: 'Zanzibar deal desk',
    body_html: '<p>Ask the quokka desk.</p>',
  });
  const restrictedSection = await buildSection(ctx.db, { name: 'Zanzibar lounge', visibility: 'signed_in' });
  await buildArticle(ctx.db, {
    section_id: restrictedSection.id,
    title: 'Zanzibar lounge rules',
    body_html: '<p>Quokka members only.</p>',
  });

  // Customer A's request, with their upload, the team's answer and an internal note.
  const uploadOfA = async () =>
    (
      await api<{ id: number }[]>('POST', '/api/file', {
        ...asA,
        multipart: [{ name: 'file[]', filename: 'screenshot.txt', type: 'text/plain', content: 'error 42' }],
      })
    ).json[0]!.id;
  const uploadA = await uploadOfA();
  const ticketA = {
    title: 'Radiator of Ann stays cold',
    description: 'Ann-private-description-7731',
    note: 'Internal-note-about-Ann-5512',
    uploadId: uploadA,
  };
  const opened = await api<{ data: { id: number } }>('POST', '/panel/api/issue-open', {
    ...asA,
    body: issueOpenBody({
      title: ticketA.title,
      description: ticketA.description,
      name: users.customerA.name,
      email: users.customerA.email,
      files: [uploadA],
    }),
  });
  const ticketId = opened.json.data.id;
  await api('POST', `/api/admin/tickets/${ticketId}/messages`, {
    ...asAgent,
    body: { body: 'We are on it' },
  });
  await api('POST', `/api/admin/tickets/${ticketId}/messages`, {
    ...asAgent,
    body: { body: ticketA.note, internal: true },
  });
  const link = new URL(await signFileLink(ctx, uploadA));

  // The anonymous visitor's browser: its cookie from its first upload, then a request with that upload.
  const visitorUpload = await api<{ id: number }[]>('POST', '/api/file', {
    multipart: [{ name: 'file[]', filename: 'photo.txt', type: 'text/plain', content: 'a photo' }],
  });
  const cookies = cookiesOf(visitorUpload.headers);
  if (!cookies.some((cookie) => cookie.startsWith(`${VISITOR_COOKIE}=`)))
    throw new Error('no visitor cookie');
  const anonymousDescription = 'Visitor-private-description-9044';
  const anonymous = await api<{ data: { id: number }; link: string | null }>(
    'POST',
    '/panel/api/issue-open',
    {
      cookies,
      body: issueOpenBody({
        name: 'Vera Visitor',
        email: 'vera@example.com',
        description: anonymousDescription,
        files: [visitorUpload.json[0]!.id],
      }),
    },
  );

  const visitorCookies = [...cookies, ...cookiesOf(anonymous.headers)];
  const freshTicket = async (owner: 'customerA' | 'anonymous', description?: string) => {
    const ticket = await buildTicket(ctx, {
      ...(owner === 'customerA'
        ? { user_id: users.customerA.id, name: users.customerA.name, email: users.customerA.email }
        : { name: 'Lena Linked', email: 'lena@example.com' }),
      ...(description && { description }),
      targets: [],
    });
    return { id: ticket.id, key: await saveTicketLink(ctx.db, ticket.id, 'access-test', Date.now()) };
  };
  const linkedDescription = 'Linked-private-description-3391';

  const fx: Fixture = {
    ctx,
    users,
    sectionId: section.id,
    categoryId: category.id,
    articleId: article.id,
    draftId: draft.id,
    movableId: movable.id,
    revisionIds: revisions.map((r) => r.id).sort((a, b) => a - b),
    file,
    draftFile,
    restricted: {
      articleId: restrictedArticle.id,
      categoryId: restrictedCategory.id,
      sectionId: restrictedSection.id,
      file: { id: restrictedFile.id, name: restrictedFile.original_name },
    },
    ticketA: { id: ticketId, ...ticketA },
    ticketFileLink: {
      id: uploadA,
      expires: link.searchParams.get('expires') ?? '',
      signature: link.searchParams.get('signature') ?? '',
    },
    sentTicket: {
      id: anonymous.json.data.id,
      description: anonymousDescription,
      senderKey: new URL(anonymous.json.link ?? '/', 'http://localhost').searchParams.get('key') ?? undefined,
    },
    linkedTicket: { ...(await freshTicket('anonymous', linkedDescription)), description: linkedDescription },
    visitorCookies,
    loginEmail: loginUser.email,
    uploadOf: async (owner) =>
      owner === 'customerA'
        ? uploadOfA()
        : (
            await api<{ id: number }[]>('POST', '/api/file', {
              cookies,
              multipart: [{ name: 'file[]', filename: 'photo.txt', type: 'text/plain', content: 'a photo' }],
            })
          ).json[0]!.id,
    freshTicket,
  };
  return fx;
}

/** The name=value of the cookie a response sets (the last Set-Cookie: raw answers keep one of each header). */
const cookiesOf = (headers: Record<string, string>) =>
  headers['set-cookie'] ? [(headers['set-cookie'].split(';')[0] ?? '').trim()] : [];

describe.each(testDialects())('who may call what, on %s', (dialect) => {
  let findings: Findings;
  beforeAll(async () => {
    findings = await runSuite(dialect);
    console.log(
      `access on ${dialect}: ${findings.routes} routes, ${findings.cases} cases, ${findings.requests} requests ` +
        `in ${findings.seconds} s`,
    );
  }, 300_000);

  it('has a rule for every route, and no rule for a route that is gone', () => {
    expect(findings.coverage).toEqual([]);
  });

  it('answers every caller as its rule says', () => {
    expect(findings.outcomes).toEqual([]);
  });

  it('shows each caller only what is theirs to see', () => {
    expect(findings.shown).toEqual([]);
  });

  it('writes nothing on a refused call', () => {
    expect(findings.written).toEqual([]);
  });

  it('ends the sessions a sign-out, a deletion, a new password end, and takes the team away from one moved out', () => {
    expect(findings.sessions).toEqual([]);
  });

  it('a valid confirmation link from another browser answers password_needed and signs nobody in; with its flow cookie it signs in', () => {
    expect(findings.links).toEqual([]);
  });

  it('shows content for signed-in visitors to them alone, in every list, search, page and the sitemap', () => {
    expect(findings.walk).toEqual([]);
  });
});
