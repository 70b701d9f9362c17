import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** The browser tests need the built client; build it once when it is missing or stale. */
export default function setup() {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/ensure-web-build.js')], {
    stdio: 'inherit',
  });
}
