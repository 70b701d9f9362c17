import type { Config } from './config/config.ts';
import { buildApp } from './app.ts';
import { createContext } from './context-factory.ts';
import { seedOnFirstStart } from './features/content-folder/demo.service.ts';
import { startDeliveryWorker, startMailReplyPoller } from './tickets/index.ts';
import { startFileCleanup } from './features/tickets/stale-uploads.ts';
import { startSaltCleanup } from './privacy/salt-cleanup.ts';
import { warmUpHtmlCleaner } from './html/clean-html.ts';
import { firstSteps } from './ops/first-steps.ts';

/** Starts the server and stops it cleanly on SIGTERM or SIGINT, finishing requests in flight. */
export async function startServer(config: Config): Promise<void> {
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { logger: true });
  ctx.search.logTo(app.log);
  // What this server queues wakes its worker (tickets/outbox.ts): it goes out at once, not at the next pass.
  const deliveries = startDeliveryWorker(ctx, app.log);
  const cleanup = startFileCleanup(ctx, app.log);
  const saltCleanup = startSaltCleanup(ctx.db, app.log);
  // Customers' answers by mail join their threads; what they queue for the team goes out at once too.
  const mailReplies = config.imap && startMailReplyPoller(ctx, config.imap, app.log);
  // The index is built after the server listens and refreshed within a second of any change, on every server.
  const searchWatch = setInterval(
    () =>
      void ctx.search
        .refresh()
        .catch((error: unknown) => app.log.error({ err: error }, 'search index refresh failed')),
    1000,
  );
  searchWatch.unref();
  if (config.demoContent) {
    const seeded = await seedOnFirstStart(ctx);
    if (seeded) app.log.info({ articles: seeded.articles.created }, 'loaded the demo help centre');
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    cleanup.stop();
    saltCleanup.stop();
    clearInterval(searchWatch);
    app.log.info({ signal }, 'shutting down');
    // A delivery in flight finishes (or times out) while requests drain; only then does the database close.
    await Promise.all([app.close(), deliveries.stop(), mailReplies?.stop()]);
    await ctx.database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  if (!config.tickets.smtpUrl && !config.tickets.webhookUrl) {
    app.log.warn(
      'support requests reach nobody: they are kept in the database (signpost tickets lists them) but no one is told; ' +
        'set SMTP_URL (the team is mailed; SUPPORT_EMAIL for one address instead), or TICKET_WEBHOOK_URL',
    );
  }
  if (
    !config.portalUrl &&
    !config.tickets.smtpUrl &&
    (config.signup.mode === 'open' || config.signup.mode === 'domains')
  ) {
    app.log.warn(
      'visitors cannot sign up or reset a password in the portal: both need an emailed link; set SMTP_URL ' +
        '(accounts can still be made with signpost user add or on the Users page)',
    );
  }
  // After the demo's first load, so an install that shows the demo is not called empty.
  await firstSteps(ctx, config.publicUrl)
    .then((steps) => steps.forEach((step) => app.log.warn(step)))
    .catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not check for content and administrators'),
    );
  // The HTML cleaner's workers start now, so the first large save does not wait for them.
  void warmUpHtmlCleaner().catch((error: unknown) =>
    app.log.warn({ err: error }, 'HTML cleaner not started'),
  );
  // The index is built now, in slices, while the server already answers everything else (/readyz says when).
  void ctx.search
    .refresh()
    .then(() => app.log.info({ articles: ctx.search.size }, 'search index built'))
    .catch((error: unknown) => app.log.error({ err: error }, 'search index build failed'));
}
