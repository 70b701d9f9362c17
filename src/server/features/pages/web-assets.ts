import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIST = fileURLToPath(new URL('../../../../dist/web', import.meta.url));
const ENTRY = 'src/web/entry-client.tsx';

export interface WebAssets {
  script: string | null;
  styles: string[];
  preloads: string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The hashed file names of the built client, read once from Vite's manifest. Without a build, pages still render. */
export function readWebAssets(dist = WEB_DIST): WebAssets {
  const file = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(file)) return { script: null, styles: [], preloads: [] };
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest[ENTRY];
  if (!entry) return { script: null, styles: [], preloads: [] };
  const styles = new Set<string>(entry.css ?? []);
  const preloads: string[] = [];
  for (const key of entry.imports ?? []) {
    const chunk = manifest[key];
    if (!chunk) continue;
    preloads.push(`/${chunk.file}`);
    chunk.css?.forEach((css) => styles.add(css));
  }
  return { script: `/${entry.file}`, styles: [...styles].map((css) => `/${css}`), preloads };
}
