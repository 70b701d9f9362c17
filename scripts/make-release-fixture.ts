/**
 * Writes the database of a help centre as the current release leaves it, for src/server/db/release-fixture.test.ts:
 * that test opens a copy with the code of the day, migrates it and serves it, so a database written by this release
 * keeps working whatever the code becomes (a newer schema, another SQLite driver).
 *
 * Usage: npx --no-install tsx scripts/make-release-fixture.ts
 *
 * It writes test-data/release-<version>-schema-<last migration's number>/ (package.json's version, and the newest
 * migration in src/server/db/migrations):
 *   signpost.db   the SQLite database, checkpointed and vacuumed, so the file alone is complete (no -wal, no -shm);
 *   files/        the data folder's stored files (on SQLite they are kept on disk by default, FILE_STORAGE=disk);
 *   fixture.json  what is in it, for the test: the release, the schema, the accounts and the ids made.
 *
 * It runs the real code as `npm start` would on a first start: the migrations, the demo content, then, over HTTP
 * against the app, a customer's support request with an attached file, the team's reply, branding and synonyms.
 * The accounts are made as `signpost user add` makes them. Their passwords are written in fixture.json (nothing real:
 * the fixture is public):
 *   admin@example.com     release-fixture-admin     (admin)
 *   carla@example.com     release-fixture-customer  (customer)
 * Their hashes are made at the lowest cost the configuration takes (PASSWORD_SCRYPT_N=1024), so the test signs in
 * quickly; a hash records its cost, so it is checked the same way at any configured cost.
 *
 * Run it only with the release it names checked out: the fixture is a record of what that release wrote, and a
 * regenerated one would no longer test an old database (the test pins the schema and the file's hash).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config/config.ts';
import { createContext } from '../src/server/context-factory.ts';
import { latestMigration } from '../src/server/db/database.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { seedOnFirstStart } from '../src/server/features/content-folder/demo.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const schema = latestMigration('sqlite');
const OUT = path.join(root, 'test-data', `release-${pkg.version}-schema-${schema.slice(0, 4)}`);

const ADMIN = { email: 'admin@example.com', name: 'Ada Admin', password: 'release-fixture-admin' };
const CUSTOMER = { email: 'carla@example.com', name: 'Carla Customer', password: 'release-fixture-customer' };
const ARTICLE_TITLE = 'Install the Lumo T2 thermostat';
const ATTACHMENT = {
  name: 'display-e42.txt',
  content: 'Lumo T2 display log\nE42 shown after the update to firmware 2.8.1\n',
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-release-fixture-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://help.example.com',
  CAPTCHA_PROVIDER: 'none',
  PASSWORD_SCRYPT_N: '1024',
});

function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
  if (response.statusCode !== status) {
    throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  }
  return response;
}

const ctx = await createContext(config);
const app = await buildApp(ctx);
try {
  await writeFixture();
} finally {
  // Closing again is harmless; after a failure it is what lets the process end.
  await app.close();
  await ctx.database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Fills the help centre as a team would, then writes the fixture from it. */
async function writeFixture(): Promise<void> {
  // The first start: the demo content and its branding, and the mark that the help centre was set up.
  const seeded = await seedOnFirstStart(ctx);
  if (!seeded) throw new Error('the demo content was not loaded: is the data folder empty?');

  const admin = await createUser(ctx.db, ctx.passwords, { ...ADMIN, role: 'admin' });
  const customer = await createUser(ctx.db, ctx.passwords, { ...CUSTOMER, role: 'customer' });
  const adminToken = await signIn(ADMIN.email, ADMIN.password);
  const customerToken = await signIn(CUSTOMER.email, CUSTOMER.password);
  const content = await demoContent();
  const request = await openRequest(customerToken, adminToken);
  const settings = await changeSettings(adminToken);
  await writeDatabase({ admin, customer, ...content, ...request, ...settings });
}

async function signIn(email: string, password: string): Promise<string> {
  return expectStatus(
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } }),
    200,
    `sign-in of ${email}`,
  ).json<{ token: string }>().token;
}

/** The demo article the test reads, and the smallest file the demo content stored. */
async function demoContent() {
  const articles = expectStatus(
    await app.inject({ url: '/api/knowledge/instruction' }),
    200,
    'the articles',
  ).json<{ items: { id: number; title: string }[] }>().items;
  const article = articles.find((item) => item.title === ARTICLE_TITLE);
  if (!article) throw new Error(`no demo article "${ARTICLE_TITLE}"`);
  const contentFile = await sql<{ id: number; original_name: string; size: number }>`
      select id, original_name, size from files where kind = 'content' order by size, id limit 1`
    .execute(ctx.db)
    .then((result) => result.rows[0]);
  if (!contentFile) throw new Error('the demo content stored no file');

  return { article, contentFile };
}

/** The customer's request, as the site's form sends it (the file uploaded first, then the request naming it), and the team's reply. */
async function openRequest(customerToken: string, adminToken: string) {
  const boundary = `----signpost-fixture-${crypto.randomBytes(6).toString('hex')}`;
  const upload = expectStatus(
    await app.inject({
      method: 'POST',
      url: '/api/file',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-auth-token': customerToken,
      },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${ATTACHMENT.name}"\r\n` +
          `Content-Type: text/plain\r\n\r\n${ATTACHMENT.content}\r\n--${boundary}--\r\n`,
      ),
    }),
    200,
    'the upload',
  ).json<{ id: number; original_name: string; file_size: number }[]>();
  const attachment = upload[0];
  if (!attachment) throw new Error('the upload stored nothing');
  const opened = expectStatus(
    await app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      headers: { 'x-auth-token': customerToken },
      payload: {
        title: 'Thermostat shows E42 after the firmware update',
        description:
          'Since the update to 2.8.1 my Lumo T2 shows E42 and the heating stays off. The log is attached.',
        channel: 'web',
        name: CUSTOMER.name,
        email: CUSTOMER.email,
        files: [attachment.id],
        g_recaptcha_response: '',
      },
    }),
    201,
    'the support request',
  ).json<{ data: { id: number } }>();
  const ticketId = opened.data.id;
  const reply = {
    body: 'Thanks Carla. Please hold the dial for ten seconds to restart the thermostat; the backplate relay resets.',
  };
  expectStatus(
    await app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${ticketId}/messages`,
      headers: { 'x-auth-token': adminToken },
      payload: reply,
    }),
    200,
    'the reply',
  );

  return { ticketId, reply, attachment };
}

/** Settings an operator changes: the branding and the search's synonyms. */
async function changeSettings(adminToken: string) {
  const branding = {
    site_title: 'Lumo Support',
    knowledge_title: 'Lumo Help Centre',
    footer_links: [{ label: 'Status', url: 'https://status.example.com' }],
  };
  expectStatus(
    await app.inject({
      method: 'PATCH',
      url: '/api/admin/branding',
      headers: { 'x-auth-token': adminToken },
      payload: branding,
    }),
    200,
    'the branding',
  );
  const synonyms = { en: [['thermostat', 'stat']] };
  expectStatus(
    await app.inject({
      method: 'PUT',
      url: '/api/admin/synonyms',
      headers: { 'x-auth-token': adminToken },
      payload: { sets: synonyms },
    }),
    200,
    'the synonyms',
  );

  return { branding, synonyms };
}

interface Filled
  extends
    Awaited<ReturnType<typeof demoContent>>,
    Awaited<ReturnType<typeof openRequest>>,
    Awaited<ReturnType<typeof changeSettings>> {
  admin: { id: number };
  customer: { id: number };
}

/** Closes the database whole (its log written back, its free pages dropped) and copies it, its files and what is in it. */
async function writeDatabase(filled: Filled): Promise<void> {
  const { admin, customer, article, contentFile, ticketId, reply, attachment, branding, synonyms } = filled;
  const versions = await sql<{ sqlite: string }>`select sqlite_version() as sqlite`.execute(ctx.db);
  const manifest = {
    release: pkg.version,
    schema,
    written_by: {
      driver: `node:sqlite (Node ${process.versions.node})`,
      sqlite: versions.rows[0]?.sqlite,
      node: process.version,
    },
    file_storage: 'disk',
    admin: { id: admin.id, ...ADMIN },
    customer: { id: customer.id, ...CUSTOMER },
    article: { id: article.id, title: article.title },
    content_file: contentFile,
    ticket: { id: ticketId, reply: reply.body },
    attachment: {
      id: attachment.id,
      name: ATTACHMENT.name,
      size: attachment.file_size,
      sha256: crypto.createHash('sha256').update(ATTACHMENT.content).digest('hex'),
    },
    branding,
    synonyms,
  };

  // The file alone holds everything: the log written back into it, and the free pages dropped.
  await sql`vacuum`.execute(ctx.db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(ctx.db);
  await app.close();
  // The last connection closed: SQLite removes the (empty) log and its index.
  await ctx.database.close();

  const database = path.join(dataDir, 'signpost.db');
  for (const leftover of ['-wal', '-shm']) {
    if (fs.existsSync(database + leftover) && fs.statSync(database + leftover).size > 0) {
      throw new Error(`${database}${leftover} was left with content`);
    }
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  fs.copyFileSync(database, path.join(OUT, 'signpost.db'));
  fs.cpSync(path.join(dataDir, 'files'), path.join(OUT, 'files'), { recursive: true });
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(database)).digest('hex');
  fs.writeFileSync(
    path.join(OUT, 'fixture.json'),
    `${JSON.stringify({ ...manifest, database_sha256: sha256 }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(root, OUT)} (signpost.db: ${fs.statSync(database).size} bytes)`);
}
