import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import { createHtmlCleaner } from './clean-html.ts';

// Markup-dense HTML takes the sanitiser about a second per MiB: far longer than the limit set below.
const slow = '<p><b>x</b> <a href="https://example.com/">y</a></p>'.repeat(60_000);
const ordinary = '<p>Hold the <b>reset</b> button for <a href="/articles/2">ten seconds</a>.</p>';

describe('the HTML cleaner worker pool', () => {
  // One worker, so the ordinary fragment waits behind the slow one; the limit is long enough for it once started.
  const cleaner = createHtmlCleaner({ workers: 1, timeoutMs: 300 });
  afterAll(() => cleaner.close());

  it('refuses only the fragment that overran; the ones queued behind it are cleaned by a fresh worker', async () => {
    const outcomes = await Promise.allSettled([
      cleaner.sanitize(slow, 'body_html'),
      cleaner.sanitize(ordinary, 'description'),
      cleaner.sanitize(`<div onclick="x()">${ordinary}</div>`, 'body_html'),
    ]);
    const [refused, first, second] = outcomes;
    expect(refused.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'html_too_complex', fields: [{ field: 'body_html' }] });
    expect(first).toEqual({ status: 'fulfilled', value: sanitizeArticleHtml(ordinary) });
    expect(second).toEqual({ status: 'fulfilled', value: `<div>${sanitizeArticleHtml(ordinary)}</div>` });
  });

  it('goes on cleaning after a refusal, each fragment timed from when a worker takes it', async () => {
    const [refused, ...cleaned] = await Promise.allSettled([
      cleaner.sanitize(slow, 'body_html'),
      ...Array.from({ length: 5 }, (_, i) => cleaner.sanitize(`<p>${i}</p><script>x</script>`, 'body_html')),
    ]);
    expect(refused.status).toBe('rejected');
    expect(cleaned).toEqual([0, 1, 2, 3, 4].map((i) => ({ status: 'fulfilled', value: `<p>${i}</p>` })));
  });
});
