import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { createChallenge } from '../../captcha/captcha.service.ts';

export function registerCaptchaRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, endpoints.getCaptchaChallenge, async (_request, reply) => {
    if (ctx.config.captcha.provider !== 'altcha') throw notFound('The captcha challenge');
    reply.header('Cache-Control', 'no-store');
    return createChallenge(ctx.db);
  });
}
