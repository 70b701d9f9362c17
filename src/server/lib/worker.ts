import { Worker } from 'node:worker_threads';
import { moduleBeside } from './project-root.ts';

/**
 * Starts a worker thread on the module `name` beside the module at `moduleUrl`. Built, that is JavaScript, which Node
 * runs as it is. From the sources it is TypeScript, and Node loads a worker's modules without the tsx that loads the
 * main thread's (under the tests, without the test runner's either): a plain-JavaScript entry registers tsx in the
 * thread first. tsx is a dev dependency; the built server never loads it.
 */
export function startWorker(moduleUrl: string, name: string): Worker {
  const entry = moduleBeside(moduleUrl, name);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  return new Worker(new URL('./typescript-worker.mjs', import.meta.url), {
    workerData: { entry: entry.href },
  });
}
