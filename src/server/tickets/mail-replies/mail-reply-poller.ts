import type { ImapConfig } from '../../config/config.ts';
import type { AppContext } from '../../context.ts';
import { pollMailbox, type MailOutcome } from './mail-replies.service.ts';

/** After a failed pass the next waits twice as long as the last, from the poll interval up to this. */
export const LONGEST_BACKOFF_MS = 15 * 60 * 1000;

export const backoffDelay = (pollMs: number, failures: number) =>
  failures === 0 ? pollMs : Math.min(pollMs * 2 ** failures, Math.max(LONGEST_BACKOFF_MS, pollMs));

/** What the poller reports to; the server passes its logger. */
export interface MailReplyLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailReplyPoller {
  /** No pass starts after this; a pass under way is cut off (what it stored stays); resolves once it has ended. */
  stop(): Promise<void>;
}

function report(outcome: MailOutcome, log: MailReplyLog | undefined, onStored: () => void) {
  if (outcome.outcome === 'stored') {
    log?.info(outcome, 'reply by mail added to its request');
    if (outcome.filesLeftOut.length > 0) log?.warn(outcome, 'reply by mail: files left out');
    onStored();
  } else if (outcome.outcome === 'unmatched') {
    log?.warn(outcome, `mail left unread for the team: ${outcome.reason}`);
  } else if (outcome.outcome === 'retry') {
    log?.info(outcome, 'reply by mail: the request changed meanwhile; trying again next pass');
  }
}

/**
 * Reads the mailbox every IMAP_POLL_SECONDS, one pass at a time, without keeping the process alive on its own. A
 * mailbox that is down or refuses the account is logged and tried again later, waiting longer after each failure.
 */
export function startMailReplyPoller(
  ctx: AppContext,
  imap: ImapConfig,
  log?: MailReplyLog,
  onStored: () => void = () => {},
): MailReplyPoller {
  let stopped = false;
  const stopping = new AbortController();
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    try {
      const outcomes = await pollMailbox(ctx, imap, { log, signal: stopping.signal });
      for (const outcome of outcomes) report(outcome, log, onStored);
      if (failures > 0) log?.info({ mailbox: imap.mailbox }, 'mailbox reachable again');
      failures = 0;
    } catch (error) {
      if (stopped) return;
      failures++;
      log?.error(
        { err: error, host: imap.host, mailbox: imap.mailbox, failures },
        'mailbox pass failed; will retry',
      );
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(() => schedule(backoffDelay(imap.pollMs, failures)));
    }, delay);
    timer.unref();
  };

  // The first pass comes soon after start, not a whole interval later.
  schedule(Math.min(imap.pollMs, 1000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await running;
    },
  };
}
