import type { FastifyError, FastifyInstance } from 'fastify';
import { MAX_HTML_BYTES } from '../../../shared/api/admin.ts';
import { endpoints, type Endpoint } from '../../../shared/api/endpoints.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { route, type EndpointHandler, type Session } from '../../http/route.ts';
import { readWebAssets } from '../../render/web-assets.ts';
import { getBranding } from '../../settings/branding.ts';
import { renderArticlePreview } from './article-preview.ts';
import { registerAdminFileRoutes } from './admin-files.routes.ts';
import { authorOf, renewAdminFilesCookie } from '../../accounts/admin-session.ts';
import {
  createArticle,
  deleteArticle,
  getAdminArticle,
  restoreRevision,
  updateArticle,
} from './articles.service.ts';
import { changeBranding } from './branding-admin.service.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { createCategory, deleteCategory, updateCategory } from './categories.service.ts';
import { getTree, moveItem } from './move.service.ts';
import { diffRevisions, getRevision, listRevisions } from './revisions.service.ts';
import { createSection, deleteSection, updateSection } from './sections.service.ts';
import { addUser, changeUser, listUsers, removeUser } from './users-admin.service.ts';

/** Room for a 1 MiB body_html and its JSON escaping; a 2 MiB body does not fit. */
export const HTML_REQUEST_LIMIT = 2 * MAX_HTML_BYTES;

/** The authoring API under /api/admin: content, revisions, files, branding and users, for admins only. */
export function registerAuthoringRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const { dialect } = ctx.database;
  const secure = ctx.config.publicUrl.startsWith('https:');
  // Every answer to an admin renews the files cookie, so the editor's images keep loading while they work.
  const adminRoute = <E extends Endpoint & { role: 'admin' }>(
    scope: FastifyInstance,
    endpoint: E,
    handler: EndpointHandler<E>,
    options?: { bodyLimit?: number },
  ) =>
    route(
      scope,
      endpoint,
      (request, reply, session) => {
        renewAdminFilesCookie(reply, (session as Session).token, secure);
        return handler(request, reply, session);
      },
      options,
    );
  const ok = { ok: true } as const;

  adminRoute(app, endpoints.getAdminTree, async () => getTree(db));

  adminRoute(app, endpoints.createSection, async (request) => createSection(db, request.body));
  adminRoute(app, endpoints.updateSection, async (request) =>
    updateSection(db, request.params.id, request.body),
  );
  adminRoute(app, endpoints.deleteSection, async (request, _reply, session) => {
    const author = authorOf(session);
    await deleteSection(db, dialect, request.params.id, request.query, author);
    return ok;
  });

  adminRoute(app, endpoints.deleteCategory, async (request, _reply, session) => {
    const author = authorOf(session);
    await deleteCategory(db, dialect, request.params.id, request.query, author);
    return ok;
  });

  adminRoute(app, endpoints.getAdminArticle, async (request) => getAdminArticle(db, request.params.id));
  adminRoute(app, endpoints.deleteArticle, async (request) => {
    await deleteArticle(db, request.params.id);
    return ok;
  });

  adminRoute(app, endpoints.moveItem, async (request, _reply, session) => {
    const author = authorOf(session);
    return moveItem(db, dialect, request.body, author);
  });

  adminRoute(app, endpoints.listRevisions, async (request) => listRevisions(db, request.params.id));
  adminRoute(app, endpoints.getRevision, async (request) =>
    getRevision(db, request.params.id, request.params.revision),
  );
  adminRoute(app, endpoints.diffRevisions, async (request) =>
    diffRevisions(db, request.params.id, request.query.from, request.query.to),
  );
  adminRoute(app, endpoints.restoreRevision, async (request, _reply, session) => {
    const author = authorOf(session);
    return restoreRevision(db, request.params.id, request.params.revision, author);
  });

  adminRoute(app, endpoints.getAdminBranding, async () => getBranding(db));
  adminRoute(app, endpoints.updateBranding, async (request) => changeBranding(db, request.body));

  adminRoute(app, endpoints.listUsers, async () => listUsers(db));
  adminRoute(app, endpoints.createUser, async (request) => addUser(db, ctx.passwords, request.body));
  adminRoute(app, endpoints.updateUser, async (request, _reply, { user, token }) => {
    return changeUser(db, ctx.passwords, user, token, request.params.id, request.body);
  });
  adminRoute(app, endpoints.deleteUser, async (request, _reply, { user }) => {
    await removeUser(db, user, request.params.id);
    return ok;
  });

  registerAdminFileRoutes(app, ctx);

  // The writes that carry HTML take bodies up to HTML_REQUEST_LIMIT; one too large is refused naming its field.
  void app.register(async (scoped) => {
    scoped.setErrorHandler((error: FastifyError, request) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        const field = request.url.startsWith(apiPaths.adminCategories)
          ? 'description'
          : request.url.split('?')[0] === apiPaths.adminPreview
            ? 'html'
            : 'body_html';
        throw new ApiError(413, 'body_too_large', `The request is larger than ${HTML_REQUEST_LIMIT} bytes`, [
          { field, message: `must be at most ${MAX_HTML_BYTES} bytes (1 MiB)` },
        ]);
      }
      throw error;
    });
    const limit = { bodyLimit: HTML_REQUEST_LIMIT };
    adminRoute(scoped, endpoints.createCategory, async (request) => createCategory(db, request.body), limit);
    adminRoute(
      scoped,
      endpoints.updateCategory,
      async (request) => updateCategory(db, request.params.id, request.body),
      limit,
    );
    adminRoute(
      scoped,
      endpoints.createArticle,
      async (request, _reply, session) => {
        const author = authorOf(session);
        return createArticle(db, request.body, author);
      },
      limit,
    );
    adminRoute(
      scoped,
      endpoints.previewHtml,
      async (request) => ({ html: await cleanHtml(request.body.html, 'html') }),
      limit,
    );
    const assets = readWebAssets();
    adminRoute(
      scoped,
      endpoints.previewArticle,
      async (request) => ({ document: await renderArticlePreview(app, db, assets, request.body) }),
      limit,
    );
    adminRoute(
      scoped,
      endpoints.updateArticle,
      async (request, _reply, session) => {
        const author = authorOf(session);
        return updateArticle(db, request.params.id, request.body, author);
      },
      limit,
    );
  });
}
