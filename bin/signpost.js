#!/usr/bin/env node
// The operators' command. It runs the built server and CLI, JavaScript compiled from src/ into dist/app
// (`npm run build`; `npm start` builds what is missing or stale first). `npm run dev` runs the TypeScript sources
// through tsx instead (src/cli/dev.ts). Only Node's own modules are imported here, statically: the built code, and the
// packages under it, are loaded once the checks below have passed.
import fs from 'node:fs';
import { runOnSupportedNode } from './runtime.js';

// Started by an older Node, the command runs again on the project's own and ends here.
await runOnSupportedNode();

// React (which renders the public pages) and other libraries choose their production builds by NODE_ENV: an
// operator's server runs in production unless told otherwise.
process.env.NODE_ENV ??= 'production';

const entry = new URL('../dist/app/cli/main.js', import.meta.url);
if (!fs.existsSync(entry)) {
  console.error('signpost: the server is not built (dist/app is missing): run `npm run build`');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
