import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The browser tests need the built client, and the tests that start `signpost` as an operator does run the built
 * server (bin/signpost.js): build both once, when missing or older than their sources.
 */
export default function setup() {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/build.js'), '--if-stale'], {
    stdio: 'inherit',
  });
}
