import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on now, for a process that must be told its port before it starts
 * (nginx, Dovecot, a server under a benchmark). Another process could take it meanwhile; on a test machine none does.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
