import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { getInstruction, getSections, listCategories, listInstructions } from './knowledge.service.ts';

export function registerKnowledgeRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.listSections, async () => getSections(db));
  route(app, endpoints.listCategories, async (request) => listCategories(db, request.query));
  route(app, endpoints.listInstructions, async (request) => listInstructions(db, request.query));
  route(app, endpoints.getInstruction, async (request) => getInstruction(db, request.params.id));
}
