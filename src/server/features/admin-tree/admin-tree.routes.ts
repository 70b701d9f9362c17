import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { authorOf } from '../../content/author.ts';
import { route } from '../../http/route.ts';
import { getTree, moveItem } from './admin-tree.service.ts';

/** The whole content tree as the admin app draws it, and moves within it. */
export function registerAdminTreeRoutes(app: FastifyInstance, { db, database }: AppContext): void {
  route(app, endpoints.getAdminTree, async () => getTree(db));
  route(app, endpoints.moveItem, async (request, _reply, session) =>
    moveItem(db, database.dialect, request.body, authorOf(session)),
  );
}
