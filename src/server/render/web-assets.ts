import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export const WEB_DIST = path.join(PROJECT_ROOT, 'dist/web');

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
  /**
   * The files of each chunk the client loads on demand (a page's code, a language's texts), by its manifest key:
   * the chunk and the chunks it imports, which a page that needs it preloads, and their stylesheets.
   */
  chunks: Record<string, { preloads: string[]; styles: string[] }>;
}

/** The icon font's stylesheet, its own asset (the client imports it on demand, src/web/components/font-icon.tsx). */
const FONT_ICONS_SOURCE = 'src/web/styles/font-icons.css';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isDynamicEntry?: boolean;
}

type Manifest = Record<string, ManifestChunk>;

const NO_ASSETS: WebAssets = { script: null, styles: [], preloads: [], fontIcons: null, chunks: {} };

/** A chunk and, depth first, every chunk it imports statically: what must be there before it runs. */
function withImports(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key) || !manifest[key]) return [];
  seen.add(key);
  return [key, ...(manifest[key].imports ?? []).flatMap((imported) => withImports(manifest, imported, seen))];
}

/** The files of every on-demand chunk, less the entry and what the entry already brings. */
function chunkFiles(manifest: Manifest, entryKey: string): WebAssets['chunks'] {
  const loaded = new Set(withImports(manifest, entryKey));
  const chunks: WebAssets['chunks'] = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const needed = withImports(manifest, key).filter((needed) => !loaded.has(needed));
    chunks[key] = {
      preloads: needed.map((needed) => `/${manifest[needed]!.file}`),
      styles: needed.flatMap((needed) => manifest[needed]!.css ?? []).map((css) => `/${css}`),
    };
  }
  return chunks;
}

/**
 * Why the server cannot start, when the built web client is missing (`npm run build`, or `npm start`, which builds
 * what is missing): pages without their scripts and styles would look served but be broken. Null when it is there.
 */
export function missingWebBuild(dist = WEB_DIST): string | null {
  const missing = [PUBLIC_BUNDLE, ADMIN_BUNDLE]
    .map((bundle) => path.join(dist, '.vite', bundle.manifest))
    .find((manifest) => !fs.existsSync(manifest));
  return missing ? `the web client is not built (${missing} is missing): run \`npm run build\`` : null;
}

/** The hashed file names of the built client, read once from Vite's manifest. Without a build, pages still render. */
export function readWebAssets(dist = WEB_DIST, bundle = PUBLIC_BUNDLE): WebAssets {
  const file = path.join(dist, '.vite', bundle.manifest);
  if (!fs.existsSync(file)) return NO_ASSETS;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  const entry = manifest[bundle.entry];
  if (!entry) return NO_ASSETS;
  // Every chunk the entry imports, however deep: named in the page, all are fetched at once, not one after another.
  const imported = withImports(manifest, bundle.entry).slice(1);
  const styles = new Set<string>([
    ...(entry.css ?? []),
    ...imported.flatMap((key) => manifest[key]!.css ?? []),
  ]);
  const preloads = imported.map((key) => `/${manifest[key]!.file}`);
  const fontIcons = manifest[FONT_ICONS_SOURCE]?.file;
  return {
    script: `/${entry.file}`,
    styles: [...styles].map((css) => `/${css}`),
    preloads,
    fontIcons: fontIcons ? `/${fontIcons}` : null,
    chunks: chunkFiles(manifest, bundle.entry),
  };
}
