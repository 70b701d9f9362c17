import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { hasAnySection } from '../../content/content.repository.ts';
import { importFolder, type ImportOptions, type ImportSummary } from './import-folder.ts';
import { readSetting, writeSetting } from '../../settings/settings.repository.ts';
import { updateBranding } from '../../settings/branding.ts';
import { DEMO_BRANDING } from './demo-branding.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export const DEMO_FOLDER = path.join(PROJECT_ROOT, 'content/demo');

export async function seedDemo(ctx: AppContext, options: ImportOptions = {}): Promise<ImportSummary> {
  const summary = await importFolder(ctx, DEMO_FOLDER, options);
  await updateBranding(ctx.db, DEMO_BRANDING);
  return summary;
}

/**
 * On the very first start the help centre gets the demo content, so a new install shows something real. Only
 * once, and only into an empty database: a team that deletes the demo does not see it come back.
 */
export async function seedOnFirstStart(ctx: AppContext): Promise<ImportSummary | undefined> {
  if (await readSetting(ctx.db, 'initialised_at')) return undefined;
  const summary = (await hasAnySection(ctx.db)) ? undefined : await seedDemo(ctx);
  await writeSetting(ctx.db, 'initialised_at', new Date().toISOString());
  return summary;
}
