// A worker thread's entry when the server runs from its TypeScript sources (startWorker in worker.ts): it registers
// tsx in this thread, then loads the module the thread was started for. The built server never loads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// eslint-disable-next-line no-restricted-syntax -- the module is the one the thread was started for (worker.ts names it)
await import(workerData.entry);
