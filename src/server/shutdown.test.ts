import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServe } from './testing/run-cli.ts';
import { sql } from 'kysely';
import { createContext } from './context-factory.ts';
import { removeUnusedBytes, UNUSED_BYTES_GRACE_MS } from './files/unused-bytes.ts';
import { readAll } from './storage/file-storage.ts';
import { partialUploads } from './testing/stored-files.ts';
import { createTestEnvironment, testDialects } from './testing/test-context.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Whether a new TCP connection to the port is accepted: the error code when it is refused. */
const connect = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });

describe.each(testDialects())('graceful shutdown on %s', (dialect) => {
  it('finishes an upload in flight on SIGTERM, refuses new connections, then exits 0', async () => {
    const environment = await createTestEnvironment(dialect, { DEMO_CONTENT: 'false' });
    try {
      const server = await startServe(environment.env);
      const port = Number(new URL(server.url).port);
      expect(await connect(port)).toBe('connected');

      const boundary = 'slow-upload-boundary';
      const content = crypto.randomBytes(768 * 1024);
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="slow.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/file',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + content.length + tail.length),
        },
      });
      const closed = new Promise<void>((resolve) =>
        request.once('socket', (socket) => socket.once('close', () => resolve())),
      );
      const answer = new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
        (resolve, reject) => {
          request.once('response', (response) => {
            let body = '';
            response.on('data', (chunk) => (body += chunk));
            response.once('end', () =>
              resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
            );
          });
          request.once('error', reject);
        },
      );

      // The upload starts: the server is reading it when the signal comes.
      const CHUNK = 64 * 1024;
      request.write(head);
      request.write(content.subarray(0, CHUNK));
      await waitFor('the upload to reach the server', () => server.output().includes('"url":"/api/file"'));
      const exited = server.stop();
      await waitFor('the server to begin shutting down', () => server.output().includes('shutting down'));
      await sleep(50);
      expect(await connect(port)).toBe('ECONNREFUSED');

      // The rest arrives slowly, well after the signal.
      for (let offset = CHUNK; offset < content.length; offset += CHUNK) {
        request.write(content.subarray(offset, offset + CHUNK));
        await sleep(40);
      }
      request.end(tail);
      const { status, body, headers } = await answer;
      expect(status, body).toBe(200);
      const [stored] = JSON.parse(body) as { id: number; original_name: string; file_size: number }[];
      expect(stored).toEqual({
        id: expect.any(Number),
        original_name: 'slow.bin',
        file_size: content.length,
      });
      // Its keep-alive connection closes with it (the server ends it), so the exit waits for no idle connection.
      expect(headers.connection).toBe('close');
      await closed;
      expect(await exited).toBe(0);

      // What the upload stored is all there once the process is gone.
      const key = crypto.createHash('sha256').update(content).digest('hex');
      const ctx = await createContext(environment.config);
      try {
        expect((await readAll(ctx.storage, key)).equals(content)).toBe(true);
        const row = await ctx.db
          .selectFrom('files')
          .selectAll()
          .where('id', '=', stored?.id ?? 0)
          .executeTakeFirst();
        expect(row).toMatchObject({ storage_key: key, size: content.length, kind: 'upload' });
      } finally {
        await ctx.database.close();
      }
    } finally {
      await environment.cleanup();
    }
  }, 60_000);
});

describe.each(testDialects())('a server killed in the middle of an upload on %s', (dialect) => {
  it('leaves a part-written upload that the sweep removes once nobody has written to it for the grace', async () => {
    const environment = await createTestEnvironment(dialect, { DEMO_CONTENT: 'false' });
    const ctx = await createContext(environment.config);
    try {
      const server = await startServe(environment.env);
      const boundary = 'killed-upload-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="cut.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      const request = http.request(`${server.url}/api/file`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(4 << 20),
        },
      });
      request.on('error', () => undefined);
      // More than one chunk of database storage, so bytes are stored when the server dies.
      request.write(head);
      request.write(crypto.randomBytes(768 * 1024));
      const chunks = async () =>
        Number(
          (await sql<{ n: number }>`select count(*) as n from file_blob_chunks`.execute(ctx.db)).rows[0]?.n,
        );
      const stored = ctx.config.fileStorage.kind === 'database' ? chunks : async () => 1;
      const until = Date.now() + 10_000;
      while ((await partialUploads(ctx)) === 0 || (await stored()) === 0) {
        if (Date.now() > until) throw new Error(`the upload never reached the storage:\n${server.output()}`);
        await sleep(20);
      }
      expect(await server.kill()).toBe('SIGKILL');
      request.destroy();

      expect(await partialUploads(ctx)).toBe(1);
      // Another server could still be writing it: kept within the grace...
      await removeUnusedBytes(ctx, Date.now());
      expect(await partialUploads(ctx)).toBe(1);
      // ...and gone after it, with every byte of it.
      await removeUnusedBytes(ctx, Date.now() + UNUSED_BYTES_GRACE_MS + 1000);
      expect(await partialUploads(ctx)).toBe(0);
      if (ctx.config.fileStorage.kind === 'database') expect(await chunks()).toBe(0);
    } finally {
      await ctx.database.close();
      await environment.cleanup();
    }
  }, 60_000);
});
