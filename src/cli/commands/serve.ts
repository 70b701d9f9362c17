import type { Config } from '../../server/config/config.ts';
import { startServer } from '../../server/main.ts';

export async function runServe(_args: string[], config: Config): Promise<void> {
  await startServer(config);
}
