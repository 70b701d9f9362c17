import type { AddressInfo } from 'node:net';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../shared/api/common.ts';
import { UPLOAD_FILE_MAX_BYTES } from '../../shared/constants.ts';
import { adminAndUserTokens } from '../testing/admin-content.ts';
import { openRawConnection, type RawResponse } from '../testing/raw-http.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';

const CHUNK = 64 * 1024;

interface Refusal {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** How much of the body goes out before the client waits for the answer; the rest follows after it. */
  sentBeforeAnswer: number;
}

/** One multipart file part of `bytes` bytes, as a browser sends it. */
function multipartBody(field: string, bytes: number): { type: string; body: Buffer; head: number } {
  const boundary = 'signpost-discard-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const body = Buffer.concat([head, Buffer.alloc(bytes, 7), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { type: `multipart/form-data; boundary=${boundary}`, body, head: head.length };
}

/**
 * Sends a body the server refuses part-way: the first part, then (once the whole refusal has been read, so the server
 * certainly answered while the client was still sending) the rest, a chunk at a time, then a second request on the
 * same connection. A server that stops reading leaves the rest unread, and its close resets the connection.
 */
async function refuseWhileSending(port: number, refusal: Refusal) {
  const connection = await openRawConnection(port);
  try {
    const headers = Object.entries({ ...refusal.headers, 'content-length': String(refusal.body.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    await connection.write(`POST ${refusal.path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`);
    // Not awaited: a server that stops reading never takes all of it.
    connection.write(refusal.body.subarray(0, refusal.sentBeforeAnswer)).catch(() => undefined);
    const refused = await connection.response();
    for (let offset = refusal.sentBeforeAnswer; offset < refusal.body.length; offset += CHUNK) {
      await connection.write(refusal.body.subarray(offset, offset + CHUNK));
    }
    await connection.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const next = await connection.response();
    return { refused, next };
  } finally {
    connection.destroy();
  }
}

function expectErrorShape(response: RawResponse, status: number, code: string, field: string) {
  expect(response.status, response.body.toString()).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(response.body.toString());
  expect(Value.Check(ErrorBody, body), response.body.toString()).toBe(true);
  expect(body).toMatchObject({ status, code, data: { errors: [{ field }] } });
}

describe.each(testDialects())('a body refused while it is still coming, on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none', UPLOADS_PER_HOUR: '1000' });
    adminToken = (await adminAndUserTokens(t)).adminToken;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const oversize = UPLOAD_FILE_MAX_BYTES + 2 * 1024 * 1024;

  it.each([
    ['a visitor’s upload', '/api/file', 'file[]', false],
    ['an admin’s upload', '/api/admin/files', 'file', true],
  ])(
    'answers %s over 25 MB with the whole 413 and reads the rest, keeping the connection',
    async (_, path, field, asAdmin) => {
      const { type, body, head } = multipartBody(field, oversize);
      const { refused, next } = await refuseWhileSending(port, {
        path,
        headers: {
          'content-type': type,
          ...(asAdmin ? { 'x-auth-token': adminToken } : {}),
        },
        body,
        sentBeforeAnswer: head + UPLOAD_FILE_MAX_BYTES + 512 * 1024,
      });
      expectErrorShape(refused, 413, 'file_too_large', field);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body.toString())).toEqual({ status: 'ok' });
    },
    60_000,
  );

  it('answers a JSON body over 1 MB with the whole 413 and reads the rest, keeping the connection', async () => {
    const body = Buffer.from(JSON.stringify({ title: 'x', description: 'd'.repeat(3 * 1024 * 1024) }));
    const { refused, next } = await refuseWhileSending(port, {
      path: '/panel/api/issue-open',
      headers: { 'content-type': 'application/json' },
      body,
      sentBeforeAnswer: 1536 * 1024,
    });
    expectErrorShape(refused, 413, 'body_too_large', 'body');
    expect(next.status).toBe(200);
  }, 60_000);
});

describe('a refused body larger than the server drains', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    const [dialect = 'sqlite'] = testDialects();
    t = await createTestApp(
      dialect,
      { CAPTCHA_PROVIDER: 'none' },
      { discardLimits: { maxBytes: 1024 * 1024, maxMs: 30_000 } },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  it('has its connection cut once the bound is read, after the whole 413', async () => {
    const { type, body, head } = multipartBody('file[]', UPLOAD_FILE_MAX_BYTES + 4 * 1024 * 1024);
    const connection = await openRawConnection(port);
    try {
      await connection.write(
        `POST /api/file HTTP/1.1\r\nHost: localhost\r\ncontent-type: ${type}\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      const sentBeforeAnswer = head + UPLOAD_FILE_MAX_BYTES + 512 * 1024;
      connection.write(body.subarray(0, sentBeforeAnswer)).catch(() => undefined);
      expectErrorShape(await connection.response(), 413, 'file_too_large', 'file[]');
      // More than a megabyte is left: the server reads one, then hangs up instead of reading on.
      for (let offset = sentBeforeAnswer; offset < body.length; offset += CHUNK) {
        if (
          !(await connection.write(body.subarray(offset, offset + CHUNK)).then(
            () => true,
            () => false,
          ))
        )
          break;
      }
      await connection.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n').catch(() => undefined);
      await expect(connection.response()).rejects.toThrow(/connection ended/);
    } finally {
      connection.destroy();
    }
  }, 60_000);
});
