import type { Config } from '../../server/config/config.ts';
import { isClusterWorker, startCluster } from '../../server/cluster.ts';
import { startServer } from '../../server/main.ts';
import { missingWebBuild } from '../../server/render/web-assets.ts';
import { CliError } from '../cli-error.ts';

export async function runServe(_args: string[], config: Config): Promise<void> {
  // A worker of a cluster: the primary has migrated and loaded the demo already.
  if (isClusterWorker()) return startServer({ ...config, demoContent: false });
  const missing = missingWebBuild();
  if (missing) throw new CliError(missing);
  if (config.workers > 1) return startCluster(config, config.workers);
  await startServer(config);
}
