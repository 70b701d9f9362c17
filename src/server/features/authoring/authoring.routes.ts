import type { FastifyError, FastifyInstance } from 'fastify';
import { MAX_HTML_BYTES } from '../../../shared/api/admin.ts';
import { endpoints } from '../../../shared/api/endpoints.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { readWebAssets } from '../pages/web-assets.ts';
import { getBranding } from '../settings/branding.service.ts';
import { renderArticlePreview } from './article-preview.ts';
import { registerAdminFileRoutes } from './admin-files.routes.ts';
import { requireAdminSession } from './admin-session.ts';
import {
  createArticle,
  deleteArticle,
  getAdminArticle,
  restoreRevision,
  updateArticle,
} from './articles.service.ts';
import { changeBranding } from './branding-admin.service.ts';
import { cleanHtml } from './clean-html.ts';
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
  const admin = (
    request: Parameters<typeof requireAdminSession>[1],
    reply: Parameters<typeof requireAdminSession>[2],
  ) => requireAdminSession(db, request, reply, secure);
  const ok = { ok: true } as const;

  route(app, endpoints.getAdminTree, async (request, reply) => {
    await admin(request, reply);
    return getTree(db);
  });

  route(app, endpoints.createSection, async (request, reply) => {
    await admin(request, reply);
    return createSection(db, request.body);
  });
  route(app, endpoints.updateSection, async (request, reply) => {
    await admin(request, reply);
    return updateSection(db, request.params.id, request.body);
  });
  route(app, endpoints.deleteSection, async (request, reply) => {
    const { author } = await admin(request, reply);
    await deleteSection(db, dialect, request.params.id, request.query, author);
    return ok;
  });

  route(app, endpoints.deleteCategory, async (request, reply) => {
    const { author } = await admin(request, reply);
    await deleteCategory(db, dialect, request.params.id, request.query, author);
    return ok;
  });

  route(app, endpoints.getAdminArticle, async (request, reply) => {
    await admin(request, reply);
    return getAdminArticle(db, request.params.id);
  });
  route(app, endpoints.deleteArticle, async (request, reply) => {
    await admin(request, reply);
    await deleteArticle(db, request.params.id);
    return ok;
  });

  route(app, endpoints.moveItem, async (request, reply) => {
    const { author } = await admin(request, reply);
    return moveItem(db, dialect, request.body, author);
  });

  route(app, endpoints.listRevisions, async (request, reply) => {
    await admin(request, reply);
    return listRevisions(db, request.params.id);
  });
  route(app, endpoints.getRevision, async (request, reply) => {
    await admin(request, reply);
    return getRevision(db, request.params.id, request.params.revision);
  });
  route(app, endpoints.diffRevisions, async (request, reply) => {
    await admin(request, reply);
    return diffRevisions(db, request.params.id, request.query.from, request.query.to);
  });
  route(app, endpoints.restoreRevision, async (request, reply) => {
    const { author } = await admin(request, reply);
    return restoreRevision(db, request.params.id, request.params.revision, author);
  });

  route(app, endpoints.getAdminBranding, async (request, reply) => {
    await admin(request, reply);
    return getBranding(db);
  });
  route(app, endpoints.updateBranding, async (request, reply) => {
    await admin(request, reply);
    return changeBranding(db, request.body);
  });

  route(app, endpoints.listUsers, async (request, reply) => {
    await admin(request, reply);
    return listUsers(db);
  });
  route(app, endpoints.createUser, async (request, reply) => {
    await admin(request, reply);
    return addUser(db, ctx.passwords, request.body);
  });
  route(app, endpoints.updateUser, async (request, reply) => {
    const { user, token } = await admin(request, reply);
    return changeUser(db, ctx.passwords, user, token, request.params.id, request.body);
  });
  route(app, endpoints.deleteUser, async (request, reply) => {
    const { user } = await admin(request, reply);
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
    route(
      scoped,
      endpoints.createCategory,
      async (request, reply) => {
        await admin(request, reply);
        return createCategory(db, request.body);
      },
      limit,
    );
    route(
      scoped,
      endpoints.updateCategory,
      async (request, reply) => {
        await admin(request, reply);
        return updateCategory(db, request.params.id, request.body);
      },
      limit,
    );
    route(
      scoped,
      endpoints.createArticle,
      async (request, reply) => {
        const { author } = await admin(request, reply);
        return createArticle(db, request.body, author);
      },
      limit,
    );
    route(
      scoped,
      endpoints.previewHtml,
      async (request, reply) => {
        await admin(request, reply);
        return { html: await cleanHtml(request.body.html, 'html') };
      },
      limit,
    );
    const assets = readWebAssets();
    route(
      scoped,
      endpoints.previewArticle,
      async (request, reply) => {
        await admin(request, reply);
        return { document: await renderArticlePreview(app, db, assets, request.body) };
      },
      limit,
    );
    route(
      scoped,
      endpoints.updateArticle,
      async (request, reply) => {
        const { author } = await admin(request, reply);
        return updateArticle(db, request.params.id, request.body, author);
      },
      limit,
    );
  });
}
