/**
 * What cleaning large HTML costs the server's other requests. An admin's save of 1 MiB of dense markup, or of
 * 100,000 nested elements, goes through the sanitiser, which needs most of a second for the first: on the main thread
 * every other request would wait that long. The cleaner (src/server/html/clean-html.ts) runs it on worker threads.
 *
 * Prints, for each fragment and for both at once, the reference measured in the same run (the sanitiser on the main
 * thread: how long the event loop would stall), then the time through the cleaner's workers and the event loop's
 * longest stall meanwhile (a 1 ms timer's longest gap: what every request on the server waits at worst), and the
 * ratio of that stall to the reference (the test held it under 1/2; a few hundredths is usual). Medians of
 * BENCH_ROUNDS rounds (3).
 *
 *   npm run bench:html
 */
import { performance } from 'node:perf_hooks';
import { MAX_HTML_BYTES } from '../src/shared/api/admin.ts';
import { createHtmlCleaner } from '../src/server/html/clean-html.ts';
import { sanitizeArticleHtml } from '../src/server/html/sanitize.ts';
import { longestStall } from './support/event-loop.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const tag = '<p><b>x</b> <a href="https://example.com/">y</a></p>';
const fragments: Record<string, string> = {
  'dense 1 MiB': tag.repeat(Math.floor((MAX_HTML_BYTES - 100) / tag.length)),
  '100,000 levels': `${'<div>'.repeat(100_000)}deep text`,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1).padStart(8)} ms`;

async function main() {
  // No time limit here: a slow machine's figure, not a refusal.
  const cleaner = createHtmlCleaner({ timeoutMs: 60_000 });
  await cleaner.warmUp();
  const cases: [string, string[]][] = [
    ...Object.entries(fragments).map(([name, html]): [string, string[]] => [name, [html]]),
    ['both at once', Object.values(fragments)],
  ];
  console.log(`HTML cleaning, medians of ${ROUNDS} rounds`);
  console.log(
    `${'fragment'.padEnd(16)}${'main thread'.padStart(14)}${'on workers'.padStart(14)}${'longest stall'.padStart(16)}${'stall / main'.padStart(15)}`,
  );
  try {
    for (const [name, htmls] of cases) {
      const inline: number[] = [];
      const workers: number[] = [];
      const stalls: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The reference: the sanitiser where the request is, as it ran before the workers.
        const started = performance.now();
        for (const html of htmls) sanitizeArticleHtml(html);
        inline.push(performance.now() - started);
        const measured = await longestStall(() =>
          Promise.all(htmls.map((html) => cleaner.sanitize(html, 'body_html'))),
        );
        workers.push(measured.ms);
        stalls.push(measured.stall);
      }
      const reference = median(inline);
      const stall = median(stalls);
      console.log(
        `${name.padEnd(16)}${ms(reference).padStart(14)}${ms(median(workers)).padStart(14)}${ms(stall).padStart(16)}${(stall / reference).toFixed(3).padStart(15)}`,
      );
    }
  } finally {
    await cleaner.close();
  }
}

await main();
