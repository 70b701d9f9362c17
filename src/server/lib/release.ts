import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';

/**
 * This Signpost's release, as its package.json says: what `signpost --version` prints, the OpenAPI document's
 * version and what a backup records as its maker. One number, read once, in the sources as in a build.
 */
export const RELEASE: string = (
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
