import crypto from 'node:crypto';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Value } from 'typebox/value';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../shared/api/common.ts';
import { loadConfig } from '../../config/config.ts';
import { sendHttp, withinOneHour, type HttpAnswer } from '../../testing/http-client.ts';
import { malformedMultipart } from '../../testing/malformed-multipart.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { deleteStaleUploads, UPLOAD_LIFETIME_MS } from './stale-uploads.ts';

const KIB = 1024;

/** A multipart body with one file of `bytes` random bytes, as a browser sends it. */
function uploadBody(bytes: number) {
  const boundary = `signpost-${crypto.randomBytes(6).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="f.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    crypto.randomBytes(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}

const tally = (answers: HttpAnswer[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

function expectRefusal(answer: HttpAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(answer.body);
  expect(Value.Check(ErrorBody, body), answer.body).toBe(true);
  expect(body).toMatchObject({ status, code, data: { errors: [{ field: 'file[]' }] } });
}

const ticket = {
  title: 'The display shows E42',
  description: 'Since this morning.',
  channel: 'web',
  name: 'Ann Lee',
  email: 'ann@example.com',
  files: [] as number[],
  g_recaptcha_response: '',
};

describe('UPLOAD_MB_PER_HOUR and UPLOADS_PENDING_MAX_MB', () => {
  const tickets = (env: Record<string, string>) => loadConfig({ DATA_DIR: os.tmpdir(), ...env }).tickets;

  it('are whole megabytes, 500 an hour per address and 5120 waiting unless set', () => {
    expect(tickets({})).toMatchObject({
      uploadBytesPerHour: 500 * 1024 * 1024,
      pendingUploadBytesMax: 5120 * 1024 * 1024,
    });
    expect(tickets({ UPLOAD_MB_PER_HOUR: '1', UPLOADS_PENDING_MAX_MB: '1000000' })).toMatchObject({
      uploadBytesPerHour: 1024 * 1024,
      pendingUploadBytesMax: 1_000_000 * 1024 * 1024,
    });
  });

  it('refuse anything else at start-up, naming the variable', () => {
    for (const variable of ['UPLOAD_MB_PER_HOUR', 'UPLOADS_PENDING_MAX_MB']) {
      for (const bad of ['0', '-1', '1.5', '500MB', '1000001']) {
        expect(() => tickets({ [variable]: bad }), `${variable}=${bad}`).toThrow(
          new RegExp(`^${variable}: must be a whole number of megabytes`),
        );
      }
    }
  });
});

describe.each(testDialects())('upload and request limits under concurrency, on %s', (dialect) => {
  const servers: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  /** A listening server behind one trusted proxy, so each test names its clients in X-Forwarded-For. */
  async function serve(env: Record<string, string>) {
    const t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none', TRUST_PROXY: 'true', ...env });
    servers.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { t, port: (t.app.server.address() as AddressInfo).port };
  }

  const upload = (
    port: number,
    client: string,
    bytes: number,
    options: { chunked?: boolean; cookie?: string } = {},
  ) => {
    const { type, body } = uploadBody(bytes);
    return sendHttp(port, {
      method: 'POST',
      path: '/api/file',
      headers: {
        'content-type': type,
        'x-forwarded-for': client,
        ...(options.chunked ? { 'transfer-encoding': 'chunked' } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      body,
    });
  };
  const uploadAll = (port: number, clients: string[], bytes: number) =>
    Promise.all(clients.map((client) => upload(port, client, bytes)));

  it('lets N uploads at once from one address past the calls an hour no more than the limit', async () => {
    const { port } = await serve({ UPLOADS_PER_HOUR: '3' });
    const answers = await withinOneHour((attempt) =>
      uploadAll(port, Array<string>(12).fill(`203.0.113.${attempt + 1}`), 10),
    );
    expect(tally(answers)).toEqual({ 200: 3, 429: 9 });
  });

  it('lets N support requests at once from one address past the requests an hour no more than the limit', async () => {
    const { port } = await serve({ REQUESTS_PER_HOUR: '3' });
    const answers = await withinOneHour((attempt) =>
      Promise.all(
        Array.from({ length: 12 }, () =>
          sendHttp(port, {
            method: 'POST',
            path: '/panel/api/issue-open',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${attempt + 1}` },
            body: JSON.stringify(ticket),
          }),
        ),
      ),
    );
    expect(tally(answers)).toEqual({ 201: 3, 429: 9 });
  });

  it('lets N uploads at once from one address store no more bytes an hour than the budget', async () => {
    const { port } = await serve({ UPLOAD_MB_PER_HOUR: '1', UPLOADS_PER_HOUR: '1000' });
    const answers = await withinOneHour((attempt) =>
      uploadAll(port, Array<string>(10).fill(`203.0.113.${attempt + 1}`), 300 * KIB),
    );
    // 300 KiB each: three fit in 1 MB, a fourth does not, whatever the order they arrive in.
    expect(tally(answers)).toEqual({ 200: 3, 429: 7 });
    const refused = answers.find((answer) => answer.status === 429)!;
    expectRefusal(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    const stored = answers
      .filter((answer) => answer.status === 200)
      .flatMap((answer) => JSON.parse(answer.body) as { file_size: number }[]);
    expect(stored.reduce((sum, file) => sum + file.file_size, 0)).toBeLessThanOrEqual(1024 * KIB);
  });

  it('gives back what a refused upload did not store, and counts an upload without a length as it streams', async () => {
    const { port } = await serve({ UPLOAD_MB_PER_HOUR: '1', UPLOADS_PER_HOUR: '1000' });
    const answers = await withinOneHour(async (attempt) => {
      const client = (n: number) => `198.51.100.${attempt * 10 + n}`;
      // A 900 KiB body that is not multipart stores nothing: all of it comes back.
      const [, type, text] = malformedMultipart('file[]')[0]!;
      const malformed = await sendHttp(port, {
        method: 'POST',
        path: '/api/file',
        headers: { 'content-type': type, 'x-forwarded-for': client(1) },
        body: text + 'x'.repeat(900 * KIB),
      });
      const afterMalformed = await upload(port, client(1), 300 * KIB);
      // Sent in chunks without Content-Length: counted as the bytes come, refused once past the budget.
      const chunkedTooMuch = await upload(port, client(2), 1536 * KIB, { chunked: true });
      const chunked = await upload(port, client(3), 600 * KIB, { chunked: true });
      const afterChunked = await upload(port, client(3), 600 * KIB);
      return { malformed, afterMalformed, chunkedTooMuch, chunked, afterChunked };
    });
    expect(answers.malformed.status).toBe(400);
    expect(answers.afterMalformed.status).toBe(200);
    expectRefusal(answers.chunkedTooMuch, 429, 'rate_limited');
    expect(answers.chunked.status).toBe(200);
    expectRefusal(answers.afterChunked, 429, 'rate_limited');
  });

  it('caps the uploads nobody has sent yet, for everyone together, and frees what is sent or swept', async () => {
    const { t, port } = await serve({
      UPLOADS_PENDING_MAX_MB: '1',
      UPLOAD_MB_PER_HOUR: '1000',
      UPLOADS_PER_HOUR: '1000',
    });
    const clients = Array.from({ length: 10 }, (_, i) => `192.0.2.${i + 1}`);
    const answers = await uploadAll(port, clients, 300 * KIB);
    expect(tally(answers)).toEqual({ 200: 3, 507: 7 });
    expectRefusal(
      answers.find((answer) => answer.status === 507)!,
      507,
      'insufficient_storage',
    );
    expect((await upload(port, '192.0.2.50', 300 * KIB)).status).toBe(507);

    // One of them goes with a support request: its bytes are no longer waiting.
    const accepted = answers.find((answer) => answer.status === 200)!;
    const cookie = String(accepted.headers['set-cookie']).split(';')[0]!;
    const [file] = JSON.parse(accepted.body) as { id: number }[];
    const sent = await sendHttp(port, {
      method: 'POST',
      path: '/panel/api/issue-open',
      headers: { 'content-type': 'application/json', cookie, 'x-forwarded-for': '192.0.2.60' },
      body: JSON.stringify({ ...ticket, files: [file!.id] }),
    });
    expect(sent.status, sent.body).toBe(201);
    expect((await upload(port, '192.0.2.51', 300 * KIB)).status).toBe(200);
    expect((await upload(port, '192.0.2.52', 300 * KIB)).status).toBe(507);

    // Those nobody sent are deleted after a day, and make room again.
    expect(await deleteStaleUploads(t.ctx, Date.now() + UPLOAD_LIFETIME_MS + 1000)).toBe(3);
    expect(tally(await uploadAll(port, clients.slice(0, 4), 300 * KIB))).toEqual({ 200: 3, 507: 1 });
  });
});
