import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { sendHttp, withinOneHour } from '../testing/http-client.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { clientKey } from './client-address.ts';

describe('the key a client is counted by', () => {
  it('is an IPv4 address as it is, and an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientKey({ ip: '203.0.113.7' })).toBe('203.0.113.7');
    expect(clientKey({ ip: '::ffff:203.0.113.7' })).toBe('203.0.113.7');
    expect(clientKey({ ip: '::FFFF:cb00:7107' })).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written: one host holds a whole /64', () => {
    for (const ip of [
      '2001:db8:1:2::a',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:3:4:5:6',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::1.2.3.4',
    ]) {
      expect(clientKey({ ip }), ip).toBe('2001:db8:1:2::/64');
    }
    expect(clientKey({ ip: '2001:db8:1:3::a' })).toBe('2001:db8:1:3::/64');
    expect(clientKey({ ip: '::1' })).toBe('0:0:0:0::/64');
    expect(clientKey({ ip: '2001:db8::' })).toBe('2001:db8:0:0::/64');
  });

  it('is whatever else the address is, unchanged', () => {
    expect(clientKey({ ip: 'unknown' })).toBe('unknown');
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ DATA_DIR: os.tmpdir(), TRUST_PROXY: value }).trustProxy;

  it('is false, true (one proxy in front), a number of proxies, or the proxies’ addresses and ranges', () => {
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
    expect(trust('3')).toBe(3);
    expect(trust('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(trust(' 127.0.0.1, 10.0.0.0/8 ,fd00::/8,::1 ')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
    ]);
  });

  it('refuses anything else at start-up, naming the variable', () => {
    for (const bad of [
      'yes',
      '0',
      '-1',
      '1.5',
      'true,10.0.0.1',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/8/8',
      '300.1.1.1',
      '10.0.0.0/',
      'loopback',
      '*',
      ',',
    ]) {
      expect(() => trust(bad), bad).toThrow(/^TRUST_PROXY: .*proxies/);
    }
  });
});

const request = {
  title: 'The display shows E42',
  description: 'Since this morning.',
  channel: 'web',
  name: 'Ann Lee',
  email: 'ann@example.com',
  files: [],
  g_recaptcha_response: '',
};

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describe.each(testDialects())('the client address behind proxies, on %s', (dialect) => {
  const servers: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  /** A listening server allowing 3 support requests and 3 uploads an hour per client. */
  async function serve(trustProxy: string): Promise<number> {
    const t = await createTestApp(dialect, {
      CAPTCHA_PROVIDER: 'none',
      REQUESTS_PER_HOUR: '3',
      UPLOADS_PER_HOUR: '3',
      TRUST_PROXY: trustProxy,
    });
    servers.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as AddressInfo).port;
  }

  const open = (port: number, forwardedFor: string) =>
    sendHttp(port, {
      method: 'POST',
      path: '/panel/api/issue-open',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify(request),
    });
  /** Sends one request per X-Forwarded-For value, all at once; answers how many got each status. */
  const openAll = async (port: number, forwardedFor: string[]) =>
    tally((await Promise.all(forwardedFor.map((value) => open(port, value)))).map((a) => a.status));

  it('with true, believes only the entry the proxy added: made-up entries before it are the same client', async () => {
    const port = await serve('true');
    const { spoofed, other } = await withinOneHour(async (attempt) => {
      const client = `203.0.113.${10 + attempt}`;
      const made = ['198.51.100.1', '10.0.0.1', '::1', 'unknown', '2001:db8::1'];
      const spoofed = await openAll(
        port,
        Array.from({ length: 12 }, (_, i) => `${made[i % made.length]}, 198.51.100.${i}, ${client}`),
      );
      const other = (await open(port, `${client}, 203.0.113.${20 + attempt}`)).status;
      return { spoofed, other };
    });
    expect(spoofed).toEqual({ 201: 3, 429: 9 });
    expect(other).toBe(201);
  });

  it('with a number of proxies, takes that many entries from the right: 2 takes the second', async () => {
    const port = await serve('2');
    const { spoofed, other } = await withinOneHour(async (attempt) => {
      const client = `203.0.113.${10 + attempt}`;
      const spoofed = await openAll(
        port,
        Array.from({ length: 10 }, (_, i) => `198.51.100.${i}, ${client}, 10.0.0.${i}`),
      );
      // One entry fewer: the leftmost is then the second from the right.
      const other = (await open(port, `203.0.113.${20 + attempt}, ${client}`)).status;
      return { spoofed, other };
    });
    expect(spoofed).toEqual({ 201: 3, 429: 7 });
    expect(other).toBe(201);
  });

  it('with a list, skips only the listed proxies: the first other entry from the right is the client', async () => {
    const port = await serve('127.0.0.1, 10.0.0.0/8');
    const { behindProxies, unlisted } = await withinOneHour(async (attempt) => {
      const client = `203.0.113.${10 + attempt}`;
      const behindProxies = await openAll(
        port,
        Array.from({ length: 10 }, (_, i) => `198.51.100.${i}, ${client}, 10.${i}.0.1, 10.0.0.2`),
      );
      // 192.0.2.1 is no listed proxy, so what it says came before is not believed.
      const unlisted = await openAll(
        port,
        Array.from({ length: 10 }, (_, i) => `198.51.100.${i}, 192.0.2.${1 + attempt}, 10.0.0.2`),
      );
      return { behindProxies, unlisted };
    });
    expect(behindProxies).toEqual({ 201: 3, 429: 7 });
    expect(unlisted).toEqual({ 201: 3, 429: 7 });
  });

  it('with a list that does not hold the peer, believes no entry at all', async () => {
    const answers = await withinOneHour(async () => {
      const port = await serve('10.0.0.0/8');
      return openAll(
        port,
        Array.from({ length: 8 }, (_, i) => `198.51.100.${i}`),
      );
    });
    // The server's own peer (127.0.0.1) is the client of them all.
    expect(answers).toEqual({ 201: 3, 429: 5 });
  });

  it('counts IPv6 clients by their /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const port = await serve('true');
    const answers = await withinOneHour(async (attempt) => {
      const prefix = `2001:db8:${attempt + 1}:2`;
      const sameNetwork = await openAll(
        port,
        Array.from({ length: 8 }, (_, i) => `${prefix}:${(i * 4099).toString(16)}::${i + 1}`),
      );
      const nextNetwork = (await open(port, `2001:db8:${attempt + 1}:3::1`)).status;
      const v4 = `203.0.113.${30 + attempt}`;
      const plain = await openAll(port, [v4, v4, v4]);
      const mapped = (await open(port, `::ffff:${v4}`)).status;
      const upload = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          sendHttp(port, {
            method: 'POST',
            path: '/api/file',
            headers: {
              'content-type': 'multipart/form-data; boundary=b',
              'x-forwarded-for': `${prefix}::${(i + 100).toString(16)}`,
            },
            body: `--b\r\nContent-Disposition: form-data; name="file[]"; filename="a.txt"\r\n\r\nabc\r\n--b--\r\n`,
          }),
        ),
      );
      return { sameNetwork, nextNetwork, plain, mapped, upload: tally(upload.map((a) => a.status)) };
    });
    expect(answers).toEqual({
      sameNetwork: { 201: 3, 429: 5 },
      nextNetwork: 201,
      plain: { 201: 3 },
      mapped: 429,
      upload: { 200: 3, 429: 2 },
    });
  });
});
