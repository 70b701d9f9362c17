import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { authorOf } from '../../content/author.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { route } from '../../http/route.ts';
import {
  createArticle,
  deleteArticle,
  getAdminArticle,
  restoreRevision,
  updateArticle,
} from './admin-articles.service.ts';
import { diffRevisions, getRevision, listRevisions } from './revisions.service.ts';

/** Articles as the admin app edits them: drafts and published, their saved revisions, the HTML a save would keep. */
export function registerAdminArticleRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.getAdminArticle, async (request) => getAdminArticle(db, request.params.id));
  route(app, endpoints.createArticle, async (request, _reply, session) =>
    createArticle(db, request.body, authorOf(session)),
  );
  route(app, endpoints.updateArticle, async (request, _reply, session) =>
    updateArticle(db, request.params.id, request.body, authorOf(session)),
  );
  route(app, endpoints.deleteArticle, async (request) => {
    await deleteArticle(db, request.params.id);
    return { ok: true } as const;
  });
  route(app, endpoints.previewHtml, async (request) => ({
    html: await cleanHtml(request.body.html, 'html'),
  }));

  route(app, endpoints.listRevisions, async (request) => listRevisions(db, request.params.id));
  route(app, endpoints.getRevision, async (request) =>
    getRevision(db, request.params.id, request.params.revision),
  );
  route(app, endpoints.diffRevisions, async (request) =>
    diffRevisions(db, request.params.id, request.query.from, request.query.to),
  );
  route(app, endpoints.restoreRevision, async (request, _reply, session) =>
    restoreRevision(db, request.params.id, request.params.revision, authorOf(session)),
  );
}
