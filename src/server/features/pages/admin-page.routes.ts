import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../../shared/html.ts';
import { FAVICON_PATH } from '../../../shared/logo-mark.ts';
import { href } from '../../../shared/paths.ts';
import { adminPagePolicy } from '../../http/csp.ts';
import {
  ADMIN_BUNDLE,
  PUBLIC_BUNDLE,
  readWebAssets,
  WEB_DIST,
  type WebAssets,
} from '../../render/web-assets.ts';

const ADMIN = href.admin().replace(/\/$/, '');

/**
 * The admin app's document: rendered in the browser only, so the server sends a shell with the admin bundle's
 * hashed assets. The public site's stylesheets ride along as a meta tag: the admin previews drafts and the header
 * with them, in frames, exactly as visitors will see them.
 */
export function adminDocument(admin: WebAssets, publicStyles: string[]): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    '<title>Signpost admin</title>',
    `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`,
    `<meta name="signpost-public-styles" content="${escapeHtml(publicStyles.join(' '))}">`,
    ...admin.styles.map((style) => `<link rel="stylesheet" href="${style}">`),
    ...admin.preloads.map((preload) => `<link rel="modulepreload" href="${preload}">`),
    admin.script ? `<script type="module" src="${admin.script}"></script>` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const fallback = admin.script
    ? '<noscript>The admin app needs JavaScript.</noscript>'
    : '<p>The admin app is not built yet: run <code>npm run build</code>.</p>';
  return `<!doctype html>\n<html lang="en">\n<head>\n${head}\n</head>\n<body>\n<div id="root"></div>\n${fallback}\n</body>\n</html>\n`;
}

/** GET /admin and everything under it answer the same shell; the admin app's router takes the path from there. */
export function registerAdminPageRoutes(app: FastifyInstance, dist = WEB_DIST): void {
  const document = adminDocument(
    readWebAssets(dist, ADMIN_BUNDLE),
    readWebAssets(dist, PUBLIC_BUNDLE).styles,
  );
  const policy = adminPagePolicy();
  const handleShell = async (_request: unknown, reply: FastifyReply) =>
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', policy)
      .header('X-Frame-Options', 'DENY')
      .send(document);
  app.get(ADMIN, handleShell);
  app.get(`${ADMIN}/*`, handleShell);
}
