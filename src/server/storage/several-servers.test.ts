import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { href } from '../../shared/paths.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/config.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import { importFolder } from '../features/content-folder/import-folder.ts';
import { signFileLink } from '../tickets/index.ts';
import { buildUser, DEFAULT_PASSWORD } from '../testing/factories.ts';
import { writeFolder } from '../testing/folder.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../testing/test-context.ts';

const ENV = { CAPTCHA_PROVIDER: 'none', REQUESTS_PER_HOUR: '1000', UPLOADS_PER_HOUR: '1000' };

interface Server {
  ctx: AppContext;
  app: FastifyInstance;
  dataDir: string;
}

/** A server process of its own: own data folder, own caches, the shared database. */
async function startServer(environment: TestEnvironment, env: Record<string, string> = {}): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-server-'));
  const ctx = await createContext(loadConfig({ ...environment.env, ...env, DATA_DIR: dataDir }));
  const app = await buildApp(ctx, { forceCloseConnections: true });
  return { ctx, app, dataDir };
}

describe.runIf(testDialects().includes('postgres'))('two servers on one PostgreSQL database', () => {
  let environment: TestEnvironment;
  let one: Server;
  let other: Server;
  beforeAll(async () => {
    environment = await createTestEnvironment('postgres', ENV);
    one = await startServer(environment);
    other = await startServer(environment);
  });
  afterAll(async () => {
    for (const server of [one, other]) {
      await server.app.close();
      await server.ctx.database.close();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
    await environment.cleanup();
  });

  it('keeps files in the database by default, not in either data folder', () => {
    expect(one.ctx.config.fileStorage.kind).toBe('database');
  });

  it('serves a file uploaded through one server from the other', async () => {
    const content = crypto.randomBytes(700 * 1024);
    const boundary = '----several-servers';
    const uploaded = await one.app.inject({
      method: 'POST',
      url: '/api/file',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="logs.bin"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const [file] = uploaded.json() as { id: number }[];
    const opened = await one.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      headers: { cookie: String(uploaded.headers['set-cookie']).split(';')[0] },
      payload: {
        title: 'Crash logs',
        description: 'Attached',
        channel: 'web',
        name: 'Ann',
        email: 'ann@example.com',
        files: [file?.id],
        g_recaptcha_response: '',
      },
    });
    expect(opened.statusCode, opened.body).toBe(201);

    // The support team follows the signed link in the ticket, and the balancer sends it to the other server.
    const link = new URL(await signFileLink(other.ctx, file?.id ?? 0));
    const download = await other.app.inject(`${link.pathname}${link.search}`);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    for (const server of [one, other]) expect(fs.readdirSync(server.dataDir)).toEqual([]);
  });

  it('serves the images of a content folder imported through one server from the other', async () => {
    const image = crypto.randomBytes(2048);
    const folder = writeFolder({
      'guides/_section.md': '---\nname: Guides\n---\n',
      'guides/setup.md': '---\ntitle: Set up\n---\n![Screen](_images/screen.png)\n',
      'guides/_images/screen.png': image,
    });
    try {
      await importFolder(one.ctx, folder);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const row = await other.ctx.db
      .selectFrom('files')
      .select(['id', 'original_name'])
      .where('source_path', 'like', '%screen.png')
      .executeTakeFirstOrThrow();
    const download = await other.app.inject(href.file(row.id, row.original_name));
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(image)).toBe(true);
  });

  it('shares sign-ins: a token from one server works on the other, and signing out on either ends it', async () => {
    const user = await buildUser(one.ctx.db, { name: 'Ann Lee' });
    const login = await one.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { 'x-auth-token': login.json<{ token: string }>().token };
    const me = await other.app.inject({ url: '/api/user/me', headers });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().name).toBe('Ann Lee');
    expect((await other.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(
      200,
    );
    expect((await one.app.inject({ url: '/api/user/me', headers })).statusCode).toBe(401);
  });

  it('counts one client’s uploads on both servers against one hourly limit', async () => {
    const limited = [
      await startServer(environment, { UPLOADS_PER_HOUR: '3' }),
      await startServer(environment, { UPLOADS_PER_HOUR: '3' }),
    ];
    try {
      const upload = (server: Server) =>
        server.app.inject({
          method: 'POST',
          url: '/api/file',
          remoteAddress: '203.0.113.9',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload:
            '--x\r\nContent-Disposition: form-data; name="file[]"; filename="a.txt"\r\n' +
            'Content-Type: text/plain\r\n\r\nhello\r\n--x--\r\n',
        });
      const statuses = [];
      for (const server of [limited[0], limited[1], limited[0], limited[1]]) {
        statuses.push((await upload(server as Server)).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      for (const server of limited) {
        await server.app.close();
        await server.ctx.database.close();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
  });
});
