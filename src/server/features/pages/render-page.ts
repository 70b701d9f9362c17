import type { FastifyInstance } from 'fastify';
import type { RenderResult } from '../../../web/entry-server.tsx';
import { createApi, type Transport } from '../../../web/api/client.ts';
import type { WebAssets } from './web-assets.ts';
import { DatabaseUnavailableError } from '../../http/errors.ts';

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The web client's API, answered by this very server without a network hop. */
export function inProcessTransport(app: FastifyInstance): Transport {
  return {
    async get(path, headers) {
      const response = await app.inject({ method: 'GET', url: path, headers });
      let body: unknown;
      try {
        body = response.json();
      } catch {
        body = undefined;
      }
      return { status: response.statusCode, body };
    },
  };
}

/** Renders a public page with the web client's own routes and loaders. */
export async function renderPage(app: FastifyInstance, url: string): Promise<RenderResult> {
  const { render } = await import('../../../web/entry-server.tsx');
  const request = new Request(new URL(url, 'http://signpost.local'), { method: 'GET' });
  // A call the database could not answer makes the page answer 503 too, not an error page cached as the content.
  const transport = inProcessTransport(app);
  let unavailable = false;
  const page = await render(
    request,
    createApi({
      async get(path, headers) {
        const answer = await transport.get(path, headers);
        if (answer.status === 503) unavailable = true;
        return answer;
      },
    }),
  );
  if (unavailable) throw new DatabaseUnavailableError();
  return page;
}

export function htmlDocument(
  page: Extract<RenderResult, { kind: 'page' }>,
  assets: WebAssets,
  extraHead = '',
): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.head.description)}">`,
    '<link rel="icon" href="data:,">',
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...assets.preloads.map((href) => `<link rel="modulepreload" href="${href}">`),
    assets.script ? `<script type="module" src="${assets.script}"></script>` : '',
    extraHead,
  ]
    .filter(Boolean)
    .join('\n');
  // The router's state as inert JSON (entry-client reads it): no inline script for the CSP to allow.
  const hydration = `<script type="application/json" id="signpost-hydration">${page.hydration}</script>`;
  return `<!doctype html>\n<html lang="${escapeHtml(page.lang)}">\n<head>\n${head}\n</head>\n<body>\n<div id="root">${page.html}</div>\n${hydration}\n</body>\n</html>\n`;
}
