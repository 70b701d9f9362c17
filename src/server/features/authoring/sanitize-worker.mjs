// Runs the HTML sanitiser off the main thread: a large or pathological fragment must not stall other requests.
// Plain JavaScript so it starts without a build step; it loads the TypeScript sanitiser through tsx, as bin/ does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { sanitizeArticleHtml } = await import('../../html/sanitize.ts');

parentPort.on('message', ({ id, html }) => {
  try {
    parentPort.postMessage({ id, html: sanitizeArticleHtml(html) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
