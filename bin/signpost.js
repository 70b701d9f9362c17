#!/usr/bin/env node
// The operators' command. It runs the TypeScript sources directly through tsx, so the CLI and the server are
// always the same code, with no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
