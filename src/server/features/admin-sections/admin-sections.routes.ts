import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { authorOf } from '../../content/author.ts';
import { route } from '../../http/route.ts';
import { createSection, deleteSection, updateSection } from './admin-sections.service.ts';

export function registerAdminSectionRoutes(app: FastifyInstance, { db, database }: AppContext): void {
  route(app, endpoints.createSection, async (request) => createSection(db, request.body));
  route(app, endpoints.updateSection, async (request) => updateSection(db, request.params.id, request.body));
  route(app, endpoints.deleteSection, async (request, _reply, session) => {
    await deleteSection(db, database.dialect, request.params.id, request.query, authorOf(session));
    return { ok: true } as const;
  });
}
