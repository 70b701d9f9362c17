import { channel } from 'node:diagnostics_channel';
import { threadId, type Worker } from 'node:worker_threads';
import { MAX_HTML_BYTES } from '../../shared/api/admin.ts';
import { ApiError } from '../http/errors.ts';
import { startWorker } from '../lib/worker.ts';
import { sanitizeArticleHtml } from './sanitize.ts';

/** Below this size the sanitiser takes well under a millisecond: not worth a trip to the worker. */
const INLINE_MAX_CHARS = 32 * 1024;
/**
 * How long a worker may spend on one fragment before it is refused (html_too_complex). Each save must be answered
 * within 2 s; this leaves room for parsing the request, the database write and the answer.
 */
export const CLEAN_TIMEOUT_MS = 1_500;
/** Two fragments that both take long each get a worker of their own, so neither waits for the other. */
const POOL_SIZE = 2;

/**
 * Each fragment cleaned, with the id of the thread the sanitiser ran on (`worker_threads.threadId`, as the worker
 * reports it): what a test or a profiler subscribes to, to see that large fragments leave the main thread. Nothing is
 * published while nobody subscribes.
 */
export const HTML_CLEANED_CHANNEL = 'signpost:html-cleaned';
export interface HtmlCleaned {
  field: string;
  /** The fragment's length before cleaning. */
  chars: number;
  threadId: number;
}
const cleaned = channel(HTML_CLEANED_CHANNEL);
const report = (event: HtmlCleaned) => {
  if (cleaned.hasSubscribers) cleaned.publish(event);
};

export interface HtmlCleanerOptions {
  /** Time allowed per fragment, counted from when a worker starts on it (not while it waits for one). */
  timeoutMs?: number;
  /** How many fragments are cleaned at once, each on a thread of its own. */
  workers?: number;
}

export interface HtmlCleaner {
  /** The fragment sanitised on a worker thread; html_too_complex if it takes longer than the time allowed. */
  sanitize(html: string, field: string): Promise<string>;
  /** Starts every worker and waits until they are ready, so the first large fragment does not wait for one. */
  warmUp(): Promise<void>;
  /** Stops the workers; what is still waiting is refused. */
  close(): Promise<void>;
}

interface Job {
  html: string;
  field: string;
  resolve(html: string): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  started: Promise<void>;
  /** One fragment at a time per worker, so a job's clock measures its own work and nothing queued behind it. */
  job: Job | null;
  timer?: NodeJS.Timeout;
}

const tooComplex = (field: string) =>
  new ApiError(400, 'html_too_complex', `${field} could not be cleaned in time; simplify the HTML`, [
    { field, message: 'is too complex to clean' },
  ]);

/** One cleaner's workers and the fragments waiting for one. */
interface Pool {
  timeoutMs: number;
  size: number;
  slots: Slot[];
  queue: Job[];
  closed: boolean;
}

/** A slot taken out of the pool: its timer stopped, and the job it held (if any) handed back. */
function dropSlot(pool: Pool, slot: Slot) {
  const index = pool.slots.indexOf(slot);
  if (index !== -1) pool.slots.splice(index, 1);
  clearTimeout(slot.timer);
  const job = slot.job;
  slot.job = null;
  return job;
}

type WorkerMessage = { ready?: boolean; html?: string; error?: string; threadId?: number };

/** A worker says it is ready, or answers its job. */
function onWorkerMessage(pool: Pool, slot: Slot, onStarted: () => void, message: WorkerMessage) {
  if (message.ready) {
    slot.ready = true;
    onStarted();
  } else if (slot.job) {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = null;
    if (message.error !== undefined) job.reject(new Error(`sanitiser failed: ${message.error}`));
    else {
      report({ field: job.field, chars: job.html.length, threadId: message.threadId ?? -1 });
      job.resolve(message.html ?? '');
    }
  }
  dispatch(pool);
}

function spawn(pool: Pool) {
  let onStarted = () => {};
  let onFailed = (_error: Error) => {};
  const started = new Promise<void>((resolve, reject) => {
    onStarted = resolve;
    onFailed = reject;
  });
  started.catch(() => {});
  const worker = startWorker(import.meta.url, 'sanitize-worker');
  const slot: Slot = { worker, ready: false, started, job: null };
  pool.slots.push(slot);
  slot.worker.on('message', (message: WorkerMessage) => onWorkerMessage(pool, slot, onStarted, message));
  // A worker that stops on its own (a crash, not our timeout) takes only its own job with it.
  const onLost = (error: Error) => {
    onFailed(error);
    if (!pool.slots.includes(slot)) return;
    const wasReady = slot.ready;
    const job = dropSlot(pool, slot);
    job?.reject(error);
    // A worker that cannot even start would fail the same way for every job waiting: refuse them, not loop.
    if (!wasReady) for (const waiting of pool.queue.splice(0)) waiting.reject(error);
    dispatch(pool);
  };
  slot.worker.on('error', onLost);
  slot.worker.on('exit', () => onLost(new Error('the sanitiser worker stopped')));
}

function run(pool: Pool, slot: Slot, job: Job) {
  slot.job = job;
  slot.timer = setTimeout(() => {
    // Nothing interrupts the sanitiser but ending its thread; only this fragment is refused, the queue goes on.
    dropSlot(pool, slot);
    void slot.worker.terminate();
    job.reject(tooComplex(job.field));
    dispatch(pool);
  }, pool.timeoutMs);
  slot.worker.postMessage({ html: job.html });
}

/** Hands waiting fragments to idle workers, and starts workers (up to the pool's size) for the rest. */
function dispatch(pool: Pool) {
  const { slots, queue } = pool;
  for (;;) {
    const idle = slots.find((s) => s.ready && !s.job);
    if (!idle || queue.length === 0) break;
    run(pool, idle, queue.shift() as Job);
  }
  const starting = slots.filter((s) => !s.ready).length;
  for (let missing = Math.min(queue.length - starting, pool.size - slots.length); missing > 0; missing--)
    spawn(pool);
  // Idle workers stay for the next fragment without keeping the process alive.
  for (const slot of slots) {
    if (slot.job || !slot.ready) slot.worker.ref();
    else slot.worker.unref();
  }
}

export function createHtmlCleaner(options: HtmlCleanerOptions = {}): HtmlCleaner {
  const pool: Pool = {
    timeoutMs: options.timeoutMs ?? CLEAN_TIMEOUT_MS,
    size: options.workers ?? POOL_SIZE,
    slots: [],
    queue: [],
    closed: false,
  };
  return {
    sanitize(html, field) {
      if (pool.closed) return Promise.reject(new Error('the HTML cleaner is closed'));
      return new Promise<string>((resolve, reject) => {
        pool.queue.push({ html, field, resolve, reject });
        dispatch(pool);
      });
    },
    async warmUp() {
      while (pool.slots.length < pool.size) spawn(pool);
      dispatch(pool);
      await Promise.all(pool.slots.map((slot) => slot.started));
    },
    async close() {
      pool.closed = true;
      const stopped = new Error('the HTML cleaner is closed');
      for (const waiting of pool.queue.splice(0)) waiting.reject(stopped);
      await Promise.all(
        [...pool.slots].map((slot) => {
          dropSlot(pool, slot)?.reject(stopped);
          return slot.worker.terminate();
        }),
      );
    },
  };
}

const cleaner = createHtmlCleaner();

/** Starts the workers ahead of the first large fragment (worker start-up is not counted in its time limit). */
export const warmUpHtmlCleaner = (): Promise<void> => cleaner.warmUp();

/** The refusal of a fragment over 1 MiB, as sent or as cleaned. */
const tooLarge = (field: string) =>
  new ApiError(413, 'body_too_large', `${field} is larger than ${MAX_HTML_BYTES} bytes`, [
    { field, message: `must be at most ${MAX_HTML_BYTES} bytes (1 MiB)` },
  ]);

/**
 * The HTML an admin sent, as it will be stored: at most 1 MiB, through the one sanitiser every stored fragment
 * passes. Large fragments are cleaned on worker threads, so the server keeps answering meanwhile.
 */
export async function cleanHtml(html: string, field: string): Promise<string> {
  if (Buffer.byteLength(html, 'utf8') > MAX_HTML_BYTES) throw tooLarge(field);
  let clean: string;
  if (html.length <= INLINE_MAX_CHARS) {
    clean = sanitizeArticleHtml(html);
    report({ field, chars: html.length, threadId });
  } else clean = await cleaner.sanitize(html, field);
  // Cleaning may lengthen a fragment (closed tags, escaped characters): what is stored keeps the bound too.
  if (Buffer.byteLength(clean, 'utf8') > MAX_HTML_BYTES) throw tooLarge(field);
  return clean;
}
