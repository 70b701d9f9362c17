import type { BrandingUpdateBody } from '../../../shared/api/admin.ts';
import type { Branding, BrandingTitles } from '../../../shared/api/settings.ts';
import { href } from '../../../shared/paths.ts';
import type { Db } from '../../db/database.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { trimFooterLinks, updateBranding } from '../../settings/branding.ts';
import { badRequest } from '../../http/errors.ts';
import { isLanguage, siteLanguage } from '../../languages/index.ts';
import { requireContentImage } from '../../content/content-rules.ts';

/** Applies an admin's branding change; logo and background come from uploaded images, by file id. */
export async function changeBranding(db: Db, body: BrandingUpdateBody): Promise<Branding> {
  const changes: Partial<Branding> = {};
  // An empty title brings back the interface's default, in the site's language.
  if (body.knowledge_title !== undefined) changes.knowledge_title = body.knowledge_title.trim();
  if (body.site_title !== undefined) changes.site_title = body.site_title.trim();
  if (body.lang !== undefined) changes.lang = body.lang;
  if (body.knowledge_enabled !== undefined) changes.knowledge_enabled = body.knowledge_enabled;
  if (body.portal_enabled !== undefined) changes.portal_enabled = body.portal_enabled;
  if (body.project_id !== undefined) changes.project_id = body.project_id?.trim() || null;
  if (body.footer_links !== undefined) changes.footer_links = trimFooterLinks(body.footer_links);
  for (const [field, key] of [
    ['logo_file_id', 'logo_url'],
    ['background_file_id', 'background_url'],
  ] as const) {
    const id = body[field];
    if (id === null) changes[key] = null;
    else if (id !== undefined) {
      const file = await requireContentImage(db, id, field);
      changes[key] = href.file(file.id, file.original_name);
    }
  }
  return db.transaction().execute(async (trx) => {
    if (body.titles !== undefined) {
      // Checked against the language the change leaves: the site's own titles are knowledge_title and site_title.
      const lang = body.lang ?? (await siteLanguage(trx));
      const unknown = Object.keys(body.titles).find((key) => !isLanguage(key));
      if (unknown !== undefined) throw badRequest(`titles.${unknown}`, 'is not one of the languages');
      if (Object.hasOwn(body.titles, lang)) {
        throw badRequest(
          `titles.${lang}`,
          'is the help centre’s own language: set knowledge_title and site_title',
        );
      }
      changes.titles = trimTitles(body.titles);
    }
    const branding = await updateBranding(trx, changes);
    // The titles, logo, footer and language are on every page; the language decides how articles are indexed.
    await touchContent(trx, ['branding', 'search']);
    return branding;
  });
}

/** Titles as stored: trimmed, empty ones left out (the site's titles stand in for them), empty languages too. */
function trimTitles(titles: NonNullable<BrandingUpdateBody['titles']>): Record<string, BrandingTitles> {
  const kept: Record<string, BrandingTitles> = {};
  for (const [lang, given] of Object.entries(titles)) {
    const knowledge_title = given?.knowledge_title?.trim();
    const site_title = given?.site_title?.trim();
    const own: BrandingTitles = {
      ...(knowledge_title && { knowledge_title }),
      ...(site_title && { site_title }),
    };
    if (Object.keys(own).length) kept[lang] = own;
  }
  return kept;
}
