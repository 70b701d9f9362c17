import fs from 'node:fs';
import path from 'node:path';
import type { Branding } from '../../shared/api/settings.ts';
import type { Config } from '../../server/config/config.ts';
import type { AppContext } from '../../server/context.ts';
import { contentTypeFor, isSafeInline } from '../../server/lib/content-type.ts';
import { storeContentFile } from '../../server/files/store-content-file.ts';
import {
  formatBrandingValue,
  getStoredBranding,
  parseBrandingValue,
  updateBranding,
} from '../../server/settings/branding.ts';
import { ApiError } from '../../server/http/errors.ts';
import { CliError } from '../cli-error.ts';
import { synopsisOf } from '../usage.ts';
import { withContext } from '../with-context.ts';

const IMAGE_KEYS: Record<string, 'logo_url' | 'background_url'> = {
  logo: 'logo_url',
  background: 'background_url',
};

/** `logo=./brand/logo.png` stores the file and links to it; `logo=https://...` links to it as it is. */
async function imageValue(ctx: AppContext, key: string, raw: string): Promise<string | null> {
  if (raw.trim() === '') return null;
  if (/^https?:\/\//i.test(raw)) return raw;
  const file = path.resolve(raw);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile())
    throw new CliError(`${key}: ${raw} is not a file or an http(s) URL`);
  if (!isSafeInline(contentTypeFor(file))) {
    throw new CliError(`${key}: ${raw} must be a PNG, JPEG, GIF, WebP or AVIF image`);
  }
  const stored = await storeContentFile(ctx, path.basename(file), fs.readFileSync(file));
  return stored.link;
}

function printBranding(branding: Branding): void {
  for (const [key, value] of Object.entries(branding)) console.log(`${key}=${formatBrandingValue(value)}`);
}

export async function runBranding(args: string[], config: Config): Promise<void> {
  const [action, ...pairs] = args;
  if (action === 'show') {
    const branding = await withContext(config, (ctx) => getStoredBranding(ctx.db));
    printBranding(branding);
    return;
  }
  if (action !== 'set' || pairs.length === 0) throw new CliError(synopsisOf('branding'));
  const assignments = pairs.map((pair) => {
    const index = pair.indexOf('=');
    if (index < 1) throw new CliError(`"${pair}" is not KEY=VALUE`);
    return [pair.slice(0, index).trim(), pair.slice(index + 1)] as const;
  });
  await withContext(config, async (ctx) => {
    const changes: Partial<Branding> = {};
    for (const [key, raw] of assignments) {
      const imageKey = IMAGE_KEYS[key];
      try {
        if (imageKey) Object.assign(changes, { [imageKey]: await imageValue(ctx, key, raw) });
        else Object.assign(changes, parseBrandingValue(key, raw));
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    }
    try {
      const branding = await updateBranding(ctx.db, changes);
      printBranding(branding);
    } catch (error) {
      if (error instanceof ApiError) throw new CliError(error.message);
      throw error;
    }
  });
}
