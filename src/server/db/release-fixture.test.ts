import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalTicket } from '../../shared/api/portal.ts';
import type { TicketView } from '../../shared/api/tickets.ts';
import { buildApp } from '../app.ts';
import { createContext } from '../context-factory.ts';
import type { AppContext } from '../context.ts';
import { DEMO_FOLDER, seedOnFirstStart } from '../features/content-folder/demo.service.ts';
import { createTestEnvironment, type TestEnvironment } from '../testing/test-context.ts';
import { latestMigration, openDatabase, pendingMigrations } from './database.ts';

/**
 * A help centre's database as release 0.1.0 left it, opened by the code of the day: the file and its data folder
 * were written by that release's own code and SQLite driver (scripts/make-release-fixture.ts, which says what is in
 * them), and are never written again. A copy is started as production starts (the migrations the fixture lacks run
 * first) and served over HTTP: pages, search, stored files, the inbox's full-text search and the portal.
 *
 * SQLite only: the fixture is an operator's SQLite file with its files on disk, the install whose driver may change
 * under it; a PostgreSQL database is the server's own and moves by its dumps.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../../../test-data/release-0.1.0-schema-0026');
/** What the fixture holds, pinned: a regenerated fixture (its schema or its bytes changed) fails here. */
const RELEASE = '0.1.0';
const SCHEMA = '0026-sender-access';
const DATABASE_SHA256 = 'db714e96b06200d2f1a637ea58d0bd071f4608ef0f1e97f766b7e172808454a9';

interface Manifest {
  release: string;
  schema: string;
  database_sha256: string;
  admin: { email: string; password: string; name: string };
  customer: { email: string; password: string; name: string };
  article: { id: number; title: string };
  content_file: { id: number; original_name: string; size: number };
  ticket: { id: number; reply: string };
  attachment: { id: number; name: string; size: number; sha256: string };
  branding: { site_title: string; knowledge_title: string; footer_links: { label: string; url: string }[] };
  synonyms: Record<string, string[][]>;
}

const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'fixture.json'), 'utf8')) as Manifest;
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

describe(`a database written by release ${RELEASE}, on SQLite`, () => {
  let environment: TestEnvironment;
  let ctx: AppContext;
  let app: FastifyInstance;
  /** The migrations the copy held before the server started. */
  let appliedBefore: string[];
  let ticketSearchRows: number;
  let adminToken: string;
  let customerToken: string;

  const signIn = async (email: string, password: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ token: string }>().token;
  };
  const get = (url: string, token?: string) =>
    app.inject({ url, headers: token === undefined ? {} : { 'x-auth-token': token } });
  const inboxSearch = async (q: string) => {
    const response = await get(`/api/admin/tickets?q=${encodeURIComponent(q)}`, adminToken);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: TicketView[] }>().items.map((item) => item.id);
  };

  beforeAll(async () => {
    environment = await createTestEnvironment('sqlite', {
      CAPTCHA_PROVIDER: 'none',
      PUBLIC_URL: 'https://help.example.com',
    });
    // A copy only: opening the fixture itself would leave a WAL beside it, and the migrations would change it.
    const { dataDir, database } = environment.config;
    if (database.dialect !== 'sqlite') throw new Error('expected SQLite');
    fs.copyFileSync(path.join(FIXTURE, 'signpost.db'), database.file);
    fs.cpSync(path.join(FIXTURE, 'files'), path.join(dataDir, 'files'), { recursive: true });

    const before = openDatabase(database);
    try {
      appliedBefore = (
        await sql<{ name: string }>`select name from kysely_migration order by name`.execute(before.db)
      ).rows.map((row) => row.name);
      // The inbox's FTS5 table holds the request's text and the reply's, as the old release indexed them.
      ticketSearchRows = Number(
        (await sql<{ n: number }>`select count(*) as n from ticket_search`.execute(before.db)).rows[0]?.n,
      );
    } finally {
      await before.close();
    }

    // As `signpost serve` starts: migrate, build the app, the first start's demo (not for a help centre set up
    // already), then the search index.
    ctx = await createContext(environment.config);
    app = await buildApp(ctx, { forceCloseConnections: true });
    expect(await seedOnFirstStart(ctx)).toBeUndefined();
    await ctx.search.refresh();
    adminToken = await signIn(manifest.admin.email, manifest.admin.password);
    customerToken = await signIn(manifest.customer.email, manifest.customer.password);
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.database.close();
    await environment?.cleanup();
  });

  it('is the fixture the script recorded, and is migrated to the current schema as it starts', async () => {
    expect(manifest.release).toBe(RELEASE);
    expect(manifest.schema).toBe(SCHEMA);
    const bytes = fs.readFileSync(path.join(FIXTURE, 'signpost.db'));
    expect(sha256(bytes)).toBe(DATABASE_SHA256);
    expect(manifest.database_sha256).toBe(DATABASE_SHA256);
    // Complete in itself: no log beside it.
    expect(fs.existsSync(path.join(FIXTURE, 'signpost.db-wal'))).toBe(false);
    expect(appliedBefore.at(-1)).toBe(SCHEMA);
    expect(ticketSearchRows).toBe(2);

    expect(await pendingMigrations(ctx.database)).toEqual([]);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      ctx.db,
    );
    expect(rows.at(-1)?.name).toBe(latestMigration('sqlite'));
    expect(rows.map((row) => row.name).slice(0, appliedBefore.length)).toEqual(appliedBefore);
  });

  it('serves the home page with its branding, and a demo article as a page and as JSON', async () => {
    const home = await get('/knowledge/');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.body).toContain(manifest.branding.knowledge_title);
    expect(home.body).toContain(manifest.branding.footer_links[0]!.url);

    const branding = await get('/api/settings/branding');
    expect(branding.json()).toMatchObject(manifest.branding);

    const page = await get(`/knowledge/instruction/${manifest.article.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(manifest.article.title);

    const json = await get(`/api/knowledge/instruction/${manifest.article.id}`);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toMatchObject({ id: manifest.article.id, title: manifest.article.title });
    expect(json.json<{ description: string }>().description.length).toBeGreaterThan(500);
  });

  it('finds demo articles in the search suggestions, with the synonyms the team set', async () => {
    const response = await get('/api/search/knowledge/suggestions?text=install%20thermostat');
    expect(response.statusCode, response.body).toBe(200);
    const titles = response.json<{ items: { title: string }[] }>().items.map((item) => item.title);
    expect(titles).toContain(manifest.article.title);

    const synonyms = await get('/api/admin/synonyms', adminToken);
    expect(synonyms.json()).toMatchObject({ sets: manifest.synonyms, defaults: false });
  });

  it("serves a demo article's file from the data folder", async () => {
    const { id, original_name } = manifest.content_file;
    const response = await get(`/files/${id}/${encodeURIComponent(original_name)}`);
    expect(response.statusCode, response.body).toBe(200);
    const found = fs
      .readdirSync(DEMO_FOLDER, { recursive: true, encoding: 'utf8' })
      .filter((name) => path.basename(name) === original_name);
    expect(found).toHaveLength(1);
    const source = fs.readFileSync(path.join(DEMO_FOLDER, found[0]!));
    expect(response.rawPayload.equals(source)).toBe(true);
  });

  it("finds the customer's request in the admin's inbox by its words and the reply's, and serves its file", async () => {
    const { ticket, attachment } = manifest;
    expect(await inboxSearch('E42')).toEqual([ticket.id]);
    expect(await inboxSearch('backplate')).toEqual([ticket.id]);
    expect(await inboxSearch('carla@example.com')).toEqual([ticket.id]);
    expect(await inboxSearch('zzzz')).toEqual([]);

    const view = (await get(`/api/admin/tickets/${ticket.id}`, adminToken)).json<TicketView>();
    expect(view.messages.map((message) => message.body_text)).toEqual([ticket.reply]);
    expect(view.files.map((file) => [file.id, file.original_name, file.file_size])).toEqual([
      [attachment.id, attachment.name, attachment.size],
    ]);
    const download = await get(view.files[0]!.link);
    expect(download.statusCode, download.body).toBe(200);
    expect(sha256(download.rawPayload)).toBe(attachment.sha256);
  });

  it('keeps searching the inbox as the team writes to the old request', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${manifest.ticket.id}/messages`,
      headers: { 'x-auth-token': adminToken },
      payload: { body: 'Note for the team: the relay batch is recalled.', internal: true },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await inboxSearch('recalled')).toEqual([manifest.ticket.id]);
  });

  it('shows the customer their request, the reply and the file in the portal', async () => {
    const { ticket, attachment } = manifest;
    const list = await get('/api/portal/issues', customerToken);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([ticket.id]);

    const response = await get(`/api/portal/issues/${ticket.id}`, customerToken);
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<PortalTicket>();
    expect(view.messages.map((message) => [message.author_name, message.body_text])).toEqual([
      [manifest.admin.name, ticket.reply],
    ]);
    const download = await get(view.files[0]!.link);
    expect(download.statusCode, download.body).toBe(200);
    expect(sha256(download.rawPayload)).toBe(attachment.sha256);

    const page = await get(`/issues/${ticket.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
