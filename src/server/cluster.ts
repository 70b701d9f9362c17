import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config/config.ts';
import { createContext } from './context-factory.ts';
import { seedOnFirstStart } from './features/content-folder/demo.service.ts';

/** A worker that dies within this long of its start is restarted only after a pause, so a crash loop cannot spin. */
const QUICK_DEATH_MS = 5_000;

/**
 * `WORKERS=N`: N identical servers in one cluster sharing the port, one per core, as a load balancer would spread
 * them over machines (they share only the database, like servers side by side). The primary migrates and loads the
 * demo once, then starts the workers, restarts any that dies, and passes SIGTERM on: each worker finishes its
 * requests in flight, and the primary exits when all have.
 */
export async function startCluster(config: Config, workers: number): Promise<void> {
  const ctx = await createContext(config);
  try {
    if (config.demoContent) {
      const seeded = await seedOnFirstStart(ctx);
      if (seeded) log(`loaded the demo help centre (${seeded.articles.created} articles)`);
    }
  } finally {
    await ctx.database.close();
  }

  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork({ SIGNPOST_CLUSTER_WORKER: '1' });
    started.set(worker, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    const since = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(0);
      return;
    }
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, since < QUICK_DEATH_MS ? 1_000 : 0);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${started.size} workers`);
    if (started.size === 0) process.exit(0);
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < workers; i++) fork();
}

export const isClusterWorker = () => cluster.isWorker && process.env.SIGNPOST_CLUSTER_WORKER === '1';

function log(msg: string) {
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg })}\n`);
}
