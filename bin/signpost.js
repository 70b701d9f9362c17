#!/usr/bin/env node
// The operators' command. It runs the TypeScript sources directly through tsx, so the CLI and the server are
// always the same code, with no build step to forget.
import { fileURLToPath } from 'node:url';
import { runOnSupportedNode } from './runtime.js';

// Started by an older Node, the command runs again on the project's own and ends here.
await runOnSupportedNode();
const { register } = await import('tsx/esm/api');

// React (which renders the public pages) and other libraries choose their production builds by NODE_ENV: an
// operator's server runs in production unless told otherwise (`npm run dev` says development).
process.env.NODE_ENV ??= 'production';

// TypeBox and Kysely are plain JavaScript in about a thousand modules. Loaded before the loader is registered, none of
// them makes a round trip through its thread: a command starts in half the time and a third of the CPU (1.0 s
// against 2.0 s for `branding show` on a 2-core machine). Usage needs neither.
const command = process.argv[2];
if (command && !['help', '--help', '-h'].includes(command)) {
  await Promise.all([
    import('typebox'),
    import('typebox/value'),
    import('typebox/compile'),
    import('kysely'),
  ]);
}
// The project's own TypeScript settings (JSX for React among them), wherever the command is started from: tsx would
// otherwise look for them in the working folder, and a server started elsewhere failed every page.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
