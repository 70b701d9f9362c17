// Runs the HTML sanitiser off the main thread: a large or pathological fragment must not stall other requests.
// The main thread sends one fragment at a time and ends the thread if it takes too long (clean-html.ts).
import { parentPort, threadId } from 'node:worker_threads';
import { sanitizeArticleHtml } from './sanitize.ts';

const port = parentPort;
if (!port) throw new Error('sanitize-worker runs as a worker thread (clean-html.ts starts it)');

port.on('message', ({ html }: { html: string }) => {
  try {
    // The thread it ran on, for the main thread's report of where each fragment was cleaned.
    port.postMessage({ html: sanitizeArticleHtml(html), threadId });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
port.postMessage({ ready: true });
