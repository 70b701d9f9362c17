/**
 * Writes a backup of a help centre as the checked-out code writes it, for src/cli/restore-across-releases.test.ts:
 * that test restores it with the code of the day (an older schema migrated forward), and serves it.
 *
 * Usage: npx --no-install tsx scripts/make-backup-fixture.ts
 *
 * It writes test-data/backups/<name>.signpost.gz and <name>.fixture.json (what is in it: the release and schema, the
 * accounts with their passwords, the ids, titles and files made, and the file's hash). <name> is
 * backup-<release>-schema-<NNNN> for a backup whose header names the release that wrote it, and backup-schema-<NNNN>
 * for one written before backups recorded it (NNNN: the newest migration's number).
 *
 * It needs only what every release with backups has (the context, the app, createUser, the demo, writeBackup), so
 * the same file runs in an older checkout: copy it there and run it with that checkout's own install
 * (test-data/backups/README.md says how each fixture was made). It runs the real code as a first start would: the
 * migrations, the demo content (articles with files and translations), then, over HTTP against the app, a customer's
 * support request with an attached file and the team's reply; the accounts are made as `signpost user add` makes
 * them, and the backup as `signpost backup` writes it. The passwords are written in the fixture (nothing real):
 *   admin@example.com     backup-fixture-admin     (admin)
 *   carla@example.com     backup-fixture-customer  (customer)
 * Their hashes are made at the lowest cost the configuration takes (PASSWORD_SCRYPT_N=1024), so the test signs in
 * quickly.
 *
 * Run it only with the code it names checked out, and never again for a fixture already committed: the test pins the
 * file's hash, since a regenerated fixture would no longer test what that code wrote.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config/config.ts';
import { createContext } from '../src/server/context-factory.ts';
import { createUser } from '../src/server/accounts/accounts.service.ts';
import { seedOnFirstStart } from '../src/server/features/content-folder/demo.service.ts';
import { writeBackup } from '../src/server/features/backup/backup.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const OUT = path.join(root, 'test-data', 'backups');

const ADMIN = { email: 'admin@example.com', name: 'Ada Admin', password: 'backup-fixture-admin' };
const CUSTOMER = { email: 'carla@example.com', name: 'Carla Customer', password: 'backup-fixture-customer' };
const ATTACHMENT = {
  name: 'display-e42.txt',
  content: 'Lumo T2 display log\nE42 shown after the update to firmware 2.8.1\n',
};
const REPLY =
  'Thanks Carla. Please hold the dial for ten seconds to restart the thermostat; the backplate relay resets.';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backup-fixture-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://help.example.com',
  CAPTCHA_PROVIDER: 'none',
  PASSWORD_SCRYPT_N: '1024',
});

function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response;
}

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

const ctx = await createContext(config);
const app = await buildApp(ctx);
try {
  await writeFixture();
} finally {
  await app.close();
  await ctx.database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Fills the help centre as a team would, backs it up, then writes the fixture's description beside the backup. */
async function writeFixture(): Promise<void> {
  const seeded = await seedOnFirstStart(ctx);
  if (!seeded) throw new Error('the demo content was not loaded: is the data folder empty?');

  const admin = await createUser(ctx.db, ctx.passwords, { ...ADMIN, role: 'admin' });
  const customer = await createUser(ctx.db, ctx.passwords, { ...CUSTOMER, role: 'customer' });
  const adminToken = await signIn(ADMIN.email, ADMIN.password);
  const customerToken = await signIn(CUSTOMER.email, CUSTOMER.password);
  const content = await demoContent();
  const request = await openRequest(customerToken, adminToken);
  await writeBackupAndDescription({ admin, customer, ...content, ...request });
}

async function signIn(email: string, password: string): Promise<string> {
  return expectStatus(
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } }),
    200,
    `sign-in of ${email}`,
  ).json<{ token: string }>().token;
}

/** A published article with a file attached (the smallest such file) and its bytes, and a translation of an article. */
async function demoContent() {
  const article = (
    await sql<{ id: number; title: string; file_id: number; original_name: string; size: number }>`
      select a.id, a.title, f.id as file_id, f.original_name, f.size
      from articles a join article_files af on af.article_id = a.id join files f on f.id = af.file_id
      where a.published = 1 order by f.size, f.id limit 1`.execute(ctx.db)
  ).rows[0];
  if (!article) throw new Error('the demo content has no published article with a file');
  const translation = (
    await sql<{ article_id: number; lang: string; title: string }>`
      select t.article_id, t.lang, t.title from article_translations t join articles a on a.id = t.article_id
      where a.published = 1 and t.published = 1 and t.lang = 'ru' order by t.article_id limit 1`.execute(
      ctx.db,
    )
  ).rows[0];
  if (!translation) throw new Error('the demo content has no published Russian translation');
  const articleFile = (
    await app.inject({ url: `/files/${article.file_id}/${encodeURIComponent(article.original_name)}` })
  ).rawPayload;
  return { article, translation, articleFile };
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
  ).json<{ id: number; file_size: number }[]>();
  const attachment = upload[0];
  if (!attachment) throw new Error('the upload stored nothing');
  const title = 'Thermostat shows E42 after the firmware update';
  const opened = expectStatus(
    await app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      headers: { 'x-auth-token': customerToken },
      payload: {
        title,
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
  expectStatus(
    await app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${ticketId}/messages`,
      headers: { 'x-auth-token': adminToken },
      payload: { body: REPLY },
    }),
    200,
    'the reply',
  );
  return { ticketId, title, attachment };
}

interface Filled extends Awaited<ReturnType<typeof demoContent>>, Awaited<ReturnType<typeof openRequest>> {
  admin: { id: number };
  customer: { id: number };
}

/** Backs the help centre up and writes beside the backup what a restore must find in it. */
async function writeBackupAndDescription(filled: Filled): Promise<void> {
  const { admin, customer, article, translation, articleFile, ticketId, title, attachment } = filled;
  fs.mkdirSync(OUT, { recursive: true });
  const scratch = path.join(OUT, `.backup-${process.pid}.signpost.gz`);
  try {
    await writeBackup(ctx, scratch);
    const bytes = fs.readFileSync(scratch);
    const header = JSON.parse(zlib.gunzipSync(bytes).toString('utf8').split('\n', 1)[0] ?? '') as {
      schema: string;
      release?: string;
      created_at: string;
      tables: Record<string, number>;
      blobs: { count: number; bytes: number };
    };
    const number = header.schema.slice(0, 4);
    const name = header.release ? `backup-${header.release}-schema-${number}` : `backup-schema-${number}`;
    const versions = await sql<{ sqlite: string }>`select sqlite_version() as sqlite`.execute(ctx.db);
    const fixture = {
      file: `${name}.signpost.gz`,
      sha256: sha256(bytes),
      bytes: bytes.length,
      header_release: header.release ?? null,
      package_version: pkg.version,
      commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim(),
      schema: header.schema,
      created_at: header.created_at,
      written_by: {
        source: 'sqlite',
        sqlite: versions.rows[0]?.sqlite,
        node: process.version,
      },
      tables: header.tables,
      blobs: header.blobs,
      admin: { id: admin.id, ...ADMIN },
      customer: { id: customer.id, ...CUSTOMER },
      article: {
        id: article.id,
        title: article.title,
        file: {
          id: article.file_id,
          original_name: article.original_name,
          size: article.size,
          sha256: sha256(articleFile),
        },
      },
      translation,
      ticket: { id: ticketId, title, reply: REPLY },
      attachment: {
        id: attachment.id,
        name: ATTACHMENT.name,
        size: attachment.file_size,
        sha256: sha256(ATTACHMENT.content),
      },
    };
    if (articleFile.length !== article.size) throw new Error('the article file was not served whole');
    fs.renameSync(scratch, path.join(OUT, fixture.file));
    fs.writeFileSync(path.join(OUT, `${name}.fixture.json`), `${JSON.stringify(fixture, null, 2)}\n`);
    console.log(`wrote ${path.relative(root, path.join(OUT, fixture.file))} (${bytes.length} bytes)`);
  } finally {
    fs.rmSync(scratch, { force: true });
  }
}
