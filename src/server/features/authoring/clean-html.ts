import { Worker } from 'node:worker_threads';
import { MAX_HTML_BYTES } from '../../../shared/api/admin.ts';
import { ApiError } from '../../http/errors.ts';
import { sanitizeArticleHtml } from '../../html/sanitize.ts';

/** Below this size the sanitiser takes well under a millisecond: not worth a trip to the worker. */
const INLINE_MAX_CHARS = 32 * 1024;
/** A fragment the sanitiser has not finished by then is refused rather than left to hold the worker. */
export const CLEAN_TIMEOUT_MS = 10_000;

interface Job {
  resolve(html: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let nextId = 1;
const jobs = new Map<number, Job>();

function failAll(error: Error) {
  for (const job of jobs.values()) {
    clearTimeout(job.timer);
    job.reject(error);
  }
  jobs.clear();
}

function startWorker(): Worker {
  const started = new Worker(new URL('./sanitize-worker.mjs', import.meta.url));
  started.unref();
  started.on('message', (message: { id?: number; html?: string; error?: string }) => {
    if (message.id === undefined) return;
    const job = jobs.get(message.id);
    if (!job) return;
    jobs.delete(message.id);
    clearTimeout(job.timer);
    if (message.error !== undefined) job.reject(new Error(`sanitiser failed: ${message.error}`));
    else job.resolve(message.html ?? '');
    if (jobs.size === 0) started.unref();
  });
  started.on('error', (error) => {
    if (worker === started) worker = null;
    failAll(error);
  });
  started.on('exit', () => {
    if (worker === started) worker = null;
    failAll(new Error('the sanitiser worker stopped'));
  });
  return started;
}

function sanitizeInWorker(html: string, field: string): Promise<string> {
  worker ??= startWorker();
  const current = worker;
  const id = nextId++;
  current.ref();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      jobs.delete(id);
      // The worker is busy with this fragment and would hold every later one: replace it.
      if (worker === current) worker = null;
      void current.terminate();
      reject(tooComplex(field));
    }, CLEAN_TIMEOUT_MS);
    jobs.set(id, { resolve, reject, timer });
    current.postMessage({ id, html });
  });
}

const tooComplex = (field: string) =>
  new ApiError(400, 'html_too_complex', `${field} could not be cleaned in time; simplify the HTML`, [
    { field, message: 'is too complex to clean' },
  ]);

function checkSize(html: string, field: string) {
  if (Buffer.byteLength(html, 'utf8') > MAX_HTML_BYTES) {
    throw new ApiError(413, 'body_too_large', `${field} is larger than ${MAX_HTML_BYTES} bytes`, [
      { field, message: `must be at most ${MAX_HTML_BYTES} bytes (1 MiB)` },
    ]);
  }
}

/**
 * The HTML an admin sent, as it will be stored: at most 1 MiB, through the one sanitiser every stored fragment
 * passes. Large fragments are cleaned on a worker thread, so the server keeps answering meanwhile.
 */
export async function cleanHtml(html: string, field: string): Promise<string> {
  checkSize(html, field);
  const clean =
    html.length <= INLINE_MAX_CHARS ? sanitizeArticleHtml(html) : await sanitizeInWorker(html, field);
  checkSize(clean, field);
  return clean;
}
