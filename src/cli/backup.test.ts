import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signpost } from '../server/testing/run-cli.ts';
import { latestMigration } from '../server/db/database.ts';
import { RELEASE } from '../server/lib/release.ts';
import type { Dialect } from '../server/db/schema-helpers.ts';
import { buildCategory, buildSection, buildUser, DEFAULT_PASSWORD } from '../server/testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../server/testing/test-context.ts';
import { storedKeys } from '../server/testing/stored-files.ts';
import { STORAGE_TABLES } from '../server/storage/database-storage.ts';
import { signFileLink } from '../server/tickets/index.ts';
import { seedDemo } from '../server/features/content-folder/demo.service.ts';
import { BackupError } from '../server/features/backup/backup-format.ts';
import {
  isDerivedTable,
  KEPT_TABLES,
  TABLE_PLAN,
  type TableName,
} from '../server/features/backup/backup-tables.ts';
import {
  NotEmptyError,
  ourTables,
  restoreBackup,
  writeBackup,
} from '../server/features/backup/backup.service.ts';

// Each test runs the real command in child processes, several of them, each a second or more while the other test
// files keep both cores busy: the default 30 s is too tight a bound for that.
vi.setConfig({ testTimeout: 90_000 });

const ENV = {
  CAPTCHA_PROVIDER: 'none',
  TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
  REQUESTS_PER_HOUR: '1000',
  UPLOADS_PER_HOUR: '1000',
};

/** Every row of every table, in key order, the way both databases answer it. */
async function dumpTables(t: TestApp): Promise<Record<string, Record<string, unknown>[]>> {
  const dump: Record<string, Record<string, unknown>[]> = {};
  for (const table of Object.keys(TABLE_PLAN) as TableName[]) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.ctx.db);
    const keyOf = (row: Record<string, unknown>) => JSON.stringify(TABLE_PLAN[table].key.map((c) => row[c]));
    dump[table] = rows
      .filter((row) => !(table === 'settings' && row.key === 'content_revision'))
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }
  return dump;
}

/** The stored blobs, by key, on disk or in the database. */
const blobsOf = (t: TestApp) => storedKeys(t.ctx);

const BOUNDARY = '----backup-test';
const multipartFile = (name: string, content: Buffer) => ({
  payload: Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]),
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
});

/** A support request with one attached file, sent the way the web client sends it. */
async function sendTicket(t: TestApp, fileName: string, content: Buffer): Promise<number> {
  const upload = await t.app.inject({
    method: 'POST',
    url: '/api/file',
    ...multipartFile(fileName, content),
  });
  expect(upload.statusCode, upload.body).toBe(200);
  const cookie = String(upload.headers['set-cookie']).split(';')[0] ?? '';
  const opened = await t.app.inject({
    method: 'POST',
    url: '/panel/api/issue-open',
    headers: { cookie },
    payload: {
      title: 'Lumo Help Centre: Troubleshooting',
      description: 'The display shows E42.',
      channel: 'web',
      name: 'Ann Lee',
      email: 'ann@example.com',
      files: (upload.json() as { id: number }[]).map((f) => f.id),
      g_recaptcha_response: '',
    },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return (opened.json() as { data: { id: number } }).data.id;
}

async function adminToken(t: TestApp, email: string): Promise<string> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: DEFAULT_PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  return (login.json() as { token: string }).token;
}

/** Every public call a visitor's browser makes for this help centre, plus every content file's address. */
async function publicUrls(t: TestApp): Promise<string[]> {
  const urls = [
    '/api/settings/branding',
    '/panel/api/v2/system/environments',
    '/api/knowledge/all-sections',
    '/api/knowledge/category',
    '/api/knowledge/instruction',
  ];
  const sections = (await t.app.inject('/api/knowledge/all-sections')).json() as { id: number }[];
  const categories = ((await t.app.inject('/api/knowledge/category')).json() as { items: { id: number }[] })
    .items;
  const articles = ((await t.app.inject('/api/knowledge/instruction')).json() as { items: { id: number }[] })
    .items;
  for (const { id } of sections) {
    urls.push(`/api/knowledge/category?section_id=${id}`, `/api/knowledge/instruction?section_id=${id}`);
  }
  for (const { id } of categories) {
    urls.push(
      `/api/knowledge/category?category_parent_id=${id}`,
      `/api/knowledge/instruction?category_id=${id}`,
    );
  }
  for (const { id } of articles) urls.push(`/api/knowledge/instruction/${id}`);
  for (const text of ['password', 'thermostat', 'wifi', 'E42', 'batery', 'reset the']) {
    urls.push(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}&limit=10`);
  }
  const files = await t.ctx.db.selectFrom('files').select(['id', 'original_name']).orderBy('id').execute();
  for (const file of files) urls.push(`/files/${file.id}/${encodeURIComponent(file.original_name)}`);
  return urls;
}

/** The pairs to test: each way between the two databases, or a round trip on the one available. */
function directions(): [Dialect, Dialect][] {
  const dialects = testDialects();
  if (dialects.length === 1) return [[dialects[0]!, dialects[0]!]];
  return [
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ];
}

describe.each(directions())('backup on %s, restore on %s', (from, to) => {
  let source: TestApp;
  let target: TestApp;
  let folder: string;
  let file: string;
  let ticketId: number;
  const attachment = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(from, ENV), createTestApp(to, ENV)]);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backup-'));
    file = path.join(folder, 'help.signpost.gz');

    await seedDemo(source.ctx);
    await buildUser(source.ctx.db, { email: 'admin@example.com', role: 'admin' });
    ticketId = await sendTicket(source, 'screen.bin', attachment);
    // A category whose parent was created after it: restore cannot insert parents first by id.
    const section = await buildSection(source.ctx.db, { name: 'Late parents' });
    const child = await buildCategory(source.ctx.db, { section_id: section.id, name: 'Child' });
    const parent = await buildCategory(source.ctx.db, { section_id: section.id, name: 'Parent' });
    await source.ctx.db
      .updateTable('categories')
      .set({ parent_id: parent.id })
      .where('id', '=', child.id)
      .execute();
    // More categories than one insert takes, all under the last: their parent arrives in a later batch.
    const now = Date.now();
    const many = await source.ctx.db
      .insertInto('categories')
      .values(
        Array.from({ length: 600 }, (_, i) => ({
          section_id: section.id,
          name: `Empty ${i}`,
          description: '',
          position: i,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    const last = Math.max(...many.map((row) => row.id));
    await source.ctx.db
      .updateTable('categories')
      .set({ parent_id: last })
      .where(
        'id',
        'in',
        many.map((row) => row.id).filter((id) => id !== last),
      )
      .execute();
    await source.app.inject({
      method: 'POST',
      url: '/api/search/events',
      payload: { type: 'search', query: 'thermostat', results: 0 },
    });
    // A visitor's answer to "Was this helpful?": carried over; the day's salt of its key is not.
    const answered = await source.ctx.db
      .selectFrom('articles')
      .select('id')
      .where('published', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const feedback = await source.app.inject({
      method: 'POST',
      url: `/api/knowledge/instruction/${answered.id}/feedback`,
      payload: { helpful: false, reason: 'out_of_date', comment: 'The screenshots are old' },
    });
    expect(feedback.statusCode, feedback.body).toBe(200);
    // A session: never carried over.
    await adminToken(source, 'admin@example.com');
    // The key of signed file links, made when the first delivery goes out: links keep working after a move.
    await signFileLink(source.ctx, 1);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('moves every row and every file with the signpost command, and every public answer stays the same', async () => {
    const backup = await signpost(['backup', file], source.environment.env);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^backed up .*\d+ articles.*; \d+ stored files \([\d.]+ MB\) to /);
    expect(backup.stdout).toContain(`(signpost ${RELEASE}, schema ${latestMigration(from)})`);
    const header = JSON.parse(
      zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n', 1)[0] ?? '',
    );
    expect(header).toMatchObject({ format: 'signpost-backup', version: 1, source: from, release: RELEASE });
    expect(header.tables.auth_tokens).toBeUndefined();

    const restore = await signpost(['restore', file], target.environment.env);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^restored .* from /);
    expect(restore.stdout).toContain(`on ${from} by signpost ${RELEASE})`);

    // Every kept table row for row, ids included; sign-in tokens are not carried.
    const [before, after] = await Promise.all([dumpTables(source), dumpTables(target)]);
    expect(before.auth_tokens).toHaveLength(1);
    expect(after.auth_tokens).toEqual([]);
    for (const table of KEPT_TABLES) expect(after[table], table).toEqual(before[table]);
    expect(after.categories?.length).toBeGreaterThan(5);
    expect(after.article_revisions?.length).toBeGreaterThan(0);
    expect(after.article_feedback).toHaveLength(1);
    expect(before.feedback_salts).toHaveLength(1);
    expect(after.feedback_salts).toEqual([]);
    expect(await blobsOf(target)).toEqual(await blobsOf(source));

    // Every public call, and every file's bytes.
    const urls = await publicUrls(source);
    expect(urls.length).toBeGreaterThan(40);
    for (const url of urls) {
      const [a, b] = await Promise.all([source.app.inject(url), target.app.inject(url)]);
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.headers['content-type'], url).toBe(a.headers['content-type']);
      expect(b.rawPayload.equals(a.rawPayload), url).toBe(true);
    }
    expect(urls.filter((u) => u.startsWith('/files/')).length).toBeGreaterThan(3);

    // The admin signs in with the same password; the ticket, its deliveries and its file's signed link carry over.
    const [sourceToken, targetToken] = await Promise.all([
      adminToken(source, 'admin@example.com'),
      adminToken(target, 'admin@example.com'),
    ]);
    for (const url of [
      '/api/admin/tickets',
      `/api/admin/tickets/${ticketId}`,
      '/api/admin/search-report',
      // Counts kept by triggers, which the restore fills again as it inserts the requests.
      '/api/admin/ticket-counts',
    ]) {
      const [a, b] = await Promise.all([
        source.app.inject({ url, headers: { 'x-auth-token': sourceToken } }),
        target.app.inject({ url, headers: { 'x-auth-token': targetToken } }),
      ]);
      expect(a.statusCode, url).toBe(200);
      expect(b.json(), url).toEqual(a.json());
    }
    const [ticketFile] = (
      (
        await target.app.inject({
          url: `/api/admin/tickets/${ticketId}`,
          headers: { 'x-auth-token': targetToken },
        })
      ).json() as {
        files: { id: number }[];
      }
    ).files;
    const now = Date.now();
    const [sourceLink, targetLink] = await Promise.all([
      signFileLink(source.ctx, ticketFile!.id, now),
      signFileLink(target.ctx, ticketFile!.id, now),
    ]);
    expect(targetLink).toBe(sourceLink);
    const download = await target.app.inject(new URL(targetLink).pathname + new URL(targetLink).search);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(attachment)).toBe(true);

    // New rows take ids after the restored ones.
    const maxSection = Math.max(...(before.sections ?? []).map((r) => Number(r.id)));
    expect((await buildSection(target.ctx.db)).id).toBeGreaterThan(maxSection);
    expect(await sendTicket(target, 'second.txt', Buffer.from('again'))).toBeGreaterThan(ticketId);

    await target.ctx.search.refresh();
    expect((await target.app.inject('/readyz')).statusCode).toBe(200);
  }, 120_000);

  it('refuses a database that has content, and --force replaces everything in it', async () => {
    await expect(restoreBackup(target.ctx, file)).rejects.toThrow(NotEmptyError);
    await expect(restoreBackup(target.ctx, file)).rejects.toThrow(/already holds .*sections.*add --force/);

    // The target has moved on: a new section, a new ticket with its own file.
    await buildSection(target.ctx.db, { name: 'Only on the target' });
    const extra = Buffer.from('bytes only the target has');
    await sendTicket(target, 'extra.txt', extra);
    const revision = await target.ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'content_revision')
      .executeTakeFirstOrThrow();

    await restoreBackup(target.ctx, file, { force: true });
    const [before, after] = await Promise.all([dumpTables(source), dumpTables(target)]);
    for (const table of KEPT_TABLES) expect(after[table], table).toEqual(before[table]);
    // The replaced content's own files are gone with it.
    expect(await blobsOf(target)).toEqual(await blobsOf(source));
    const bumped = await target.ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'content_revision')
      .executeTakeFirstOrThrow();
    expect(Number(bumped.value)).toBeGreaterThan(Number(revision.value));
  }, 60_000);

  it('refuses a damaged, cut short or foreign file and changes nothing, even with --force', async () => {
    const good = fs.readFileSync(file);
    const plain = zlib.gunzipSync(good);
    const variant = (name: string, bytes: Buffer) => {
      const target = path.join(folder, name);
      fs.writeFileSync(target, bytes);
      return target;
    };
    const replaceOnce = (text: string, from: string, to: string) => {
      expect(text).toContain(from);
      return text.replace(from, to);
    };
    const text = plain.toString('latin1');
    // A byte inside the first stored file, changed and compressed again: gzip is intact, the hash is not.
    const blobStart = text.indexOf('\n', text.indexOf('{"blob"')) + 1;
    const flipped = Buffer.from(plain);
    flipped[blobStart + 10] = (flipped[blobStart + 10] ?? 0) ^ 0xff;
    const flippedInGzip = Buffer.from(good);
    flippedInGzip[Math.floor(good.length / 2)] = (flippedInGzip[Math.floor(good.length / 2)] ?? 0) ^ 0xff;
    const lines = text.split('\n');

    const cases: [string, Buffer, RegExp][] = [
      ['cut.gz', good.subarray(0, Math.floor(good.length * 0.6)), /cut short/],
      [
        'cut-at-record.gz',
        zlib.gzipSync(Buffer.from(lines.slice(0, -3).join('\n') + '\n', 'latin1')),
        /cut short \(no end record\)/,
      ],
      ['flipped.gz', flippedInGzip, /damaged|cut short|not valid JSON|unexpected/],
      ['blob.gz', zlib.gzipSync(flipped), /stored file [0-9a-f]{64} is damaged/],
      ['empty.gz', Buffer.alloc(0), /cut short|empty/],
      [
        'plain.txt',
        Buffer.from('hello, this is not a backup\n'),
        /not a signpost backup \(not a gzip file\)/,
      ],
      ['other.gz', zlib.gzipSync(Buffer.from('{"hello":"world"}\n')), /not a signpost backup/],
      [
        'schema.gz',
        zlib.gzipSync(Buffer.from(replaceOnce(text, '"schema":"', '"schema":"0001-'), 'latin1')),
        /database schema 0001-\S+, which no signpost release has/,
      ],
      [
        'counts.gz',
        zlib.gzipSync(Buffer.from(replaceOnce(text, '"tables":{"files":', '"tables":{"files":1'), 'latin1')),
        /files rows, its header says/,
      ],
    ];

    const tablesBefore = await dumpTables(target);
    const blobsBefore = await blobsOf(target);
    for (const [name, bytes, message] of cases) {
      const damaged = variant(name, bytes);
      const error = await restoreBackup(target.ctx, damaged, { force: true }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(BackupError);
      expect((error as Error).message, name).toMatch(message);
      expect(await dumpTables(target), name).toEqual(tablesBefore);
      expect(await blobsOf(target), name).toEqual(blobsBefore);
    }

    const cli = await signpost(['restore', path.join(folder, 'cut.gz'), '--force'], target.environment.env);
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toMatch(/^signpost restore: nothing was changed: the file is cut short/);
    expect(await dumpTables(target)).toEqual(tablesBefore);
  }, 120_000);
});

describe.each(testDialects())('backup files on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, ENV);
  });
  afterAll(async () => t?.close());

  it('covers every table the migrations create', async () => {
    const tables = (await ourTables(t.ctx))
      .map((table) => table.name)
      .filter(
        (name) => !name.startsWith('kysely_') && !STORAGE_TABLES.includes(name) && !isDerivedTable(name),
      )
      .sort();
    expect(tables).toEqual(Object.keys(TABLE_PLAN).sort());
  });

  it('writes nothing under the name when a stored file is missing, and never overwrites without --force', async () => {
    await sendTicket(t, 'lost.txt', Buffer.from('these bytes will be lost'));
    const key = (await t.ctx.db.selectFrom('files').select('storage_key').executeTakeFirstOrThrow())
      .storage_key;
    await t.ctx.storage.remove(key);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backup-'));
    try {
      const target = path.join(folder, 'broken.gz');
      await expect(writeBackup(t.ctx, target)).rejects.toThrow(`stored file ${key} is missing`);
      expect(fs.readdirSync(folder)).toEqual([]);

      fs.writeFileSync(target, 'an earlier backup');
      const refused = await signpost(['backup', target], t.environment.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('exists; add --force to replace it');
      expect(fs.readFileSync(target, 'utf8')).toBe('an earlier backup');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
