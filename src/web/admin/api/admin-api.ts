import type {
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
  ArticlePreview,
  ArticlePreviewBody,
  MoveBody,
  Revision,
  RevisionDiff,
  RevisionList,
  SectionCreateBody,
  SectionUpdateBody,
  UserCreateBody,
  UserUpdateBody,
} from '../../../shared/api/admin.ts';
import type { AuthUser, LoginBody, LoginResult } from '../../../shared/api/auth.ts';
import type { ErrorBody } from '../../../shared/api/common.ts';
import type { Branding, Environments } from '../../../shared/api/settings.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { ApiRequestError, withQuery, type Query } from '../../api/client.ts';
import { readToken } from '../lib/session.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Ok = { ok: true };

/** Fills `:name` placeholders of a path from the contract's path table. */
export const pathOf = (template: string, params: Record<string, number>) =>
  template.replace(/:(\w+)/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

async function request<T>(method: Method, path: string, options: { body?: unknown; query?: Query } = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken();
  if (token) headers[AUTH_HEADER] = token;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  // Same-origin cookies go along (fetch's default, stated): sign-in reads the browser's device cookie.
  const response = await fetch(withQuery(path, options.query), {
    method,
    headers,
    body,
    credentials: 'same-origin',
  });
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiRequestError(response.status, data as ErrorBody | undefined);
  return data as T;
}

const article = (id: number) => pathOf(apiPaths.adminArticle, { id });
const revision = (id: number, rev: number) => pathOf(apiPaths.adminRevision, { id, revision: rev });

/** The authoring calls of src/shared/api/admin.ts, typed by the contract; the token comes from this browser. */
export const adminApi = {
  login: (body: LoginBody) => request<LoginResult>('POST', apiPaths.login, { body }),
  logout: () => request<Ok>('POST', apiPaths.logout),
  me: () => request<AuthUser>('GET', apiPaths.me),

  tree: () => request<AdminTree>('GET', apiPaths.adminTree),
  move: (body: MoveBody) => request<AdminTree>('POST', apiPaths.adminMove, { body }),
  createSection: (body: SectionCreateBody) => request<AdminSection>('POST', apiPaths.adminSections, { body }),
  updateSection: (id: number, body: SectionUpdateBody) =>
    request<AdminSection>('PATCH', pathOf(apiPaths.adminSection, { id }), { body }),
  deleteSection: (id: number, query: DeleteQuery = {}) =>
    request<Ok>('DELETE', pathOf(apiPaths.adminSection, { id }), { query: query as Query }),
  createCategory: (body: CategoryCreateBody) =>
    request<AdminCategory>('POST', apiPaths.adminCategories, { body }),
  updateCategory: (id: number, body: CategoryUpdateBody) =>
    request<AdminCategory>('PATCH', pathOf(apiPaths.adminCategory, { id }), { body }),
  deleteCategory: (id: number, query: DeleteQuery = {}) =>
    request<Ok>('DELETE', pathOf(apiPaths.adminCategory, { id }), { query: query as Query }),

  article: (id: number) => request<AdminArticle>('GET', article(id)),
  createArticle: (body: ArticleCreateBody) => request<AdminArticle>('POST', apiPaths.adminArticles, { body }),
  updateArticle: (id: number, body: ArticleUpdateBody) =>
    request<AdminArticle>('PATCH', article(id), { body }),
  deleteArticle: (id: number) => request<Ok>('DELETE', article(id)),
  revisions: (id: number) => request<RevisionList>('GET', pathOf(apiPaths.adminRevisions, { id })),
  revision: (id: number, rev: number) => request<Revision>('GET', revision(id, rev)),
  diff: (id: number, from: number, to: number) =>
    request<RevisionDiff>('GET', pathOf(apiPaths.adminRevisionDiff, { id }), { query: { from, to } }),
  previewArticle: (body: ArticlePreviewBody) =>
    request<ArticlePreview>('POST', apiPaths.adminArticlePreview, { body }),
  restore: (id: number, rev: number) =>
    request<AdminArticle>('POST', pathOf(apiPaths.adminRevisionRestore, { id, revision: rev })),

  uploadFiles: (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    return request<AdminFileList>('POST', apiPaths.adminFiles, { body: form });
  },

  branding: () => request<Branding>('GET', apiPaths.adminBranding),
  environments: () => request<Environments>('GET', apiPaths.environments),
  updateBranding: (body: BrandingUpdateBody) => request<Branding>('PATCH', apiPaths.adminBranding, { body }),

  users: () => request<AdminUserList>('GET', apiPaths.adminUsers),
  createUser: (body: UserCreateBody) => request<AdminUser>('POST', apiPaths.adminUsers, { body }),
  updateUser: (id: number, body: UserUpdateBody) =>
    request<AdminUser>('PATCH', pathOf(apiPaths.adminUser, { id }), { body }),
  deleteUser: (id: number) => request<Ok>('DELETE', pathOf(apiPaths.adminUser, { id })),
};
