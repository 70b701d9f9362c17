// Runs the HTML sanitiser off the main thread: a large or pathological fragment must not stall other requests.
// Plain JavaScript so it starts without a build step; it loads the TypeScript sanitiser through tsx, as bin/ does.
// The main thread sends one fragment at a time and ends the thread if it takes too long (clean-html.ts).
import { parentPort, threadId } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { sanitizeArticleHtml } = await import('./sanitize.ts');

parentPort.on('message', ({ html }) => {
  try {
    // The thread it ran on, for the main thread's report of where each fragment was cleaned.
    parentPort.postMessage({ html: sanitizeArticleHtml(html), threadId });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
