import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { authorOf } from '../../content/author.ts';
import { route } from '../../http/route.ts';
import { createCategory, deleteCategory, updateCategory } from './admin-categories.service.ts';

export function registerAdminCategoryRoutes(app: FastifyInstance, { db, database }: AppContext): void {
  route(app, endpoints.createCategory, async (request) => createCategory(db, request.body));
  route(app, endpoints.updateCategory, async (request) =>
    updateCategory(db, request.params.id, request.body),
  );
  route(app, endpoints.deleteCategory, async (request, _reply, session) => {
    await deleteCategory(db, database.dialect, request.params.id, request.query, authorOf(session));
    return { ok: true } as const;
  });
}
