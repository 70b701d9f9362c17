import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../shared/api/common.ts';
import { AUTH_HEADER } from '../../shared/constants.ts';
import { buildApp } from '../app.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import type { Dialect } from '../db/schema-helpers.ts';
import { insertUser } from '../accounts/users.repository.ts';
import { signFileLink } from '../tickets/index.ts';
import { WEB_DIST } from '../render/web-assets.ts';
import {
  buildArticle,
  buildCategory,
  buildSection,
  buildUser,
  DEFAULT_PASSWORD,
  hiddenTranslations,
} from '../testing/factories.ts';
import {
  BOUNDARY,
  COMMON_HEADERS,
  HOSTILE_COMMON_HEADER_VALUES,
  HOSTILE_HEADER_VALUES,
  hostileBodies,
  hostileMultipart,
  hostileUrls,
  hostileValuesFor,
  multipartBody,
  type FieldKind,
  type FilePart,
  type HostileValue,
  type RawBody,
} from '../testing/hostile-values.ts';
import { sendRaw, type RawRequest, type RawResponse } from '../testing/raw-http.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../testing/test-context.ts';

/**
 * Every route the app registers, each field it reads, sent the catalogue of hostile values over real sockets with
 * everything else valid and as the role that reaches the handler, so each value meets the code behind the checks.
 * No answer may be a 5xx or fail to come, every error answers in the error shape, /healthz answers after each route,
 * a refused request changes no stored data, and nothing is logged as an error. A route added later is covered by
 * the values its schema declares; one with neither a schema nor an example fails the suite by name.
 */

type Role = 'anonymous' | 'user' | 'admin';

interface Fixture {
  sectionId: number;
  categoryId: number;
  articleId: number;
  draftId: number;
  movableId: number;
  fileId: number;
  fileName: string;
  ticketId: number;
  uploadId: number;
  uploadLink: { expires: string; signature: string };
  revisionIds: number[];
  loginEmail: string;
  targetUserId: number;
  asset: string | null;
  /** A fresh sign-in of the plain user, for a request that signs out. */
  freshToken(): Promise<string>;
  /** A new session of the sign-in example's account, which is not the suite's user. */
  otherToken(): Promise<string>;
  /** A session of a new customer account, made for one request to delete. */
  throwawayToken(): Promise<string>;
  passwordHash: string;
  ctx: AppContext;
}

interface Input {
  /** The path template when it is not the route's own (a page under a wildcard route). */
  path?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
  multipart?: FilePart[];
  /** Sent as x-auth-token instead of the role's. */
  token?: string;
}

interface Example {
  label?: string;
  role?: Role;
  /** Statuses the valid request legitimately answers besides 2xx and 3xx. */
  accept?: number[];
  input: (fx: Fixture) => Input | Promise<Input>;
}

/**
 * Valid input per route, keyed "METHOD url": ids from the fixture, `{n}` replaced by a counter so that creates do
 * not collide. Routes not listed get their valid input from their schema.
 */
const EXAMPLES: Record<string, Example | Example[]> = {
  'GET /healthz': { input: () => ({}) },
  'GET /readyz': { input: () => ({}) },
  'GET /metrics': { input: () => ({}) },
  'GET /api/settings/branding': { input: () => ({}) },
  'GET /panel/api/v2/system/environments': { input: () => ({}) },
  'GET /api/user/me': { role: 'user', input: () => ({}) },
  'GET /api/knowledge/all-sections': { input: () => ({}) },
  'GET /api/knowledge/category': {
    input: (fx) => ({
      query: {
        query: 'Hostile',
        page: 1,
        per_page: 10,
        section_id: fx.sectionId,
        category_parent_id: fx.categoryId,
      },
    }),
  },
  'GET /api/knowledge/instruction': {
    input: (fx) => ({
      query: { query: 'wifi', page: 1, per_page: 10, section_id: fx.sectionId, category_id: fx.categoryId },
    }),
  },
  'GET /api/knowledge/instruction/:id': { input: (fx) => ({ params: { id: fx.articleId } }) },
  'GET /api/knowledge/instruction/:id/nearby': { input: (fx) => ({ params: { id: fx.articleId } }) },
  'POST /api/knowledge/instruction/:id/feedback': {
    input: (fx) => ({
      params: { id: fx.articleId },
      body: { helpful: false, reason: 'out_of_date', comment: 'Old screenshots {n}' },
    }),
  },
  'GET /api/search/knowledge/suggestions': {
    input: () => ({ query: { text: 'wifi', limit: 5, perPage: 5 } }),
  },
  'GET /api/admin/search-report': { role: 'admin', input: () => ({ query: { limit: 10, weeks: 8 } }) },
  'GET /api/admin/feedback': { role: 'admin', input: () => ({ query: { page: 1, per_page: 10 } }) },
  'GET /api/admin/synonyms': { role: 'admin', input: () => ({}) },
  'PUT /api/admin/synonyms': {
    role: 'admin',
    input: () => ({ body: { sets: { en: [['sign in', 'log in']], ru: [['вход', 'логин']] } } }),
  },
  'GET /api/admin/search-learning': { role: 'admin', input: () => ({ query: { limit: 10 } }) },
  'DELETE /api/admin/search-learning': { role: 'admin', input: () => ({ query: { query: 'wifi' } }) },
  'GET /files/:id/:name': { input: (fx) => ({ params: { id: fx.fileId, name: fx.fileName } }) },
  // CAPTCHA_PROVIDER=none: there is no challenge to hand out.
  'GET /api/captcha/challenge': { accept: [404], input: () => ({}) },
  'GET /api/admin/tickets': {
    role: 'admin',
    input: () => ({ query: { page: 1, per_page: 10, status: 'new', assignee: 'nobody' } }),
  },
  'GET /api/admin/tickets/:id': { role: 'admin', input: (fx) => ({ params: { id: fx.ticketId } }) },
  'GET /api/admin/tickets/:id/related': { role: 'admin', input: (fx) => ({ params: { id: fx.ticketId } }) },
  'GET /api/admin/team': { role: 'admin', input: () => ({}) },
  'GET /api/admin/ticket-counts': { role: 'admin', input: () => ({}) },
  'GET /api/portal/issues': { role: 'user', input: () => ({ query: { page: 1 } }) },
  'GET /api/portal/issues/:id': { role: 'user', input: (fx) => ({ params: { id: fx.ticketId } }) },
  'POST /api/portal/issues/:id/messages': {
    role: 'user',
    // Its hourly limit is the request form's, which the run may reach.
    accept: [429],
    input: (fx) => ({ params: { id: fx.ticketId }, body: { body: 'My reply {n}' } }),
  },
  'PATCH /api/portal/issues/:id': {
    role: 'user',
    input: (fx) => ({ params: { id: fx.ticketId }, body: { status: 'solved' } }),
  },
  'GET /api/admin/tree': { role: 'admin', input: () => ({}) },
  'GET /api/admin/articles/:id': { role: 'admin', input: (fx) => ({ params: { id: fx.draftId } }) },
  'GET /api/admin/articles/:id/revisions': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.articleId } }),
  },
  'GET /api/admin/articles/:id/revisions/:revision': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.articleId, revision: fx.revisionIds[0] ?? 0 } }),
  },
  'GET /api/admin/articles/:id/diff': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.articleId },
      query: { from: fx.revisionIds[0] ?? 0, to: fx.revisionIds[1] ?? 0 },
    }),
  },
  'GET /api/admin/branding': { role: 'admin', input: () => ({}) },
  'GET /api/admin/users': { role: 'admin', input: () => ({}) },
  'GET /api/ticket-files/:id': {
    input: (fx) => ({ params: { id: fx.uploadId }, query: { ...fx.uploadLink } }),
  },
  'GET /assets/*': { input: (fx) => ({ params: { '*': fx.asset ?? 'missing.js' } }) },
  'GET /admin': { input: () => ({}) },
  'GET /admin/*': { input: () => ({ params: { '*': 'articles/1' } }) },
  'GET /': { input: () => ({}) },
  'GET /favicon.svg': { input: () => ({}) },
  'GET /robots.txt': { input: () => ({}) },
  'GET /sitemap.xml': { input: () => ({}) },
  // One part (the fixture's few pages make none): the hostile values meet the part's parsing all the same.
  'GET /sitemaps/:part': { input: () => ({ params: { part: '1.xml' } }) },
  'GET /login': { input: () => ({}) },
  'GET /signup': { input: () => ({}) },
  'GET /forgot-password': { input: () => ({}) },
  'GET /request-link': { input: () => ({}) },
  'GET /new-password': { input: () => ({}) },
  'GET /accept-invite': { input: () => ({}) },
  'GET /verify-email': { input: () => ({}) },
  'GET /issues': { input: () => ({}) },
  'GET /issues/create': { input: () => ({}) },
  'GET /issues/:id': { input: (fx) => ({ params: { id: fx.ticketId } }) },
  'GET /user/profile': { input: () => ({}) },
  // A portal form sent before its page's scripts ran comes back to its page, whatever it carries.
  'POST /login': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /signup': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /forgot-password': {
    accept: [303],
    input: () => ({ body: { email: 'a@example.com', password: 'x' } }),
  },
  'POST /request-link': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /new-password': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /accept-invite': {
    accept: [303],
    input: () => ({ body: { email: 'a@example.com', password: 'x' } }),
  },
  'POST /verify-email': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /issues': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /issues/create': {
    accept: [303],
    input: () => ({ body: { email: 'a@example.com', password: 'x' } }),
  },
  'POST /user/profile': { accept: [303], input: () => ({ body: { email: 'a@example.com', password: 'x' } }) },
  'POST /issues/:id': {
    accept: [303],
    input: (fx) => ({ params: { id: fx.ticketId }, body: { message: 'x' } }),
  },
  'GET /knowledge': { input: () => ({}) },
  'GET /knowledge/*': [
    { label: 'home', input: () => ({ params: { '*': '' } }) },
    {
      label: 'category page',
      input: (fx) => ({ path: '/knowledge/category/:id', params: { id: fx.categoryId } }),
    },
    {
      label: 'article page',
      input: (fx) => ({ path: '/knowledge/instruction/:id', params: { id: fx.articleId } }),
    },
    { label: 'search page', input: () => ({ path: '/knowledge/search', query: { query: 'wifi' } }) },
    { label: 'unknown page', accept: [404], input: () => ({ params: { '*': 'no-such-page' } }) },
  ],
  'POST /api/auth/login': {
    input: (fx) => ({ body: { email: fx.loginEmail, password: DEFAULT_PASSWORD } }),
  },
  // Each request signs out a session of its own, never the suite's.
  'POST /api/auth/logout': { role: 'user', input: async (fx) => ({ token: await fx.freshToken() }) },
  // Signs out every session of another account, never the suite's.
  'POST /api/auth/logout-everywhere': {
    role: 'user',
    input: async (fx) => ({ token: await fx.otherToken() }),
  },
  // No SMTP_URL here: accounts that need an emailed link are refused plainly (403), never half made.
  'POST /api/auth/signup': {
    accept: [403],
    input: () => ({
      body: { name: 'Hostile {n}', email: 'signup-{n}@example.com', password: 'long-enough-{n}' },
    }),
  },
  'POST /api/auth/password-reset': {
    accept: [403],
    input: () => ({ body: { email: 'reset-{n}@example.com' } }),
  },
  'POST /api/portal/issue-links': {
    accept: [403],
    input: () => ({ body: { email: 'links-{n}@example.com' } }),
  },
  'POST /api/auth/verify-email': { accept: [400], input: () => ({ body: { token: 'not.a-link' } }) },
  'POST /api/auth/new-password': {
    accept: [400],
    input: () => ({ body: { token: 'not.a-link', password: 'long-enough-{n}' } }),
  },
  'POST /api/auth/accept-invite': {
    accept: [400],
    input: () => ({ body: { token: 'not.a-link', password: 'long-enough-{n}' } }),
  },
  'PATCH /api/user/me': { role: 'user', input: () => ({ body: { name: 'Hostile {n}' } }) },
  // Each deletes an account of its own, made for it, never the suite's.
  'DELETE /api/user/me': {
    role: 'user',
    input: async (fx) => ({ token: await fx.throwawayToken(), body: { password: DEFAULT_PASSWORD } }),
  },
  'POST /api/search/events': [
    { label: 'search', input: () => ({ body: { type: 'search', query: 'wifi {n}', found: 1 } }) },
    {
      label: 'search result opened',
      input: (fx) => ({ body: { type: 'open', query: 'wifi {n}', id: fx.articleId } }),
    },
    {
      label: 'suggested article opened',
      input: (fx) => ({ body: { type: 'suggestion_open', id: fx.articleId } }),
    },
    {
      label: 'request sent after suggestions',
      input: (fx) => ({ body: { type: 'request_sent', opened: [fx.articleId] } }),
    },
  ],
  'POST /api/file': {
    input: () => ({
      multipart: [{ name: 'file[]', filename: 'note-{n}.txt', type: 'text/plain', content: 'hello' }],
    }),
  },
  'POST /panel/api/issue-open': {
    role: 'user',
    input: () => ({
      body: {
        title: 'Help {n}',
        description: 'It does not work',
        channel: 'web',
        name: 'Ann',
        email: 'ann@example.com',
        files: [],
        g_recaptcha_response: '',
      },
    }),
  },
  'POST /api/admin/sections': {
    role: 'admin',
    input: () => ({ body: { name: 'Section {n}', position: 0 } }),
  },
  'POST /api/admin/categories': {
    role: 'admin',
    input: (fx) => ({
      body: {
        section_id: fx.sectionId,
        parent_id: fx.categoryId,
        name: 'Category {n}',
        description: '<p>About {n}</p>',
        font_icon: 'star',
        icon_file_id: null,
        position: 0,
      },
    }),
  },
  'POST /api/admin/articles': {
    role: 'admin',
    input: (fx) => ({
      body: {
        section_id: fx.sectionId,
        category_id: fx.categoryId,
        title: 'Article {n}',
        body_html: '<p>Body {n}</p>',
        published: false,
        can_create_issue: false,
        lang: null,
        file_ids: [],
        position: 0,
      },
    }),
  },
  'POST /api/admin/move': {
    role: 'admin',
    input: (fx) => ({
      body: { kind: 'article', id: fx.movableId, section_id: fx.sectionId, parent_id: null, index: 0 },
    }),
  },
  'POST /api/admin/articles/:id/revisions/:revision/restore': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.articleId, revision: fx.revisionIds[0] ?? 0 } }),
  },
  'POST /api/admin/preview': { role: 'admin', input: () => ({ body: { html: '<p>Preview {n}</p>' } }) },
  'POST /api/admin/preview/article': {
    role: 'admin',
    input: (fx) => ({
      body: {
        article_id: fx.articleId,
        section_id: fx.sectionId,
        category_id: fx.categoryId,
        title: 'Preview {n}',
        body_html: '<p>Preview</p>',
        can_create_issue: true,
        file_ids: [fx.fileId],
      },
    }),
  },
  'POST /api/admin/tickets/:id/messages': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.ticketId }, body: { body: 'Reply {n}', internal: true } }),
  },
  'POST /api/admin/users': {
    role: 'admin',
    input: () => ({
      body: { email: 'new-{n}@example.com', name: 'New {n}', password: 'long enough {n}', role: 'customer' },
    }),
  },
  // No SMTP_URL here either: an invitation is refused plainly (403), and no account is made.
  'POST /api/admin/invitations': {
    role: 'admin',
    accept: [403],
    input: () => ({ body: { email: 'invite-{n}@example.com', name: 'Invited {n}' } }),
  },
  'POST /api/admin/files': {
    role: 'admin',
    input: () => ({
      multipart: [{ name: 'file', filename: 'guide-{n}.txt', type: 'text/plain', content: 'how to' }],
    }),
  },
  'PATCH /api/admin/sections/:id': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.sectionId }, body: { name: 'Hostile section {n}' } }),
  },
  'PATCH /api/admin/categories/:id': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.categoryId },
      body: {
        name: 'Hostile category {n}',
        description: '<p>{n}</p>',
        font_icon: 'star',
        icon_file_id: null,
      },
    }),
  },
  'PATCH /api/admin/articles/:id': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.draftId },
      body: {
        title: 'Draft {n}',
        body_html: '<p>Draft {n}</p>',
        published: false,
        can_create_issue: true,
        lang: 'en',
        file_ids: [fx.fileId],
      },
    }),
  },
  'PATCH /api/admin/branding': {
    role: 'admin',
    input: () => ({
      body: {
        knowledge_title: 'Help {n}',
        site_title: 'Site',
        lang: 'en',
        knowledge_enabled: true,
        portal_enabled: true,
        project_id: null,
        logo_file_id: null,
        background_file_id: null,
        footer_links: [{ label: 'Status {n}', url: 'https://status.example.com/{n}' }],
        titles: { ru: { knowledge_title: 'Справка {n}', site_title: 'Сайт' } },
      },
    }),
  },
  'PATCH /api/admin/users/:id': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.targetUserId },
      body: { name: 'Target {n}', password: 'another password', role: 'customer' },
    }),
  },
  // Deletes remove a row made for the request, so every request has something to delete.
  'DELETE /api/admin/sections/:id': {
    role: 'admin',
    input: async (fx) => ({ params: { id: (await buildSection(fx.ctx.db)).id }, query: {} }),
  },
  'DELETE /api/admin/categories/:id': {
    role: 'admin',
    input: async (fx) => ({
      params: { id: (await buildCategory(fx.ctx.db, { section_id: fx.sectionId })).id },
      query: {},
    }),
  },
  'DELETE /api/admin/articles/:id': {
    role: 'admin',
    input: async (fx) => ({
      params: { id: (await buildArticle(fx.ctx.db, { section_id: fx.sectionId, published: 0 })).id },
    }),
  },
  'DELETE /api/admin/users/:id': {
    role: 'admin',
    input: async (fx) => ({ params: { id: (await throwawayUser(fx)).id } }),
  },
  // Translations: reads and saves go to the fixture's items; publishing and deleting to a translation made for them.
  'GET /api/admin/translations': { role: 'admin', input: () => ({ query: { lang: 'ru' } }) },
  'GET /api/admin/sections/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.sectionId, lang: 'ru' } }),
  },
  'GET /api/admin/categories/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.categoryId, lang: 'ru' } }),
  },
  'GET /api/admin/articles/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({ params: { id: fx.articleId, lang: 'ru' } }),
  },
  'PUT /api/admin/sections/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.sectionId, lang: 'ru' },
      body: { name: 'Раздел {n}', published: true },
    }),
  },
  'PUT /api/admin/categories/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.categoryId, lang: 'ru' },
      body: { name: 'Категория {n}', description: '<p>Описание {n}</p>', published: true },
    }),
  },
  'PUT /api/admin/articles/:id/translations/:lang': {
    role: 'admin',
    input: (fx) => ({
      params: { id: fx.articleId, lang: 'ru' },
      body: { title: 'Статья {n}', body_html: '<p>Текст {n}</p>', published: false, file_ids: [fx.fileId] },
    }),
  },
  'PUT /api/admin/sections/:id/translations/:lang/published': {
    role: 'admin',
    input: async (fx) => ({
      params: { id: (await translatedSection(fx)).section_id, lang: 'it' },
      body: { published: false },
    }),
  },
  'PUT /api/admin/categories/:id/translations/:lang/published': {
    role: 'admin',
    input: async (fx) => ({
      params: { id: (await translatedCategory(fx)).category_id, lang: 'it' },
      body: { published: false },
    }),
  },
  'PUT /api/admin/articles/:id/translations/:lang/published': {
    role: 'admin',
    input: async (fx) => ({
      params: { id: (await translatedArticle(fx)).article_id, lang: 'it' },
      body: { published: true },
    }),
  },
  'DELETE /api/admin/sections/:id/translations/:lang': {
    role: 'admin',
    input: async (fx) => ({ params: { id: (await translatedSection(fx)).section_id, lang: 'it' } }),
  },
  'DELETE /api/admin/categories/:id/translations/:lang': {
    role: 'admin',
    input: async (fx) => ({ params: { id: (await translatedCategory(fx)).category_id, lang: 'it' } }),
  },
  'DELETE /api/admin/articles/:id/translations/:lang': {
    role: 'admin',
    input: async (fx) => ({ params: { id: (await translatedArticle(fx)).article_id, lang: 'it' } }),
  },
};

const translatedSection = (fx: Fixture) => hiddenTranslations.section(fx.ctx.db);
const translatedCategory = (fx: Fixture) => hiddenTranslations.category(fx.ctx.db, fx.sectionId);
const translatedArticle = (fx: Fixture) => hiddenTranslations.article(fx.ctx.db, fx.sectionId);

let counter = 0;
const throwawayUser = (fx: Fixture) =>
  insertUser(fx.ctx.db, {
    email: `throwaway-${++counter}@example.com`,
    name: 'Throwaway',
    password_hash: fx.passwordHash,
    role: 'customer',
    email_verified_at: null,
  });

/** Tables whose rows change on requests that are refused, by design. */
const NOT_COMPARED = new Set([
  // Counted per request, refused or not: that is what a rate limit is.
  'rate_limits',
  // Spent captcha solutions (unused with CAPTCHA_PROVIDER=none, and spent by attempts that fail later).
  'captcha_uses',
]);
/**
 * An upload refused part-way (413, a broken part) has written some bytes; they wait for the sweep of unused bytes
 * (files/store-uploads.ts) rather than being removed on the spot. No file row points at them.
 */
const NOT_COMPARED_FOR_UPLOADS = new Set([...NOT_COMPARED, 'file_blobs', 'file_blob_chunks']);

const ORDER: Record<string, number> = { GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 };
const API_PATH = /^\/(api|panel|files|assets|healthz|readyz|metrics)(\/|$)/;

interface RouteInfo {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
  /** The route's own, when it has one; else the app's. */
  bodyLimit: number | undefined;
}

interface RouteCase {
  key: string;
  label: string;
  route: RouteInfo;
  example: Example;
  derived: boolean;
}

type Change =
  | {
      at: 'params' | 'query' | 'body' | 'header' | 'part';
      field: string;
      value: HostileValue;
      item?: boolean;
    }
  | { at: 'raw-body'; raw: RawBody }
  | { at: 'target'; edit: (target: string) => string }
  | { at: 'extra-header'; name: string; value: string };

interface Planned {
  label: string;
  change?: Change;
}

interface Findings {
  coverage: string[];
  baseline: string[];
  serverErrors: string[];
  rateLimited: string[];
  shape: string[];
  health: string[];
  dataChanged: string[];
  logged: string[];
  requests: number;
  routes: number;
  cases: number;
  derived: string[];
  seconds: number;
  accepted: number;
}

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
}

function kindOf(schema: JsonSchema | undefined): FieldKind {
  const types = new Set<string>();
  const visit = (s: JsonSchema | undefined) => {
    if (!s) return;
    for (const t of ([] as string[]).concat(s.type ?? [])) types.add(t);
    if ('const' in s) types.add(typeof s.const === 'string' ? 'string' : typeof s.const);
    s.anyOf?.forEach(visit);
  };
  visit(schema);
  if (types.has('integer') || types.has('number')) return 'number';
  if (types.has('string')) return 'text';
  if (types.has('boolean')) return 'boolean';
  if (types.has('array')) return 'array';
  if (types.has('object')) return 'object';
  return 'any';
}

/** Properties of an object schema, or of every branch of a union of them. */
function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  const own = schema.properties ?? {};
  return Object.assign({}, ...(schema.anyOf ?? []).map(propertiesOf), own);
}

/** A value the schema accepts, for a route without an example; null when none can be made up. */
function valueFor(schema: JsonSchema): unknown {
  if ('const' in schema) return schema.const;
  if (schema.anyOf?.length) return valueFor(schema.anyOf[0] as JsonSchema);
  const type = ([] as string[]).concat(schema.type ?? [])[0];
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'string') return schema.pattern || schema.format ? null : 'x'.repeat(schema.minLength ?? 1);
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return objectFor(schema);
  return null;
}

function objectFor(schema: JsonSchema | undefined): Record<string, unknown> | null {
  const result: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) {
    const value = valueFor(schema?.properties?.[name] ?? {});
    if (value === null) return null;
    result[name] = value;
  }
  return result;
}

/** Valid input made up from a route's schema alone: how a route added without an example is still covered. */
function deriveExample(route: RouteInfo): Example | null {
  const schema = route.schema as Record<string, JsonSchema> | undefined;
  if (!schema || route.url.includes('*')) return null;
  const parts: Record<string, Record<string, unknown> | null> = {};
  for (const part of ['params', 'querystring', 'body'] as const) {
    parts[part] = schema[part] ? objectFor(schema[part]) : {};
    if (parts[part] === null) return null;
    if (schema[part] && !Value.Check(schema[part] as never, parts[part])) return null;
  }
  const headers = propertiesOf(schema.headers);
  return {
    role: AUTH_HEADER in headers ? 'admin' : 'anonymous',
    // Made-up ids name nothing: a route may answer 404 or 409, but the input passed its schema.
    accept: [401, 403, 404, 409, 422],
    input: () => ({
      params: parts.params as Input['params'],
      query: parts.querystring as Input['query'],
      ...(schema.body ? { body: parts.body ?? {} } : {}),
    }),
  };
}

function fillCounter<T>(value: T, n: number): T {
  if (typeof value === 'string') return value.replaceAll('{n}', String(n)) as T;
  if (Array.isArray(value)) return value.map((v) => fillCounter(v, n)) as T;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillCounter(v, n)])) as T;
  }
  return value;
}

function jsonWith(body: Record<string, unknown>, field: string, raw: string): string {
  const rest = { ...body };
  delete rest[field];
  const inner = JSON.stringify(rest).slice(1, -1);
  return `{${inner}${inner ? ',' : ''}${JSON.stringify(field)}:${raw}}`;
}

/** Stable text of a row for the digest: key order fixed, bytes as hex. */
function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((key) => {
        const value = row[key];
        if (Buffer.isBuffer(value) || value instanceof Uint8Array)
          return [key, Buffer.from(value).toString('hex')];
        if (typeof value === 'bigint') return [key, value.toString()];
        return [key, value];
      }),
  );
}

/** SHA-1 of one table's rows, so a difference names the table. */
async function digestTable(ctx: AppContext, name: string) {
  const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(ctx.db);
  const hash = crypto.createHash('sha1');
  for (const line of rows.rows.map(rowText).sort()) hash.update(line).update('\n');
  return hash.digest('hex');
}

async function tableNames(ctx: AppContext, dialect: Dialect) {
  const tables =
    dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
          ctx.db,
        )
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
          ctx.db,
        );
  return tables.rows.map((row) => row.name).filter((name) => name !== TOUCHED);
}

/** The log of written tables that the digests read; not one of the app's. */
const TOUCHED = 'hostile_touched';

/**
 * Digests of every table, each read again only when a write may have changed it since it was last read. Triggers
 * log the name of each table written to: temporary ones on SQLite (the app's one connection is the one they live
 * on, and they leave its schema as it was), statement triggers on PostgreSQL. Taking the log deletes what it
 * returns, so a write committed meanwhile is read the next time. SQLite's full-text tables, which take no
 * trigger, are read every time. `check` reads every table again and names those that changed unlogged: it keeps
 * the log honest.
 */
async function trackTables(ctx: AppContext, dialect: Dialect) {
  const names = await tableNames(ctx, dialect);
  const untracked = new Set<string>();
  if (dialect === 'sqlite') {
    const virtual = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and sql like 'CREATE VIRTUAL TABLE%'`.execute(ctx.db);
    for (const name of names)
      if (virtual.rows.some((v) => name === v.name || name.startsWith(`${v.name}_`))) untracked.add(name);
    await sql`create temp table ${sql.raw(TOUCHED)} (id integer primary key, name text not null)`.execute(
      ctx.db,
    );
    for (const name of names) {
      if (untracked.has(name)) continue;
      for (const event of ['insert', 'update', 'delete']) {
        await sql`create temp trigger ${sql.raw(`"${TOUCHED}_${name}_${event}"`)} after ${sql.raw(event)}
          on main.${sql.table(name)} begin insert into temp.${sql.raw(TOUCHED)} (name) values (${sql.lit(name)}); end`.execute(
          ctx.db,
        );
      }
    }
  } else {
    await sql`create table ${sql.raw(TOUCHED)} (id bigserial primary key, name text not null)`.execute(
      ctx.db,
    );
    await sql`create function hostile_touch() returns trigger language plpgsql as $$
      begin insert into ${sql.raw(TOUCHED)} (name) values (TG_TABLE_NAME); return null; end $$`.execute(
      ctx.db,
    );
    for (const name of names) {
      await sql`create trigger hostile_touch after insert or update or delete or truncate on ${sql.table(name)}
        for each statement execute function hostile_touch()`.execute(ctx.db);
    }
  }
  const takeLog = async () => {
    const taken = await sql<{ name: string }>`delete from ${sql.raw(TOUCHED)} returning name`.execute(ctx.db);
    return new Set(taken.rows.map((row) => row.name));
  };
  const known = new Map<string, string>();
  return {
    /** Every table's digest but those skipped, per table. */
    async digests(skip: Set<string>) {
      const written = await takeLog();
      const digests = new Map<string, string>();
      // The schema is the migrations' for the whole run: the names read once are every table.
      for (const name of names) {
        if (skip.has(name)) continue;
        let digest = known.get(name);
        if (digest === undefined || written.has(name) || untracked.has(name)) {
          digest = await digestTable(ctx, name);
          known.set(name, digest);
        }
        digests.set(name, digest);
      }
      for (const name of written) if (skip.has(name)) known.delete(name);
      return digests;
    },
    /** The tables whose rows changed since they were last read with no write logged. */
    async check() {
      const written = await takeLog();
      const unlogged: string[] = [];
      for (const [name, digest] of known) {
        const now = await digestTable(ctx, name);
        if (!written.has(name) && now !== digest) unlogged.push(name);
        known.set(name, now);
      }
      return unlogged;
    },
  };
}

const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((table) => before.get(table) !== after.get(table));

function captureLogs() {
  const errors: string[] = [];
  let pending = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        const entry = JSON.parse(line) as {
          level: number;
          msg?: string;
          err?: { message?: string };
        };
        if (entry.level >= 50) errors.push(`${entry.msg ?? ''}: ${entry.err?.message ?? line.slice(0, 300)}`);
      }
      done();
    },
  });
  return { stream, errors };
}

const describeBody = (response: RawResponse) => response.body.toString('utf8').slice(0, 300);

type Call = (
  method: string,
  target: string,
  options?: { token?: string; json?: unknown; multipart?: FilePart[] },
) => Promise<Record<string, unknown> & { id: number }>;

/** A small tree, users of each role, a support request with an upload: what the examples' ids point at. */
async function createFixture(ctx: AppContext, call: Call) {
  // Content through the API as an admin makes it; users from the factories.
  const admin = await buildUser(ctx.db, { role: 'admin' });
  const user = await buildUser(ctx.db);
  const loginUser = await buildUser(ctx.db);
  const target = await buildUser(ctx.db);
  const signIn = async (email: string) =>
    String((await call('POST', '/api/auth/login', { json: { email, password: DEFAULT_PASSWORD } })).token);
  const tokens: Record<Role, string | undefined> = {
    anonymous: undefined,
    admin: await signIn(admin.email),
    user: await signIn(user.email),
  };
  const asAdmin = { token: tokens.admin };
  const section = await call('POST', '/api/admin/sections', {
    ...asAdmin,
    json: { name: 'Hostile section' },
  });
  const category = await call('POST', '/api/admin/categories', {
    ...asAdmin,
    json: { section_id: section.id, name: 'Hostile category', description: '<p>Wifi help</p>' },
  });
  const uploaded = (await call('POST', '/api/admin/files', {
    ...asAdmin,
    multipart: [{ name: 'file', filename: 'guide.txt', type: 'text/plain', content: 'How to set up wifi' }],
  })) as unknown as { items: { id: number; name: string }[] };
  const file = uploaded.items[0] as { id: number; name: string };
  const article = await call('POST', '/api/admin/articles', {
    ...asAdmin,
    json: {
      section_id: section.id,
      category_id: category.id,
      title: 'Wifi setup',
      body_html: '<p>Connect to the wifi</p>',
      published: true,
      file_ids: [file.id],
    },
  });
  await call('PATCH', `/api/admin/articles/${article.id}`, {
    ...asAdmin,
    json: { title: 'Wifi setup guide' },
  });
  const draft = await call('POST', '/api/admin/articles', {
    ...asAdmin,
    json: { section_id: section.id, title: 'Unpublished wifi notes', published: false },
  });
  const movable = await call('POST', '/api/admin/articles', {
    ...asAdmin,
    json: { section_id: section.id, title: 'Movable', published: true },
  });
  const revisions = (await call(
    'GET',
    `/api/admin/articles/${article.id}/revisions`,
    asAdmin,
  )) as unknown as {
    items: { id: number }[];
  };
  const upload = (await call('POST', '/api/file', {
    token: tokens.user,
    multipart: [{ name: 'file[]', filename: 'screenshot.txt', type: 'text/plain', content: 'error 42' }],
  })) as unknown as { id: number }[];
  const uploadId = (upload[0] as { id: number }).id;
  const ticket = (await call('POST', '/panel/api/issue-open', {
    token: tokens.user,
    json: {
      title: 'Wifi broken',
      description: 'It drops',
      name: 'Ann',
      email: 'ann@example.com',
      files: [uploadId],
    },
  })) as unknown as { data: { id: number } };
  const link = new URL(await signFileLink(ctx, uploadId));
  const assetsDir = path.join(WEB_DIST, 'assets');
  const fx: Fixture = {
    sectionId: section.id,
    categoryId: category.id,
    articleId: article.id,
    draftId: draft.id,
    movableId: movable.id,
    fileId: file.id,
    fileName: file.name,
    ticketId: ticket.data.id,
    uploadId,
    uploadLink: {
      expires: link.searchParams.get('expires') ?? '',
      signature: link.searchParams.get('signature') ?? '',
    },
    revisionIds: revisions.items.map((r) => r.id).sort((a, b) => a - b),
    loginEmail: loginUser.email,
    targetUserId: target.id,
    asset: fs.existsSync(assetsDir) ? (fs.readdirSync(assetsDir)[0] ?? null) : null,
    freshToken: () => signIn(user.email),
    otherToken: () => signIn(loginUser.email),
    throwawayToken: async () => signIn((await buildUser(ctx.db)).email),
    passwordHash: await ctx.passwords.hash('throwaway password'),
    ctx,
  };
  return { fx, tokens };
}

async function runSuite(dialect: Dialect): Promise<Findings> {
  const started = performance.now();
  const findings: Findings = {
    coverage: [],
    baseline: [],
    serverErrors: [],
    rateLimited: [],
    shape: [],
    health: [],
    dataChanged: [],
    logged: [],
    requests: 0,
    routes: 0,
    cases: 0,
    derived: [],
    seconds: 0,
    accepted: 0,
  };
  // Limits and the captcha out of the way, so each value reaches the code behind them. Names another change may
  // add are set too; the configuration ignores names it does not know.
  const environment: TestEnvironment = await createTestEnvironment(dialect, {
    LOG_LEVEL: 'info',
    TRUST_PROXY: 'true',
    CAPTCHA_PROVIDER: 'none',
    REQUESTS_PER_HOUR: '1000000',
    UPLOADS_PER_HOUR: '1000000',
    UPLOAD_MB_PER_HOUR: '1000000',
    UPLOADS_PENDING_MAX_MB: '1000000',
    PASSWORD_SCRYPT_N: '1024',
    PASSWORD_HASHING_QUEUE: '1000',
    // Every request names a client in X-Forwarded-For, which /metrics refuses without this (ops.test.ts).
    METRICS_PUBLIC: 'true',
  });
  const ctx = await createContext(environment.config);
  const logs = captureLogs();
  const routes: RouteInfo[] = [];
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(ctx, {
      forceCloseConnections: true,
      logStream: logs.stream,
      onRoute: (route: RouteOptions) => {
        for (const method of ([] as string[]).concat(route.method)) {
          routes.push({
            method,
            url: route.url,
            schema: route.schema as Record<string, unknown> | undefined,
            bodyLimit: route.bodyLimit,
          });
        }
      },
    });
    await ctx.search.refresh();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const host = `127.0.0.1:${port}`;

    let address = 0;
    const nextAddress = () => {
      address += 1;
      return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    };

    const call = async (
      method: string,
      target: string,
      options: { token?: string; json?: unknown; multipart?: FilePart[] } = {},
    ) => {
      const headers: [string, string][] = [
        ['Host', host],
        ['Connection', 'close'],
        ['X-Forwarded-For', nextAddress()],
      ];
      if (options.token) headers.push([AUTH_HEADER, options.token]);
      let body: Buffer | undefined;
      if (options.json !== undefined) {
        headers.push(['Content-Type', 'application/json']);
        body = Buffer.from(JSON.stringify(options.json));
      } else if (options.multipart) {
        headers.push(['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`]);
        body = multipartBody(options.multipart);
      }
      const response = await sendRaw(port, { method, target, headers, body });
      if (response.status >= 300) {
        throw new Error(`fixture: ${method} ${target} answered ${response.status} ${describeBody(response)}`);
      }
      return JSON.parse(response.body.toString('utf8')) as Record<string, unknown> & { id: number };
    };

    const { fx, tokens } = await createFixture(ctx, call);

    // The comparison must see what it is meant to: every table of the schema, and a change to any of them.
    const tracked = await trackTables(ctx, dialect);
    const tablesBefore = await tracked.digests(NOT_COMPARED);
    await buildSection(ctx.db);
    const seenChange = changedTables(tablesBefore, await tracked.digests(NOT_COMPARED));
    for (const table of ['sections', 'categories', 'articles', 'files', 'users', 'tickets', 'settings']) {
      if (!tablesBefore.has(table)) findings.dataChanged.push(`the digest leaves out the table ${table}`);
    }
    if (!seenChange.includes('sections')) findings.dataChanged.push('a new section went unseen');

    // Every route once: HEAD answers from its GET's handler, so the GET stands for both.
    const seen = new Set<string>();
    const registered = routes.filter((route) => {
      const key = `${route.method} ${route.url}`;
      if (route.method === 'HEAD' && routes.some((r) => r.method === 'GET' && r.url === route.url))
        return false;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    findings.routes = registered.length;
    for (const key of Object.keys(EXAMPLES)) {
      if (!seen.has(key)) findings.coverage.push(`EXAMPLES names ${key}, which is not a registered route`);
    }
    const cases: RouteCase[] = [];
    for (const route of registered) {
      const key = `${route.method} ${route.url}`;
      const given = EXAMPLES[key];
      if (given) {
        for (const example of ([] as Example[]).concat(given)) {
          cases.push({
            key,
            label: example.label ? `${key} (${example.label})` : key,
            route,
            example,
            derived: false,
          });
        }
        continue;
      }
      const derived = deriveExample(route);
      if (derived) {
        cases.push({ key, label: `${key} (from its schema)`, route, example: derived, derived: true });
        findings.derived.push(key);
      } else {
        findings.coverage.push(
          `${key}: no example in EXAMPLES and no valid input can be made from its schema; add it to EXAMPLES`,
        );
      }
    }
    cases.sort((a, b) => (ORDER[a.route.method] ?? 1) - (ORDER[b.route.method] ?? 1));
    findings.cases = cases.length;

    const prepare = async (c: RouteCase): Promise<Input> => fillCounter(await c.example.input(fx), ++counter);

    const requestFor = (c: RouteCase, input: Input, change?: Change): RawRequest | null => {
      let missing = false;
      const template = input.path ?? c.route.url;
      let target = template.replace(/:(\w+)|\*/g, (_match, name: string | undefined) => {
        const key = name ?? '*';
        if (change?.at === 'params' && change.field === key) {
          if (change.value.url === undefined) missing = true;
          return change.value.url ?? '';
        }
        const value = String(input.params?.[key] ?? '');
        return key === '*' ? value : encodeURIComponent(value);
      });
      const pairs: [string, string][] = Object.entries(input.query ?? {}).map(([k, v]) => [
        k,
        encodeURIComponent(String(v)),
      ]);
      if (change?.at === 'query') {
        const kept = pairs.filter(([k]) => k !== change.field);
        const { url, urlRepeated } = change.value;
        if (url !== undefined) kept.push([change.field, url]);
        else if (urlRepeated)
          for (const item of urlRepeated) kept.push([change.field, encodeURIComponent(item)]);
        else missing = true;
        pairs.splice(0, pairs.length, ...kept);
      }
      if (pairs.length) target += `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`;
      if (change?.at === 'target') target = change.edit(target);

      const headers: [string, string][] = [
        ['Host', host],
        ['Connection', 'close'],
        ['X-Forwarded-For', nextAddress()],
      ];
      const token = input.token ?? tokens[c.example.role ?? 'anonymous'];
      if (change?.at === 'header') {
        if (change.value.header === undefined) return null;
        if (change.field !== AUTH_HEADER && token) headers.push([AUTH_HEADER, token]);
        headers.push([change.field, change.value.header]);
      } else if (token) {
        headers.push([AUTH_HEADER, token]);
      }
      if (change?.at === 'extra-header') {
        const at = headers.findIndex(([name]) => name.toLowerCase() === change.name.toLowerCase());
        if (at >= 0) headers.splice(at, 1);
        headers.push([change.name, change.value]);
      }

      let body: Buffer | undefined;
      let noContentLength = false;
      if (c.route.method !== 'GET') {
        if (change?.at === 'raw-body') {
          if (change.raw.contentType !== undefined) headers.push(['Content-Type', change.raw.contentType]);
          for (const header of change.raw.headers ?? []) headers.push(header);
          noContentLength = (change.raw.headers ?? []).some(([name]) => /^transfer-encoding$/i.test(name));
          body = change.raw.body;
        } else if (input.multipart) {
          const parts = input.multipart.map((part) => ({ ...part }));
          if (change?.at === 'part') {
            const first = parts[0] as FilePart & Record<string, unknown>;
            if (change.value.header === undefined) return null;
            first[change.field] = change.value.header;
          }
          headers.push(['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`]);
          body = multipartBody(parts);
        } else if (input.body !== undefined || change?.at === 'body') {
          const valid = input.body ?? {};
          let text = JSON.stringify(valid);
          if (change?.at === 'body') {
            if (change.value.json === undefined) return null;
            text = jsonWith(valid, change.field, change.item ? `[${change.value.json}]` : change.value.json);
          }
          headers.push(['Content-Type', 'application/json']);
          body = Buffer.from(text, 'utf8');
        }
      }
      if (missing) return null;
      return { method: c.route.method, target, headers, body, noContentLength };
    };

    const check = (c: RouteCase, label: string, request: RawRequest, response: RawResponse) => {
      findings.requests += 1;
      const what = `${c.label} ${label}`;
      if (response.status === 0) {
        findings.serverErrors.push(`${what}: ${response.error ?? 'no answer'}`);
        return;
      }
      if (response.status < 400) findings.accepted += 1;
      if (response.status >= 500) {
        findings.serverErrors.push(`${what}: ${response.status} ${describeBody(response)}`);
      }
      if (response.status === 429) findings.rateLimited.push(`${what}: 429 ${describeBody(response)}`);
      const pathname = request.target.split('?')[0] ?? '';
      const json = /^application\/json/.test(response.headers['content-type'] ?? '');
      if (response.status >= 400 && request.method !== 'HEAD' && (API_PATH.test(pathname) || json)) {
        let body: unknown;
        try {
          body = JSON.parse(response.body.toString('utf8'));
        } catch {
          body = undefined;
        }
        const error = body as ErrorBody;
        if (!json || !Value.Check(ErrorBody, body) || error.status !== response.status) {
          findings.shape.push(
            `${what}: ${response.status} not in the error shape: ${describeBody(response)}`,
          );
        } else if ((response.status === 400 || response.status === 422) && error.data.errors.length === 0) {
          findings.shape.push(`${what}: ${response.status} names no field: ${describeBody(response)}`);
        } else if (/\bat .+:\d+:\d+/.test(response.body.toString('utf8'))) {
          findings.shape.push(`${what}: a stack trace in the answer`);
        }
      }
    };

    const accepted = (c: RouteCase, response: RawResponse) =>
      (response.status >= 200 && response.status < 400) || (c.example.accept ?? []).includes(response.status);

    /**
     * Sends a batch, each request with freshly prepared valid input, and compares the stored data around the
     * requests that were refused: around the whole batch when all were (or when the route only reads), else by
     * sending the refused ones again on their own, and one by one when that still mixes in accepted ones.
     */
    const uploadRoutes = new Set<string>();
    const runBatch = async (c: RouteCase, batch: Planned[], mode: 'batch' | 'again' | 'single' = 'batch') => {
      const skip = uploadRoutes.has(c.key) ? NOT_COMPARED_FOR_UPLOADS : NOT_COMPARED;
      const prepared: { planned: Planned; request: RawRequest }[] = [];
      for (const planned of batch) {
        const request = requestFor(c, await prepare(c), planned.change);
        if (request) prepared.push({ planned, request });
      }
      if (!prepared.length) return;
      const readOnly = c.route.method === 'GET';
      if (mode === 'single') {
        for (const { planned, request } of prepared) {
          const before = await tracked.digests(skip);
          const response = await sendRaw(port, request);
          check(c, planned.label, request, response);
          if (response.status >= 400 || readOnly) {
            const changed = changedTables(before, await tracked.digests(skip));
            if (changed.length) {
              findings.dataChanged.push(
                `${c.label} ${planned.label} (${response.status}) changed ${changed.join(', ')}`,
              );
            }
          }
        }
        return;
      }
      const before = await tracked.digests(skip);
      const refused: Planned[] = [];
      let anyAccepted = false;
      for (const { planned, request } of prepared) {
        const response = await sendRaw(port, request);
        check(c, planned.label, request, response);
        if (response.status >= 400 || response.status === 0) refused.push(planned);
        else anyAccepted = true;
      }
      if (readOnly || !anyAccepted) {
        const changed = changedTables(before, await tracked.digests(skip));
        if (changed.length) {
          const reported = findings.dataChanged.length;
          // Which request was it? Sent again one by one; if none does it again, the batch is named.
          if (prepared.length > 1) await runBatch(c, batch, 'single');
          if (findings.dataChanged.length === reported) {
            findings.dataChanged.push(
              `${c.label} ${prepared.map((p) => p.planned.label).join(', ')} changed ${changed.join(', ')}`,
            );
          }
        }
      } else if (refused.length) {
        await runBatch(c, refused, mode === 'batch' ? 'again' : 'single');
      }
    };

    for (const c of cases) {
      const schema = (c.route.schema ?? {}) as Record<string, JsonSchema>;
      const valid = await prepare(c);
      if (valid.multipart) uploadRoutes.add(c.key);

      // The valid request first: hostile values only mean something next to input the route accepts.
      const request = requestFor(c, valid) as RawRequest;
      const response = await sendRaw(port, request);
      check(c, 'valid input', request, response);
      if (!accepted(c, response) && !(c.derived && response.status !== 400)) {
        findings.baseline.push(
          `${c.label}: valid input answered ${response.status} ${describeBody(response)}`,
        );
      }

      const hasBody = c.route.method !== 'GET';
      const fields: {
        at: 'params' | 'query' | 'body' | 'header' | 'part';
        field: string;
        kind: FieldKind;
      }[] = [];
      const add = (
        at: (typeof fields)[number]['at'],
        names: Iterable<string>,
        props: Record<string, JsonSchema>,
      ) => {
        for (const field of new Set(names)) fields.push({ at, field, kind: kindOf(props[field]) });
      };
      const params = propertiesOf(schema.params);
      add('params', [...Object.keys(params), ...Object.keys(valid.params ?? {})], params);
      const query = propertiesOf(schema.querystring);
      add('query', [...Object.keys(query), ...Object.keys(valid.query ?? {})], query);
      const bodyProps = propertiesOf(schema.body);
      if (hasBody && !valid.multipart)
        add('body', [...Object.keys(bodyProps), ...Object.keys(valid.body ?? {})], bodyProps);
      const headerProps = propertiesOf(schema.headers);
      const headerNames = Object.keys(headerProps);
      if ((valid.token || tokens[c.example.role ?? 'anonymous']) && !headerNames.includes(AUTH_HEADER)) {
        headerNames.push(AUTH_HEADER);
      }
      add('header', headerNames, headerProps);
      if (valid.multipart) add('part', ['filename', 'name', 'type'], {});

      for (const { at, field, kind } of fields) {
        const values = at === 'header' || at === 'part' ? HOSTILE_HEADER_VALUES : hostileValuesFor(kind);
        await runBatch(
          c,
          values.map((value) => ({ label: `${at} ${field} = ${value.label}`, change: { at, field, value } })),
        );
        const items = bodyProps[field]?.items;
        if (at === 'body' && items) {
          await runBatch(
            c,
            hostileValuesFor(kindOf(items)).map((value) => ({
              label: `body ${field}[0] = ${value.label}`,
              change: { at, field, value, item: true },
            })),
          );
        }
      }

      // Once per route: the address itself, the headers every route reads, the body as a whole.
      await runBatch(
        c,
        hostileUrls(fields.some((f) => f.at === 'query')).map(({ label, edit }) => ({
          label: `url: ${label}`,
          change: { at: 'target', edit },
        })),
      );
      await runBatch(
        c,
        COMMON_HEADERS.flatMap((name) =>
          HOSTILE_COMMON_HEADER_VALUES.map((value) => ({
            label: `header ${name} = ${value.label}`,
            change: { at: 'extra-header' as const, name, value: value.header ?? '' },
          })),
        ),
      );
      if (hasBody) {
        const raws = valid.multipart
          ? hostileMultipart(valid.multipart[0] as FilePart)
          : hostileBodies(valid.body ?? {}, c.route.bodyLimit ?? app.initialConfig.bodyLimit ?? 0);
        await runBatch(
          c,
          raws.map((raw) => ({ label: `body: ${raw.label}`, change: { at: 'raw-body', raw } })),
        );
      }

      const health = await sendRaw(port, {
        method: 'GET',
        target: '/healthz',
        headers: [
          ['Host', host],
          ['Connection', 'close'],
        ],
      });
      if (health.status !== 200)
        findings.health.push(`after ${c.label}: /healthz answered ${health.status} ${health.error ?? ''}`);
      const unlogged = await tracked.check();
      if (unlogged.length)
        findings.dataChanged.push(`after ${c.label}: ${unlogged.join(', ')} changed with no write logged`);
    }
    // The last lines of a request are written once its answer has gone.
    await new Promise((resolve) => setTimeout(resolve, 50));
    findings.logged = [...logs.errors];
    // A batch sent again reports its answers again.
    for (const list of ['serverErrors', 'rateLimited', 'shape', 'dataChanged'] as const) {
      findings[list] = [...new Set(findings[list])];
    }
  } finally {
    await app?.close();
    await ctx.database.close();
    await environment.cleanup();
  }
  findings.seconds = Math.round((performance.now() - started) / 1000);
  return findings;
}

describe.each(testDialects())('hostile input on %s', (dialect) => {
  let findings: Findings;
  beforeAll(async () => {
    findings = await runSuite(dialect);
    console.log(
      `hostile input on ${dialect}: ${findings.routes} routes (${findings.cases} cases, ` +
        `${findings.derived.length} from their schema alone), ${findings.requests} requests ` +
        `(${findings.accepted} accepted) in ${findings.seconds} s`,
    );
  }, 900_000);

  it('covers every registered route with valid input it accepts', () => {
    expect(findings.coverage).toEqual([]);
    expect(findings.baseline).toEqual([]);
  });

  it('never answers 5xx, never hangs, never closes without an answer', () => {
    expect(findings.serverErrors).toEqual([]);
  });

  it('lets every value reach the handler: no rate limit in the way', () => {
    expect(findings.rateLimited).toEqual([]);
  });

  it('answers every error in the error shape, naming the field for bad input', () => {
    expect(findings.shape).toEqual([]);
  });

  it('answers /healthz after every route', () => {
    expect(findings.health).toEqual([]);
  });

  it('changes no stored data on refused requests, nor on reads', () => {
    expect(findings.dataChanged).toEqual([]);
  });

  it('logs no error', () => {
    expect(findings.logged).toEqual([]);
  });
});
