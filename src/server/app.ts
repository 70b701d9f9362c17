import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { apiPaths } from '../shared/paths.ts';
import type { AppContext } from './context.ts';
import { handleClientError, handleFrameworkError, registerErrorHandling } from './http/errors.ts';
import { registerBodyDiscarding, type DiscardLimits } from './http/discard-body.ts';
import { rejectLooseNumbers, rejectUnstorableInput } from './http/route.ts';
import {
  createResponseCache,
  publicRequestUrl,
  type ResponseCache,
  type ResponseCacheHooks,
} from './http/response-cache.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerCookies } from './http/cookies.ts';
import http from 'node:http';
import { registerAuthRoutes } from './features/auth/auth.routes.ts';
import { registerRoles } from './accounts/roles.ts';
import { registerRateLimits } from './rate-limit/endpoint-limits.ts';
import { registerFileRoutes } from './features/files/files.routes.ts';
import { registerKnowledgeRoutes } from './features/knowledge/knowledge.routes.ts';
import { registerSearchRoutes } from './features/search/search.routes.ts';
import { registerArticleFeedbackRoutes } from './features/article-feedback/article-feedback.routes.ts';
import { registerSettingsRoutes } from './features/settings/settings.routes.ts';
import { registerPageRoutes } from './features/pages/pages.routes.ts';
import { createPageLanguages } from './features/pages/page-language.ts';
import { createReaders } from './content/reader.ts';
import { registerCaptchaRoutes } from './features/captcha/captcha.routes.ts';
import { registerTicketRoutes } from './features/tickets/tickets.routes.ts';
import { registerUploadRoutes } from './features/tickets/uploads.routes.ts';
import { registerPortalRequestRoutes } from './features/portal-requests/portal-requests.routes.ts';
import { registerAdminTicketRoutes } from './features/admin-tickets/admin-tickets.routes.ts';
import { registerAdminTreeRoutes } from './features/admin-tree/admin-tree.routes.ts';
import { registerAdminSectionRoutes } from './features/admin-sections/admin-sections.routes.ts';
import { registerAdminCategoryRoutes } from './features/admin-categories/admin-categories.routes.ts';
import { registerAdminArticleRoutes } from './features/admin-articles/admin-articles.routes.ts';
import { registerAdminBrandingRoutes } from './features/admin-branding/admin-branding.routes.ts';
import { registerAdminTranslationRoutes } from './features/admin-translations/admin-translations.routes.ts';
import { registerAdminUserRoutes } from './features/admin-users/admin-users.routes.ts';
import { registerAdminFileRoutes } from './features/admin-files/admin-files.routes.ts';
import { registerArticlePreviewRoute } from './features/pages/article-preview.routes.ts';
import { proxyTrust } from './rate-limit/client-address.ts';
import { registerDeliveryRoutes } from './features/delivery/delivery.routes.ts';
import { loggerOptions, redactUrl, requestIdOf } from './ops/logging.ts';
import { registerOperations } from './ops/ops.ts';
import { startAccountMailWorker } from './mail/account-mail.ts';
import { RELEASE } from './lib/release.ts';
import multipart from '@fastify/multipart';
import { ISSUE_FILES_MAX, UPLOAD_FILE_MAX_BYTES } from '../shared/constants.ts';

export interface AppOptions {
  logger?: boolean;
  /** Destroy open connections on close instead of letting idle keep-alive ones finish (tests). */
  forceCloseConnections?: boolean;
  /** Where the JSON log lines go instead of stdout (tests read them); implies logging. */
  logStream?: NodeJS.WritableStream;
  /** Told of every route as it is registered (the hostile-input suite covers each one). */
  onRoute?: (route: RouteOptions) => void;
  /** How much of a refused request body is read and thrown away before the connection is cut (tests lower it). */
  discardLimits?: DiscardLimits;
}

/** Builds the whole HTTP server; main.ts listens on it and tests inject requests into it. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const readers = createReaders(ctx);
  const pageLanguages = createPageLanguages(readers.languages);
  const cacheHooks: ResponseCacheHooks = {
    requestId: requestIdOf,
    mayServeFromMemory: (request, revision) => pageLanguages.mayServeFromMemory(request, revision),
  };
  const forwardedHost = ctx.config.trustProxy !== false;
  const cache = createResponseCache(
    ctx.revisions,
    {
      maxEntries: 10_000,
      maxBytes: ctx.config.cache.maxBytes,
      maxAge: ctx.config.cache.maxAge,
      forwardedHost,
      separateHosts: ctx.config.analytics?.hosts ?? null,
    },
    cacheHooks,
  );
  const app = createFastify(ctx, options, cache);

  await registerPlumbing(app, ctx, options);
  const metrics = registerOperations(app, ctx, () => cache.stats());
  cacheHooks.onServedFromMemory = countAnswerFromMemory(app, metrics);
  registerRoles(app, ctx.db);
  registerRateLimits(app, ctx);
  // What each public read is read as (language, audience, revision), resolved once as it comes in (content/reader.ts).
  app.decorate('readers', readers);
  registerSettingsRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  if (ctx.config.tickets.smtpUrl) {
    // Account mails are queued by the calls that ask for them and sent by every server's worker (mail/account-mail.ts).
    const accountMails = startAccountMailWorker(ctx, app.log);
    app.addHook('onClose', () => accountMails.stop());
  }
  registerFeatureRoutes(app, ctx);
  await registerPageRoutes(app, {
    analytics: ctx.config.analytics,
    captcha: ctx.config.captcha,
    forwardedHost,
    frameAncestors: ctx.config.frameAncestors,
    portal: ctx.config.portalUrl === null,
    languages: pageLanguages,
  });

  app.get(apiPaths.openapi, { schema: { hide: true } }, async () => app.swagger());
  // Last, so the answers it keeps carry every header the other hooks set.
  cache.register(app);
  app.decorate('responseCache', cache);

  await app.ready();
  return app;
}

/** The Fastify instance, behind an HTTP server whose own handler answers from the kept answers first. */
function createFastify(ctx: AppContext, options: AppOptions, cache: ResponseCache): FastifyInstance {
  const app: FastifyInstance = Fastify({
    // Answers kept in memory go out before Fastify is involved (see response-cache.ts).
    serverFactory: (handler) =>
      http.createServer(
        // A request with neither Content-Length nor Transfer-Encoding has no body (HTTP/1.1): Node 24 then skips the
        // readable stream's life cycle (its events, each a tick), which cost a kept answer 3 µs of its 20 (bench:http).
        { optimizeEmptyRequests: true },
        (request, response) => {
          let served = false;
          try {
            served = cache.serveFromMemory(request, response);
          } catch (error) {
            // This runs outside Fastify, where a throw would end the process: the request goes to Fastify instead.
            app.log.error({ err: error, url: redactUrl(request.url ?? '') }, 'answer from memory failed');
            if (response.headersSent) return void response.destroy();
          }
          if (!served) handler(request, response);
        },
      ),
    logger:
      options.logger || options.logStream ? loggerOptions(ctx.config.logLevel, options.logStream) : false,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    // Public pages and calls are routed by the parameters they read, so a kept answer depends on nothing else.
    rewriteUrl: publicRequestUrl,
    genReqId: requestIdOf,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    trustProxy: proxyTrust(ctx.config.trustProxy),
    ...(options.forceCloseConnections ? { forceCloseConnections: true } : {}),
  });
  return app;
}

/**
 * What every route shares, registered once here: errors, input checks, bodies refused, security headers, cookies,
 * multipart bodies and the OpenAPI document.
 */
async function registerPlumbing(app: FastifyInstance, ctx: AppContext, options: AppOptions): Promise<void> {
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  registerErrorHandling(app);
  app.addHook('preValidation', rejectLooseNumbers);
  registerBodyDiscarding(app, options.discardLimits);
  app.addHook('preHandler', rejectUnstorableInput);
  registerSecurityHeaders(app, ctx.config);
  // Cookies, read and written for every route by one registration here (http/cookies.ts).
  await registerCookies(app, ctx.config.publicUrl);
  // Multipart bodies, for every upload route (visitors' files, the team's). One byte over the file limit reaches our
  // own check, which refuses the file and keeps nothing of it. Where it is registered does not matter: the refused
  // uploads over 25 MB that once went unanswered when it moved were the disk storage's doing (file-storage.ts).
  await app.register(multipart, {
    limits: {
      fileSize: UPLOAD_FILE_MAX_BYTES + 1,
      files: ISSUE_FILES_MAX,
      fields: 10,
      parts: ISSUE_FILES_MAX + 10,
    },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Signpost help centre API', version: RELEASE },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'x-auth-token' } } },
    },
  });
}

/** An answer given from memory is counted like any other, and logged only when asked for. */
function countAnswerFromMemory(
  app: FastifyInstance,
  metrics: ReturnType<typeof registerOperations>,
): NonNullable<ResponseCacheHooks['onServedFromMemory']> {
  return (request, route, status, started, requestId) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const method = request.method ?? 'GET';
    metrics.observe(method, route, status, seconds);
    // The hot path of a burst is counted, and logged only when asked for: a line per hit would cost more than it.
    const level = app.log.level;
    if (level === 'debug' || level === 'trace') {
      app.log.debug(
        {
          reqId: requestId,
          method,
          url: redactUrl(request.url ?? ''),
          statusCode: status,
          responseTime: seconds * 1000,
        },
        'answered from memory',
      );
    }
  };
}

/** The features' API routes that take files and content. */
function registerFeatureRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerKnowledgeRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerArticleFeedbackRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerTicketRoutes(app, ctx);
  registerCaptchaRoutes(app, ctx);
  registerAdminTicketRoutes(app, ctx);
  registerPortalRequestRoutes(app, ctx);
  registerAdminTreeRoutes(app, ctx);
  registerAdminSectionRoutes(app, ctx);
  registerAdminCategoryRoutes(app, ctx);
  registerAdminArticleRoutes(app, ctx);
  registerArticlePreviewRoute(app, ctx);
  registerAdminBrandingRoutes(app, ctx);
  registerAdminTranslationRoutes(app, ctx);
  registerAdminUserRoutes(app, ctx);
  registerAdminFileRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);
}
