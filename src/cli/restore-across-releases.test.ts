import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PortalTicket } from '../shared/api/portal.ts';
import type { TicketView } from '../shared/api/tickets.ts';
import { SEARCH_SNAPSHOT_FILE } from '../server/context-factory.ts';
import { latestMigration, openDatabase, pendingMigrations } from '../server/db/database.ts';
import { LEGACY_REPLY_TOKEN_DAYS } from '../server/db/schema-values.ts';
import { KEPT_TABLES, TABLE_PLAN } from '../server/features/backup/backup-tables.ts';
import { RELEASE } from '../server/lib/release.ts';
import { signpost, startServe } from '../server/testing/run-cli.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../server/testing/test-context.ts';

/**
 * Backups written by earlier code, restored by the code of the day with the real command into an empty database and
 * served by a real server. The files were written once by scripts/make-backup-fixture.ts with the code each names
 * (test-data/backups/README.md) and are never written again: a backup of this release (its schema as it is now), and
 * one of an older schema, which the restore migrates forward. A backup newer than this signpost is refused.
 */

// Each test runs the real command and a real server in child processes.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

const BACKUPS = path.resolve(import.meta.dirname, '../../test-data/backups');

/** What each fixture is, pinned: a regenerated file fails here. */
const FIXTURES = [
  {
    name: 'backup-0.2.0-schema-0026',
    release: '0.2.0',
    schema: '0026-sender-access',
    sha256: '1cb61e8fe195319498263470db39761c5ec544867fc0b6eab5180a2cadc547e1',
  },
  {
    name: 'backup-schema-0024',
    release: null,
    schema: '0024-translations',
    sha256: 'f4b9b06127c8b9deea71a179496df80429766ee4c104e3cac5d5b075e809f8fd',
  },
] as const;

interface Manifest {
  file: string;
  sha256: string;
  header_release: string | null;
  schema: string;
  tables: Record<string, number>;
  admin: { id: number; email: string; name: string; password: string };
  customer: { id: number; email: string; name: string; password: string };
  article: {
    id: number;
    title: string;
    file: { id: number; original_name: string; size: number; sha256: string };
  };
  translation: { article_id: number; lang: string; title: string };
  ticket: { id: number; title: string; reply: string };
  attachment: { id: number; name: string; size: number; sha256: string };
}

const manifestOf = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(BACKUPS, `${name}.fixture.json`), 'utf8')) as Manifest;
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');
const DAY_MS = 24 * 60 * 60 * 1000;

const ENV = { CAPTCHA_PROVIDER: 'none' };

/** What a data folder may hold after a restore: the database, the stored files, the search's snapshot. */
function leftovers(environment: TestEnvironment): string[] {
  const dir = environment.config.dataDir;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => !/^signpost\.db(-wal|-shm)?$/.test(name) && name !== 'files')
    .filter((name) => name !== SEARCH_SNAPSHOT_FILE);
}

/** Every kept table's rows, in key order; the migrations' own names too. */
async function dumpDatabase(environment: TestEnvironment) {
  const database = openDatabase(environment.config.database);
  try {
    const dump: Record<string, unknown[]> = {};
    for (const table of [...KEPT_TABLES, 'kysely_migration'] as const) {
      const key = table === 'kysely_migration' ? ['name'] : TABLE_PLAN[table].key;
      const { rows } = await sql<Record<string, unknown>>`
        select * from ${sql.table(table)} order by ${sql.join(key.map((column) => sql.ref(column)))}
      `.execute(database.db);
      dump[table] = table === 'kysely_migration' ? rows.map((row) => row.name) : rows;
    }
    return dump;
  } finally {
    await database.close();
  }
}

/** A copy of a backup with its header changed, in a folder of its own. */
function withHeader(folder: string, name: string, change: (header: Record<string, unknown>) => void) {
  const text = plainText(path.join(BACKUPS, name));
  const end = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, end)) as Record<string, unknown>;
  change(header);
  return writeGzip(folder, JSON.stringify(header) + text.slice(end));
}

/** A backup's records as text, one character a byte (latin1), so the stored files' bytes come back as they were. */
const plainText = (file: string) => zlib.gunzipSync(fs.readFileSync(file)).toString('latin1');

function writeGzip(folder: string, text: string) {
  const file = path.join(folder, `edited-${crypto.randomBytes(4).toString('hex')}.signpost.gz`);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.from(text, 'latin1')));
  return file;
}

const fixtureFiles = () => fs.readdirSync(BACKUPS).sort();

describe('the committed backups', () => {
  it.each(FIXTURES)('$name is the file the script wrote, of the schema it names', (fixture) => {
    const manifest = manifestOf(fixture.name);
    const bytes = fs.readFileSync(path.join(BACKUPS, `${fixture.name}.signpost.gz`));
    expect(sha256(bytes)).toBe(fixture.sha256);
    expect(manifest.sha256).toBe(fixture.sha256);
    expect(manifest.file).toBe(`${fixture.name}.signpost.gz`);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const header = JSON.parse(zlib.gunzipSync(bytes).toString('utf8').split('\n', 1)[0] ?? '') as {
      schema: string;
      release?: string;
      tables: Record<string, number>;
    };
    expect(header.schema).toBe(fixture.schema);
    expect(header.release ?? null).toBe(fixture.release);
    expect(header.tables).toEqual(manifest.tables);
  });
});

describe.each(testDialects())('backups of earlier code restored on %s', (dialect) => {
  describe.each(FIXTURES)('$name', (fixture) => {
    const manifest = manifestOf(fixture.name);
    const file = path.join(BACKUPS, `${fixture.name}.signpost.gz`);
    let environment: TestEnvironment;
    let server: Awaited<ReturnType<typeof startServe>>;
    let restore: Awaited<ReturnType<typeof signpost>>;
    let restoreStarted: number;
    let restoreEnded: number;
    const filesBefore = fixtureFiles();

    const get = (url: string, token?: string) =>
      fetch(new URL(url, server.url), { headers: token ? { 'x-auth-token': token } : {} });
    const signIn = async (email: string, password: string) => {
      const response = await fetch(new URL('/api/auth/login', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(response.status, `${email} signs in`).toBe(200);
      return ((await response.json()) as { token: string }).token;
    };

    beforeAll(async () => {
      environment = await createTestEnvironment(dialect, ENV);
      restoreStarted = Date.now();
      restore = await signpost(['restore', file], environment.env);
      restoreEnded = Date.now();
      server = await startServe(environment.env);
    });
    afterAll(async () => {
      await server?.stop();
      await environment?.cleanup();
    });

    it('restores with the real command into an empty database, saying which release made it', () => {
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toMatch(/^restored .*\d+ articles.* from /);
      if (fixture.release) expect(restore.stdout).toContain(`by signpost ${fixture.release}`);
      // A release's backup is migrated forward once this signpost has newer migrations than that release.
      if (fixture.schema === latestMigration(dialect)) {
        expect(restore.stdout).not.toContain('upgraded');
      } else {
        expect(restore.stdout).toContain(
          `upgraded from database schema ${fixture.schema} to ${latestMigration(dialect)}`,
        );
      }
      // No scratch database, no temporary backup: neither in the data folder nor beside the file restored.
      expect(leftovers(environment)).toEqual([]);
      expect(fixtureFiles()).toEqual(filesBefore);
    });

    it("leaves the database at this release's schema, with what the newer migrations add", async () => {
      const database = openDatabase(environment.config.database);
      try {
        expect(await pendingMigrations(database)).toEqual([]);
        const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
          database.db,
        );
        expect(rows.at(-1)?.name).toBe(latestMigration(dialect));
        const ticket = await database.db
          .selectFrom('tickets')
          .select(['id', 'title', 'sender_access_until'])
          .executeTakeFirstOrThrow();
        // 0026-sender-access: the column, null for every request before it.
        expect(ticket).toEqual({
          id: manifest.ticket.id,
          title: manifest.ticket.title,
          sender_access_until: null,
        });
        const legacyUntil = await database.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'mail_reply_legacy_until')
          .executeTakeFirstOrThrow();
        const until = Number(JSON.parse(legacyUntil.value as string));
        if (fixture.schema < '0026') {
          // The old per-request reply tokens count for LEGACY_REPLY_TOKEN_DAYS from the upgrade, as when a
          // database of that schema is upgraded in place.
          expect(until).toBeGreaterThanOrEqual(restoreStarted + LEGACY_REPLY_TOKEN_DAYS * DAY_MS);
          expect(until).toBeLessThanOrEqual(restoreEnded + LEGACY_REPLY_TOKEN_DAYS * DAY_MS);
        } else {
          // Carried as the backup holds it, from the day its own database was migrated.
          expect(until).toBeLessThan(restoreStarted + LEGACY_REPLY_TOKEN_DAYS * DAY_MS);
        }
        const counts: Record<string, number> = {};
        for (const table of Object.keys(manifest.tables)) {
          const { rows: found } = await sql<{ n: number | string }>`
            select count(*) as n from ${sql.table(table)}`.execute(database.db);
          counts[table] = Number(found[0]?.n);
        }
        // Every row carried; the settings gain what the newer migrations insert.
        const { settings: settingsBefore, ...rest } = manifest.tables;
        const { settings: settingsAfter, ...restAfter } = counts;
        expect(restAfter).toEqual(rest);
        expect(settingsAfter).toBe((settingsBefore ?? 0) + (fixture.schema < '0026' ? 1 : 0));
      } finally {
        await database.close();
      }
    });

    it('serves the article by its title, its file with the same bytes, and its translation', async () => {
      const { article, translation } = manifest;
      const page = await get(`/knowledge/instruction/${article.id}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(article.title);
      const json = await get(`/api/knowledge/instruction/${article.id}`);
      expect(await json.json()).toMatchObject({ id: article.id, title: article.title });

      const download = await get(
        `/files/${article.file.id}/${encodeURIComponent(article.file.original_name)}`,
      );
      expect(download.status).toBe(200);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.length).toBe(article.file.size);
      expect(sha256(bytes)).toBe(article.file.sha256);

      const translated = await get(
        `/api/knowledge/instruction/${translation.article_id}?lang=${translation.lang}`,
      );
      expect(await translated.json()).toMatchObject({ title: translation.title });
    });

    it('signs in the admin and the customer with their passwords; the customer sees the request and its reply', async () => {
      const { ticket, attachment } = manifest;
      const adminToken = await signIn(manifest.admin.email, manifest.admin.password);
      const customerToken = await signIn(manifest.customer.email, manifest.customer.password);
      const wrong = await fetch(new URL('/api/auth/login', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: manifest.customer.email, password: 'not-the-password' }),
      });
      expect(wrong.status).toBe(401);

      const list = await get('/api/portal/issues', customerToken);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { items: { id: number }[] }).items.map((item) => item.id)).toEqual([
        ticket.id,
      ]);
      const view = (await (
        await get(`/api/portal/issues/${ticket.id}`, customerToken)
      ).json()) as PortalTicket;
      expect(view.messages.map((message) => [message.author_name, message.body_text])).toEqual([
        [manifest.admin.name, ticket.reply],
      ]);
      const download = await get(view.files[0]!.link, customerToken);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(attachment.sha256);

      const inbox = await get(`/api/admin/tickets/${ticket.id}`, adminToken);
      expect(inbox.status).toBe(200);
      expect(((await inbox.json()) as TicketView).files.map((f) => [f.original_name, f.file_size])).toEqual([
        [attachment.name, attachment.size],
      ]);
    });
  });
});

describe.each(testDialects())('backups this signpost cannot restore, on %s', (dialect) => {
  let environment: TestEnvironment;
  let folder: string;
  /** A backup of an older schema: restored, migrated forward, or edited into what this signpost refuses. */
  const OLDER = 'backup-schema-0024.signpost.gz';
  const filesBefore = fixtureFiles();

  /** The command's answer, with the database and the data folder checked to be as they were. */
  const refused = async (file: string, force = false) => {
    const before = await dumpDatabase(environment);
    const run = await signpost(['restore', file, ...(force ? ['--force'] : [])], environment.env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(await dumpDatabase(environment)).toEqual(before);
    expect(leftovers(environment)).toEqual([]);
    expect(fixtureFiles()).toEqual(filesBefore);
    return run.stderr.trim();
  };

  beforeAll(async () => {
    environment = await createTestEnvironment(dialect, ENV);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-restore-refused-'));
    expect((await signpost(['migrate'], environment.env)).code).toBe(0);
  });
  afterAll(async () => {
    await environment?.cleanup();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a backup of a newer signpost before changing anything, naming the release to upgrade to', async () => {
    const newer = withHeader(folder, OLDER, (header) => {
      header.schema = '9999-future';
      header.release = '9.9.9';
    });
    expect(await refused(newer)).toBe(
      `signpost restore: nothing was changed: the backup was made by signpost 9.9.9 (database schema 9999-future), ` +
        `newer than this signpost ${RELEASE} (schema ${latestMigration(dialect)}): upgrade signpost to 9.9.9 or later, then restore`,
    );
    // Without the release that made it (a file of code before backups named it), the schema alone.
    const unnamed = withHeader(folder, OLDER, (header) => {
      header.schema = '9999-future';
      delete header.release;
    });
    expect(await refused(unnamed)).toMatch(
      new RegExp(
        `nothing was changed: the backup is of database schema 9999-future, newer than this signpost ${RELEASE.replaceAll('.', '\\.')} ` +
          `\\(schema ${latestMigration(dialect)}\\): upgrade signpost to a release of that schema or later, then restore$`,
      ),
    );
  });

  it('refuses a schema no release has, older than the newest', async () => {
    const unknown = withHeader(folder, OLDER, (header) => {
      header.schema = '0024-not-ours';
    });
    expect(await refused(unknown)).toMatch(
      /nothing was changed: the backup is of database schema 0024-not-ours, which no signpost release has/,
    );
  });

  it('keeps what the database holds when a newer, damaged or foreign-shaped backup is refused, even with --force', async () => {
    const restored = await signpost(['restore', path.join(BACKUPS, OLDER)], environment.env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(leftovers(environment)).toEqual([]);
    const holding = await dumpDatabase(environment);
    expect(holding.articles?.length).toBeGreaterThan(0);

    const newer = withHeader(folder, OLDER, (header) => {
      header.schema = '9999-future';
      header.release = '9.9.9';
    });
    expect(await refused(newer, true)).toMatch(/newer than this signpost/);

    // Damage found while the older backup is being upgraded: the file cut short, a row of a column its schema did
    // not have yet. The scratch database goes with the refusal.
    const bytes = fs.readFileSync(path.join(BACKUPS, OLDER));
    const cut = path.join(folder, 'cut.signpost.gz');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.9)));
    expect(await refused(cut, true)).toMatch(/nothing was changed: the file is cut short/);

    const plain = plainText(path.join(BACKUPS, OLDER));
    expect(plain).toContain('{"table":"tickets","row":{"id":1,');
    const shaped = writeGzip(
      folder,
      plain.replace(
        '{"table":"tickets","row":{"id":1,',
        '{"table":"tickets","row":{"id":1,"sender_access_until":null,',
      ),
    );
    expect(await refused(shaped, true)).toMatch(
      /nothing was changed: tickets rows have columns database schema 0024-translations does not: sender_access_until/,
    );
    expect(await dumpDatabase(environment)).toEqual(holding);
  });
});

describe.each(testDialects())('the data folder around a restore that migrates, on %s', (dialect) => {
  const OLDER = path.join(BACKUPS, 'backup-schema-0024.signpost.gz');

  it('removes the scratch folders a killed restore left a day ago, and keeps younger ones', async () => {
    const environment = await createTestEnvironment(dialect, ENV);
    try {
      const dataDir = environment.config.dataDir;
      fs.mkdirSync(dataDir, { recursive: true });
      const stale = path.join(dataDir, 'restore-upgrade-stale');
      const young = path.join(dataDir, 'restore-upgrade-young');
      fs.mkdirSync(stale);
      fs.mkdirSync(young);
      const twoDaysAgo = (Date.now() - 2 * DAY_MS) / 1000;
      fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
      const run = await signpost(['restore', OLDER], environment.env);
      expect(run.code, run.stderr).toBe(0);
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(young)).toBe(true);
    } finally {
      await environment.cleanup();
    }
  });

  it('leaves behind no data folder it made only for its scratch work', async () => {
    const environment = await createTestEnvironment(dialect, ENV);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-restore-data-'));
    try {
      // On PostgreSQL with the files in the database, nothing else needs the data folder; on SQLite it holds the
      // database, so it stays.
      const dataDir = path.join(root, 'not-yet', 'data');
      const env: Record<string, string> = { ...environment.env, DATA_DIR: dataDir };
      const run = await signpost(['restore', OLDER], env);
      expect(run.code, run.stderr).toBe(0);
      if (dialect === 'postgres') expect(fs.readdirSync(root)).toEqual([]);
      else expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('restore-upgrade-'))).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      await environment.cleanup();
    }
  });
});
