import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { readWebAssets } from '../../render/web-assets.ts';
import { renderArticlePreview } from './article-preview.ts';

/** The admin's preview of an article as its public page, drawn by the same renderer as every page. */
export function registerArticlePreviewRoute(app: FastifyInstance, { db, search }: AppContext): void {
  const assets = readWebAssets();
  route(app, endpoints.previewArticle, async (request) => ({
    document: await renderArticlePreview(app, db, assets, request.body, (title, limit) =>
      search.suggest(title, limit, 'everyone', undefined, 'related'),
    ),
  }));
}
