import type { Config } from '../server/config/config.ts';
import { createContext } from '../server/context-factory.ts';
import type { AppContext } from '../server/context.ts';

/** Runs a command against the same database and files as the server, and always closes them. */
export async function withContext<T>(config: Config, run: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(config);
  try {
    return await run(ctx);
  } finally {
    await ctx.database.close();
  }
}
