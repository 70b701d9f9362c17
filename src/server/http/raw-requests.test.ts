import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../testing/run-cli.ts';
import { createTestEnvironment, type TestEnvironment } from '../testing/test-context.ts';

/** Sends bytes as they are (no client library to clean them up) and answers what came back before the close. */
function sendRaw(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(bytes)}`)));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    // Written, not ended: Node's HTTP server takes a half-closed connection for a client gone away.
    socket.write(bytes);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

/**
 * A request line as no browser sends it, logged by the production logger of a real server process: the process
 * must answer it and go on (app.inject with logging off cannot show this: the log serializer is what broke).
 */
describe('a real server logging in production', () => {
  let environment: TestEnvironment;
  let server: Awaited<ReturnType<typeof startServe>>;

  beforeAll(async () => {
    environment = await createTestEnvironment('sqlite');
    server = await startServe({ ...environment.env, DEMO_CONTENT: 'false' });
  });

  afterAll(async () => {
    await server?.stop();
    await environment?.cleanup();
  });

  const targets = [
    '/healthz?%=1',
    '/healthz?%E0%A4%A=1',
    '/healthz?a=1&%ZZ&b',
    '/api/knowledge/instruction/1?%=1&signature=%',
    '/knowledge/?%=1',
    '/knowledge/%',
    '/knowledge/instruction/%E0%A4%A',
    '/api/knowledge/category?%ff=%ff',
    '/files/1/%?signature=%&expires=%',
    '/%?%',
  ];

  it.each(targets)('answers GET %s and keeps running', async (target) => {
    const answer = await sendRaw(
      server.url,
      `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(answer)).toBeGreaterThanOrEqual(200);
    expect(statusOf(answer)).toBeLessThan(500);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('logged those requests without failing', () => {
    expect(server.output()).not.toMatch(/URIError|uncaught|"level":60/i);
    expect(server.output()).toContain('%ZZ');
  });
});
