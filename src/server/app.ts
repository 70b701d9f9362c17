import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { apiPaths } from '../shared/paths.ts';
import type { AppContext } from './context.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerAuthRoutes } from './features/auth/auth.routes.ts';
import { registerFileRoutes } from './features/files/files.routes.ts';
import { registerKnowledgeRoutes } from './features/knowledge/knowledge.routes.ts';
import { registerSearchRoutes } from './features/search/search.routes.ts';
import { registerSettingsRoutes } from './features/settings/settings.routes.ts';
import { registerPageRoutes } from './features/pages/pages.routes.ts';
import { registerCaptchaRoutes } from './features/captcha/captcha.routes.ts';
import { registerTicketRoutes } from './features/tickets/tickets.routes.ts';
import { registerUploadRoutes } from './features/tickets/uploads.routes.ts';
import { registerAdminRoutes } from './features/admin/admin.routes.ts';
import { registerDeliveryRoutes } from './features/delivery/delivery.routes.ts';

export interface AppOptions {
  logger?: boolean;
  /** Destroy open connections on close instead of letting idle keep-alive ones finish (tests). */
  forceCloseConnections?: boolean;
}

/** Builds the whole HTTP server; main.ts listens on it and tests inject requests into it. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: ctx.config.logLevel } : false,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    trustProxy: ctx.config.tickets.trustProxy,
    ...(options.forceCloseConnections ? { forceCloseConnections: true } : {}),
  });

  registerErrorHandling(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Signpost help centre API', version: '1' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'x-auth-token' } } },
    },
  });

  registerSettingsRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerKnowledgeRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  registerTicketRoutes(app, ctx);
  registerCaptchaRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);
  await registerPageRoutes(app, ctx.config.analytics);

  app.get(apiPaths.openapi, { schema: { hide: true } }, async () => app.swagger());

  await app.ready();
  return app;
}
