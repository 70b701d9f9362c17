/**
 * How long a visitor's browser works on the request form's captcha. The solver the form loads
 * (src/web/features/request/altcha-solver.ts) runs in Debian's Chromium on challenges of the server's form, for a
 * range of 50,000 (what we issue) and 1,000,000 (the ALTCHA libraries' default), with the hidden number half way
 * (what a visitor waits on average) and at the end (the longest wait). Twice: at this machine's speed, and with the
 * page's CPU slowed four times (Chromium's throttling, the stand-in for a mid-range phone). Prints the medians of
 * BENCH_ROUNDS rounds (1; a round takes about two minutes on 2 cores) and the ratio of 1,000,000 to 50,000.
 *
 *   npm run bench:captcha
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { CaptchaChallenge } from '../src/shared/api/tickets.ts';
import { launchBrowser } from '../e2e/support/browser.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const RANGES = [50_000, 1_000_000];
const SLOWDOWNS = [1, 4];

const solver = await build({
  entryPoints: [path.resolve(import.meta.dirname, '../src/web/features/request/altcha-solver.ts')],
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
});
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { solveChallenge } from '/solver.js';
window.solve = async (challenge) => {
  const start = performance.now();
  await solveChallenge(challenge, new AbortController().signal);
  return performance.now() - start;
};
</script>`;
const server = http.createServer((request, response) => {
  const script = request.url === '/solver.js';
  response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
  response.end(script ? solver.outputFiles[0]!.text : page);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/** A challenge as the server writes it (captcha.service.ts), with the number chosen. */
function challengeHiding(number: number, maxnumber: number): CaptchaChallenge {
  const salt = `${crypto.randomBytes(12).toString('hex')}?expires=${Math.floor(Date.now() / 1000) + 600}&`;
  const challenge = crypto.createHash('sha256').update(`${salt}${number}`).digest('hex');
  return { algorithm: 'SHA-256', challenge, maxnumber, salt, signature: '0'.repeat(64) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2).padStart(7)} s`;

const browser = await launchBrowser();
const times = new Map<string, number[]>();
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await tab.waitForFunction(() => 'solve' in window);
  const cdp = await tab.context().newCDPSession(tab);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const slowdown of SLOWDOWNS) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      for (const range of RANGES) {
        for (const [where, number] of [
          ['expected', range / 2],
          ['worst', range],
        ] as const) {
          const ms = await tab.evaluate(
            (challenge) => (window as unknown as { solve: (c: unknown) => Promise<number> }).solve(challenge),
            challengeHiding(number, range),
          );
          const key = `${slowdown}|${range}|${where}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
          console.log(
            `round ${round}  CPU /${slowdown}  ${String(range).padStart(9)}  ${where.padEnd(8)} ${seconds(ms)}`,
          );
        }
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}

console.log(`\nThe captcha's solver in Chromium, medians of ${ROUNDS} round(s)`);
console.log(`CPU   wait        50,000  1,000,000  ratio`);
for (const slowdown of SLOWDOWNS) {
  for (const where of ['expected', 'worst']) {
    const [small, large] = RANGES.map((range) => median(times.get(`${slowdown}|${range}|${where}`)!));
    const cpu = slowdown === 1 ? 'as is' : `/${slowdown}`;
    console.log(
      `${cpu.padEnd(6)}${where.padEnd(9)}${seconds(small!)}  ${seconds(large!)}  ${(large! / small!).toFixed(1)}x`,
    );
  }
}
