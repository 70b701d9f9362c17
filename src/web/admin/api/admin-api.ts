import type { EndpointInput, EndpointName } from '../../../shared/api/endpoints.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { browserTransport, createCall } from '../../api/call.ts';
import { readToken } from '../lib/session.ts';

const tokenHeader = (): Record<string, string> => {
  const token = readToken();
  return token ? { [AUTH_HEADER]: token } : {};
};

/** The one client call, carrying this browser's admin token. */
export const adminCall = createCall(browserTransport, tokenHeader);

type Body<K extends EndpointName> = NonNullable<EndpointInput<K>['body']>;
type Query<K extends EndpointName> = NonNullable<EndpointInput<K>['query']>;

/** The admin app's calls by name; each is the table's entry, so its input and answer are typed from it. */
export const adminApi = {
  login: (body: Body<'login'>) => adminCall('login', { body }),
  logout: () => adminCall('logout'),
  me: () => adminCall('getMe'),

  tree: () => adminCall('getAdminTree'),
  move: (body: Body<'moveItem'>) => adminCall('moveItem', { body }),
  createSection: (body: Body<'createSection'>) => adminCall('createSection', { body }),
  updateSection: (id: number, body: Body<'updateSection'>) =>
    adminCall('updateSection', { params: { id }, body }),
  deleteSection: (id: number, query: Query<'deleteSection'> = {}) =>
    adminCall('deleteSection', { params: { id }, query }),
  createCategory: (body: Body<'createCategory'>) => adminCall('createCategory', { body }),
  updateCategory: (id: number, body: Body<'updateCategory'>) =>
    adminCall('updateCategory', { params: { id }, body }),
  deleteCategory: (id: number, query: Query<'deleteCategory'> = {}) =>
    adminCall('deleteCategory', { params: { id }, query }),

  article: (id: number) => adminCall('getAdminArticle', { params: { id } }),
  createArticle: (body: Body<'createArticle'>) => adminCall('createArticle', { body }),
  updateArticle: (id: number, body: Body<'updateArticle'>) =>
    adminCall('updateArticle', { params: { id }, body }),
  deleteArticle: (id: number) => adminCall('deleteArticle', { params: { id } }),
  revisions: (id: number) => adminCall('listRevisions', { params: { id } }),
  revision: (id: number, revision: number) => adminCall('getRevision', { params: { id, revision } }),
  diff: (id: number, from: number, to: number) =>
    adminCall('diffRevisions', { params: { id }, query: { from, to } }),
  previewArticle: (body: Body<'previewArticle'>) => adminCall('previewArticle', { body }),
  restore: (id: number, revision: number) => adminCall('restoreRevision', { params: { id, revision } }),

  uploadFiles: (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    return adminCall('uploadContentFiles', { body: form });
  },

  branding: () => adminCall('getAdminBranding'),
  environments: () => adminCall('getEnvironments'),
  updateBranding: (body: Body<'updateBranding'>) => adminCall('updateBranding', { body }),

  users: () => adminCall('listUsers'),
  createUser: (body: Body<'createUser'>) => adminCall('createUser', { body }),
  updateUser: (id: number, body: Body<'updateUser'>) => adminCall('updateUser', { params: { id }, body }),
  deleteUser: (id: number) => adminCall('deleteUser', { params: { id } }),
};
