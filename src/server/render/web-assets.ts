import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIST = fileURLToPath(new URL('../../../dist/web', import.meta.url));

/** A built entry: the manifest Vite wrote for it and the entry's source path, the manifest's key. */
export interface WebBundle {
  manifest: string;
  entry: string;
}

export const PUBLIC_BUNDLE: WebBundle = { manifest: 'manifest.json', entry: 'src/web/entry-client.tsx' };
/** The admin app is built separately (vite.config.ts) so the public bundle stays as it is. */
export const ADMIN_BUNDLE: WebBundle = {
  manifest: 'admin-manifest.json',
  entry: 'src/web/admin/entry-admin.tsx',
};

export interface WebAssets {
  script: string | null;
  styles: string[];
  preloads: string[];
  /** Font Awesome's stylesheet, linked only into pages that show a font icon (see htmlDocument). */
  fontIcons: string | null;
}

/** The icon font's stylesheet, its own asset (the client imports it on demand, src/web/components/font-icon.tsx). */
const FONT_ICONS_SOURCE = 'src/web/styles/font-icons.css';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The hashed file names of the built client, read once from Vite's manifest. Without a build, pages still render. */
export function readWebAssets(dist = WEB_DIST, bundle = PUBLIC_BUNDLE): WebAssets {
  const file = path.join(dist, '.vite', bundle.manifest);
  if (!fs.existsSync(file)) return { script: null, styles: [], preloads: [], fontIcons: null };
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest[bundle.entry];
  if (!entry) return { script: null, styles: [], preloads: [], fontIcons: null };
  const styles = new Set<string>(entry.css ?? []);
  const preloads: string[] = [];
  for (const key of entry.imports ?? []) {
    const chunk = manifest[key];
    if (!chunk) continue;
    preloads.push(`/${chunk.file}`);
    chunk.css?.forEach((css) => styles.add(css));
  }
  const fontIcons = manifest[FONT_ICONS_SOURCE]?.file;
  return {
    script: `/${entry.file}`,
    styles: [...styles].map((css) => `/${css}`),
    preloads,
    fontIcons: fontIcons ? `/${fontIcons}` : null,
  };
}
