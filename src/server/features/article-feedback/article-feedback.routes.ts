import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { audienceOf } from '../../content/visibility.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { answerFeedback, feedbackReport } from './article-feedback.service.ts';

export function registerArticleFeedbackRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.sendArticleFeedback, async (request, _reply, session) =>
    answerFeedback(db, request.params.id, request.body, {
      client: clientKey(request),
      audience: audienceOf(session?.user),
    }),
  );
  route(app, endpoints.getFeedbackReport, async (request) => feedbackReport(db, request.query));
}
