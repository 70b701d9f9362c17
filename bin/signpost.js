#!/usr/bin/env node
// The operators' command. It runs the TypeScript sources directly through tsx, so the CLI and the server are
// always the same code, with no build step to forget.
import { register } from 'tsx/esm/api';

// React (which renders the public pages) and other libraries choose their production builds by NODE_ENV: an
// operator's server runs in production unless told otherwise (`npm run dev` says development).
process.env.NODE_ENV ??= 'production';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
