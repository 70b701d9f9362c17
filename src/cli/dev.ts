// `npm run dev`: the command run from the TypeScript sources under `tsx watch`, which restarts it when they change.
// Operators run bin/signpost.js, which runs the built JavaScript (dist/app) and never needs tsx.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
