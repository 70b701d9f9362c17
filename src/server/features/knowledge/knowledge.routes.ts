import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { audienceOf } from '../../content/visibility.ts';
import { getInstruction, getSections, listCategories, listInstructions } from './knowledge.service.ts';

export function registerKnowledgeRoutes(app: FastifyInstance, { db }: AppContext): void {
  // Each answers for its reader: what is for signed-in visitors only reaches a signed-in one (see visibility.ts).
  route(app, endpoints.listSections, async (_request, _reply, session) =>
    getSections(db, audienceOf(session?.user)),
  );
  route(app, endpoints.listCategories, async (request, _reply, session) =>
    listCategories(db, request.query, audienceOf(session?.user)),
  );
  route(app, endpoints.listInstructions, async (request, _reply, session) =>
    listInstructions(db, request.query, audienceOf(session?.user)),
  );
  route(app, endpoints.getInstruction, async (request, _reply, session) =>
    getInstruction(db, request.params.id, audienceOf(session?.user)),
  );
}
