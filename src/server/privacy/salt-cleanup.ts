import type { Executor } from '../db/database.ts';
import { forgetOldSalts } from './daily-key.ts';

/**
 * Deletes the daily salts (feedback's and search votes' keys) of days gone by every hour, so a day's salt is gone soon
 * after the day even when nobody comes the next. Several servers doing it at once is harmless.
 */
export function startSaltCleanup(
  db: Executor,
  log: { warn(details: object, message: string): void },
): { stop(): void } {
  const run = () =>
    void forgetOldSalts(db).catch((error: unknown) =>
      log.warn({ err: error }, 'feedback salt clean-up failed; it runs again in an hour'),
    );
  const timer = setInterval(run, 60 * 60 * 1000);
  timer.unref();
  run();
  return { stop: () => clearInterval(timer) };
}
