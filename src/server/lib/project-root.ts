import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where this code runs from. From the sources (the tests, `npm run dev` under tsx) this module is
 * src/server/lib/project-root.ts; built, it is dist/app/server/lib/project-root.js (`npm run build`). Whatever needs a
 * file outside the code, or a module beside it, asks here, so both layouts are the same rule.
 */
const HERE = fileURLToPath(import.meta.url);

/** The name in Signpost's own package.json, to tell its folder from another package's (a checkout, an install). */
const PACKAGE_NAME = 'signpost';

/**
 * The folder of Signpost's package.json: the first one above this module that is Signpost's. The built web client
 * (dist/web) and the demo content are there, in a checkout as in an installed package, wherever the server is started.
 */
export const PROJECT_ROOT = findProjectRoot(path.dirname(HERE));

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME
    )
      return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json named "${PACKAGE_NAME}" above ${start}`);
  }
}

/**
 * The module `name` beside the module at `moduleUrl`, in the same form: `name.ts` from the sources, `name.js` built.
 * For what a module opens by its address (a worker's entry, a file it hashes) rather than imports.
 */
export function moduleBeside(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${path.extname(HERE)}`, moduleUrl);
}
