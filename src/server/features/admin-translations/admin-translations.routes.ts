import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  deleteItemTranslation,
  getArticleTranslation,
  getCategoryTranslation,
  getSectionTranslation,
  publishTranslation,
  saveArticleTranslation,
  saveCategoryTranslation,
  saveSectionTranslation,
} from './admin-translations.service.ts';
import { getTranslationStatus } from './translation-status.service.ts';

/** Translations of sections, categories and articles as the team edits them, and what is left to translate. */
export function registerAdminTranslationRoutes(app: FastifyInstance, { db }: AppContext): void {
  route(app, endpoints.getSectionTranslation, async ({ params }) =>
    getSectionTranslation(db, params.id, params.lang),
  );
  route(app, endpoints.saveSectionTranslation, async ({ params, body }) =>
    saveSectionTranslation(db, params.id, params.lang, body),
  );
  route(app, endpoints.publishSectionTranslation, async ({ params, body }) => {
    await publishTranslation(db, 'section', params.id, params.lang, body.published);
    return getSectionTranslation(db, params.id, params.lang);
  });
  route(app, endpoints.deleteSectionTranslation, async ({ params }) => {
    await deleteItemTranslation(db, 'section', params.id, params.lang);
    return { ok: true } as const;
  });

  route(app, endpoints.getCategoryTranslation, async ({ params }) =>
    getCategoryTranslation(db, params.id, params.lang),
  );
  route(app, endpoints.saveCategoryTranslation, async ({ params, body }) =>
    saveCategoryTranslation(db, params.id, params.lang, body),
  );
  route(app, endpoints.publishCategoryTranslation, async ({ params, body }) => {
    await publishTranslation(db, 'category', params.id, params.lang, body.published);
    return getCategoryTranslation(db, params.id, params.lang);
  });
  route(app, endpoints.deleteCategoryTranslation, async ({ params }) => {
    await deleteItemTranslation(db, 'category', params.id, params.lang);
    return { ok: true } as const;
  });

  route(app, endpoints.getArticleTranslation, async ({ params }) =>
    getArticleTranslation(db, params.id, params.lang),
  );
  route(app, endpoints.saveArticleTranslation, async ({ params, body }) =>
    saveArticleTranslation(db, params.id, params.lang, body),
  );
  route(app, endpoints.publishArticleTranslation, async ({ params, body }) => {
    await publishTranslation(db, 'article', params.id, params.lang, body.published);
    return getArticleTranslation(db, params.id, params.lang);
  });
  route(app, endpoints.deleteArticleTranslation, async ({ params }) => {
    await deleteItemTranslation(db, 'article', params.id, params.lang);
    return { ok: true } as const;
  });

  route(app, endpoints.getTranslationStatus, async ({ query }) => getTranslationStatus(db, query.lang));
}
