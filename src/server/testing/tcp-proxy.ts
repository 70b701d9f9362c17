import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type Outage =
  /** Connections are cut and new ones refused: a database restarting or stopped. */
  | 'drop'
  /** Nothing answers, nothing is closed: a database frozen (SIGSTOP) or a network that drops every packet. */
  | 'hang';

/**
 * A TCP proxy in front of a server (PostgreSQL in the fault tests), which a test can take down in either way and
 * bring back, without touching the server that other tests share.
 */
export interface TcpProxy {
  port: number;
  down(outage: Outage): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: 'up' | Outage = 'up';
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null }>();

  const forward = (pair: { client: net.Socket; upstream: net.Socket | null }) => {
    const { client } = pair;
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
  };

  const server = net.createServer((client) => {
    const pair = { client, upstream: null as net.Socket | null };
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (state === 'drop') return void client.destroy();
    pairs.add(pair);
    // A frozen server's kernel still accepts the connection; nothing more happens.
    if (state === 'hang') return void client.pause();
    forward(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    down(outage) {
      state = outage;
      for (const pair of pairs) {
        if (outage === 'drop') {
          pair.client.destroy();
          pair.upstream?.destroy();
        } else {
          pair.client.unpipe();
          pair.upstream?.unpipe();
          pair.client.pause();
          pair.upstream?.pause();
        }
      }
    },
    up() {
      if (state === 'up') return;
      const wasFrozen = state === 'hang';
      state = 'up';
      if (!wasFrozen) return;
      // What was frozen goes on where it stopped, as a server does after SIGCONT.
      for (const pair of pairs) {
        if (pair.client.destroyed) continue;
        if (!pair.upstream) forward(pair);
        else {
          pair.client.pipe(pair.upstream);
          pair.upstream.pipe(pair.client);
        }
        pair.client.resume();
        pair.upstream?.resume();
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
