/**
 * bench:http's phase `own-work`: what Signpost itself does for an answer from memory, in one process, with no
 * socket: the app is built on a demo database, the article page is kept, then `serveFromMemory` answers it a
 * million times to a response that writes nothing (Node's own work, writing the head and the body, is left out). On a
 * shared machine this figure hardly moves, where requests per second move by half.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config/config.ts';
import { createContext } from '../../src/server/context-factory.ts';
import { seedOnFirstStart } from '../../src/server/features/content-folder/demo.service.ts';

/** What a browser sends with a page's request (bench:http's requests carry the same). */
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-GB,en;q=0.9',
};

export async function measureOwnWork(dataDir: string, answers = 1_000_000, rounds = 5): Promise<void> {
  // The revision is trusted for a minute, so no read of the database falls inside a round.
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, REVISION_CHECK_MS: '60000' });
  const ctx = await createContext(config);
  await seedOnFirstStart(ctx);
  const app = await buildApp(ctx);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const articles = (await (await fetch(`http://127.0.0.1:${port}/api/knowledge/instruction`)).json()) as {
      items: { id: number }[];
    };
    const url = `/knowledge/instruction/${articles.items[0]?.id}`;
    for (let i = 0; i < 2; i++)
      await (await fetch(`http://127.0.0.1:${port}${url}`, { headers: BROWSER })).arrayBuffer();

    let headerValues = 0;
    const request = { method: 'GET', url, headers: BROWSER } as unknown as IncomingMessage;
    const response = {
      writeHead: (_status: number, headers: string[]) => (headerValues += headers.length),
      end: () => undefined,
    } as unknown as ServerResponse;
    if (!app.responseCache.serveFromMemory(request, response))
      throw new Error(`${url} was not answered from memory`);
    const perAnswer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < answers; i++) app.responseCache.serveFromMemory(request, response);
      perAnswer.push(Number(process.hrtime.bigint() - started) / answers);
    }
    perAnswer.sort((a, b) => a - b);
    console.log(
      `\nSignpost's own work per answer from memory (the article page, a browser's headers, in one process, no ` +
        `socket; ${rounds} rounds of ${answers.toLocaleString('en')}): median ` +
        `${(perAnswer[Math.floor(rounds / 2)]! / 1000).toFixed(2)} µs, fastest ${(perAnswer[0]! / 1000).toFixed(2)} µs`,
    );
  } finally {
    await app.close();
    await ctx.database.close();
  }
}
