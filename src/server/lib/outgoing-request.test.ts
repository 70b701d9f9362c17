import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outgoingRequest } from './outgoing-request.ts';

interface Received {
  method: string;
  path: string;
  host: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One real server, reached as two hosts (127.0.0.1 and localhost): /hop/N/TARGET answers 302 to /hop/N-1/TARGET,
 * and /hop/0/TARGET to TARGET; /status/S/TARGET answers S to TARGET; anything else answers 200. Every request is
 * recorded.
 */
let server: http.Server;
let port: number;
const received: Received[] = [];
const at = (host: string, path: string) => `http://${host}:${port}${path}`;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({
        method: request.method ?? '',
        path,
        host: request.headers.host ?? '',
        headers: request.headers,
        body,
      });
      const hop = /^\/hop\/(\d+)\/(.+)$/.exec(path);
      const status = /^\/status\/(\d+)\/(.+)$/.exec(path);
      if (hop) {
        const left = Number(hop[1]);
        const target = decodeURIComponent(hop[2]!);
        response
          .writeHead(302, { location: left === 0 ? target : `/hop/${left - 1}/${hop[2]}` })
          .end('moved');
      } else if (status) {
        response.writeHead(Number(status[1]), { location: decodeURIComponent(status[2]!) }).end('moved');
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
      }
    });
  });
  // Every address of the machine, so that localhost answers whichever family it resolves to.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

const paths = () => received.map((r) => r.path);
const secrets = {
  authorization: 'Bearer key-1',
  cookie: 'session=s1',
  'x-signature': 'sha256=abc',
  'content-type': 'application/json',
};

describe('outgoingRequest', () => {
  it('does not follow a redirect unless asked: the 3xx is the answer, and its target receives nothing', async () => {
    const target = at('127.0.0.1', '/target');
    const response = await outgoingRequest(at('127.0.0.1', `/status/307/${encodeURIComponent(target)}`), {
      method: 'POST',
      headers: secrets,
      body: '{"input":["article text"]}',
      timeoutMs: 5000,
    });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(target);
    expect(await response.text()).toBe('moved');
    expect(paths()).toEqual([`/status/307/${encodeURIComponent(target)}`]);
  });

  it('follows at most three redirects when asked, and fails past them with the fourth target never asked', async () => {
    const target = encodeURIComponent(at('127.0.0.1', '/target'));
    const three = await outgoingRequest(at('127.0.0.1', `/hop/2/${target}`), {
      timeoutMs: 5000,
      redirects: 3,
    });
    expect(three.status).toBe(200);
    expect(await three.text()).toBe('arrived');
    expect(paths()).toEqual([`/hop/2/${target}`, `/hop/1/${target}`, `/hop/0/${target}`, '/target']);

    received.length = 0;
    await expect(
      outgoingRequest(at('127.0.0.1', `/hop/3/${target}`), { timeoutMs: 5000, redirects: 3 }),
    ).rejects.toThrow(`more than 3 redirects from http://127.0.0.1:${port}`);
    expect(paths()).toEqual([`/hop/3/${target}`, `/hop/2/${target}`, `/hop/1/${target}`, `/hop/0/${target}`]);

    // A caller asking for more gets three.
    received.length = 0;
    await expect(
      outgoingRequest(at('127.0.0.1', `/hop/3/${target}`), { timeoutMs: 5000, redirects: 10 }),
    ).rejects.toThrow(/more than 3 redirects/);
    expect(paths()).not.toContain('/target');
  });

  it('keeps the credentials on the same host and drops Authorization, cookies and the named secret on another', async () => {
    const sameHost = at('127.0.0.1', '/target');
    await outgoingRequest(at('127.0.0.1', `/status/307/${encodeURIComponent(sameHost)}`), {
      method: 'POST',
      headers: secrets,
      body: 'payload',
      timeoutMs: 5000,
      redirects: 1,
      secretHeaders: ['X-Signature'],
    });
    const kept = received.at(-1)!;
    expect(kept).toMatchObject({
      method: 'POST',
      path: '/target',
      host: `127.0.0.1:${port}`,
      body: 'payload',
    });
    expect(kept.headers).toMatchObject({
      authorization: 'Bearer key-1',
      cookie: 'session=s1',
      'x-signature': 'sha256=abc',
    });

    received.length = 0;
    // Through a second hop on the other host and back: once dropped, they stay dropped.
    const back = at('127.0.0.1', '/target');
    const response = await outgoingRequest(
      at(
        '127.0.0.1',
        `/status/307/${encodeURIComponent(at('localhost', `/status/307/${encodeURIComponent(back)}`))}`,
      ),
      {
        headers: secrets,
        timeoutMs: 5000,
        redirects: 3,
        secretHeaders: ['X-Signature'],
      },
    );
    expect(response.status).toBe(200);
    expect(received.map((r) => r.host)).toEqual([
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `127.0.0.1:${port}`,
    ]);
    expect(received[0]!.headers.authorization).toBe('Bearer key-1');
    for (const later of received.slice(1)) {
      expect(later.headers.authorization).toBeUndefined();
      expect(later.headers.cookie).toBeUndefined();
      expect(later.headers['x-signature']).toBeUndefined();
      expect(later.headers['content-type']).toBe('application/json');
    }
  });

  it('refuses a 307 or 308 that would send the body to another origin, which receives nothing', async () => {
    for (const status of [307, 308]) {
      received.length = 0;
      const other = at('localhost', '/target');
      const first = `/status/${status}/${encodeURIComponent(other)}`;
      await expect(
        outgoingRequest(at('127.0.0.1', first), {
          method: 'POST',
          headers: secrets,
          body: new URLSearchParams({ secret: 'captcha-secret', response: 'token' }),
          timeoutMs: 5000,
          redirects: 3,
        }),
      ).rejects.toThrow(
        `refused a ${status} redirect from http://127.0.0.1:${port} to ${other}: the body is not sent to another origin`,
      );
      expect(received.map((r) => [r.host, r.path])).toEqual([[`127.0.0.1:${port}`, first]]);
    }
  });

  it('asks a 303 or 302 after a POST with GET and no body, as browsers do', async () => {
    for (const status of [302, 303]) {
      received.length = 0;
      const response = await outgoingRequest(at('127.0.0.1', `/status/${status}/%2Ftarget`), {
        method: 'POST',
        headers: secrets,
        body: 'payload',
        timeoutMs: 5000,
        redirects: 1,
      });
      expect(response.status).toBe(200);
      expect(received.at(-1)).toMatchObject({ method: 'GET', path: '/target', body: '' });
      expect(received.at(-1)!.headers['content-type']).toBeUndefined();
    }
  });

  it('refuses a target that is not http or https, the first or a redirect', async () => {
    await expect(outgoingRequest('file:///etc/passwd', { timeoutMs: 5000 })).rejects.toThrow(
      'refused to send a request to a file: address',
    );
    await expect(
      outgoingRequest(at('127.0.0.1', `/status/302/${encodeURIComponent('file:///etc/passwd')}`), {
        timeoutMs: 5000,
        redirects: 3,
      }),
    ).rejects.toThrow('refused to send a request to a file: address');
  });

  it('gives up after the timeout, redirects included, with the TimeoutError fetch throws', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      const error = await outgoingRequest(at('127.0.0.1', `/status/302/${encodeURIComponent(slow)}`), {
        timeoutMs: 300,
        redirects: 1,
      }).catch((e: unknown) => e);
      expect((error as Error).name).toBe('TimeoutError');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
