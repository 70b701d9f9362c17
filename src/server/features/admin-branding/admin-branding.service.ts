import type { BrandingUpdateBody } from '../../../shared/api/admin.ts';
import type { Branding } from '../../../shared/api/settings.ts';
import { href } from '../../../shared/paths.ts';
import type { Db } from '../../db/database.ts';
import { touchContent } from '../../revisions/revision.repository.ts';
import { trimFooterLinks, updateBranding } from '../../settings/branding.ts';
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
    const branding = await updateBranding(trx, changes);
    // The titles, logo, footer and language are on every page; the language decides how articles are indexed.
    await touchContent(trx, ['branding', 'search']);
    return branding;
  });
}
