// Runs the HTML sanitiser off the main thread: a large or pathological fragment must not stall other requests.
// Plain JavaScript so it starts without a build step; it loads the TypeScript sanitiser through tsx, as bin/ does.
// The main thread sends one fragment at a time and ends the thread if it takes too long (clean-html.ts).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { sanitizeArticleHtml } = await import('./sanitize.ts');

parentPort.on('message', ({ html }) => {
  try {
    parentPort.postMessage({ html: sanitizeArticleHtml(html) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
