import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../server/testing/test-context.ts';
import { signpost, signpostInTerminal, startServe } from '../server/testing/run-cli.ts';
import { latestMigration } from '../server/db/database.ts';
import { COMMAND_USAGE, type CommandName } from './usage.ts';
import { readFolder, writeFolder } from '../server/testing/folder.ts';
import { buildApp } from '../server/app.ts';
import { createContext } from '../server/context-factory.ts';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '../server/features/auth/sign-in-limits.ts';
import { buildUser, DEFAULT_PASSWORD } from '../server/testing/factories.ts';

// Each test runs the real command in child processes, several of them, each a second or more while the other test
// files keep both cores busy: the default 30 s is too tight a bound for that.
vi.setConfig({ testTimeout: 90_000 });

describe('signpost without a database', () => {
  it('prints its usage and rejects unknown commands', async () => {
    const help = await signpost(['help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('import DIR [--prune | --replace]');
    for (const name of Object.keys(COMMAND_USAGE)) expect(help.stdout).toContain(`  ${name}`);
    const unknown = await signpost(['frobnicate'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it('prints its release, schema and runtime, and does nothing else', async () => {
    const { version } = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'),
    );
    for (const flag of ['--version', '-v', 'version']) {
      const run = await signpost([flag], { DATA_DIR: '/nonexistent-signpost', PORT: 'abc' });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(
        `signpost ${version} (database schema ${latestMigration('sqlite')}, Node.js ${process.version})`,
      );
    }
  });

  // Help must never start a server, migrate, restore or read the configuration: a configuration that would stop any
  // command (a bad PORT, an unreachable database) and a data folder that must not appear prove it did nothing.
  it.each([
    ...Object.keys(COMMAND_USAGE).map((name) => [name, [name, '--help']]),
    ['serve', ['serve', '-h']],
    ['user', ['user', 'add', '--email', 'x@example.com', '--help']],
    ['user', ['user', 'unlock', '--help']],
    ['restore', ['restore', 'backup.gz', '--force', '--help']],
    ['import', ['import', '--help', 'content']],
    ['migrate', ['help', 'migrate']],
  ])('%s: %j prints its usage and does nothing else', async (name, args) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-help-'));
    try {
      const dataDir = path.join(root, 'data');
      const run = await signpost(args as string[], {
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://signpost@127.0.0.1:1/nothing-here',
        PORT: 'abc',
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^usage: signpost ${name}\\b`));
      expect(run.stdout).toContain(COMMAND_USAGE[name as CommandName].summary);
      expect(fs.readdirSync(root)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("shows user add's roles and how the password is given in its help", async () => {
    const run = await signpost(['user', 'add', '--help'], {});
    for (const words of ['--admin', '--agent', 'a customer', 'standard input', '--password P']) {
      expect(run.stdout).toContain(words);
    }
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: "abc" is not a port number'],
    [{ PORT: '70000' }, 'PORT: 70000 is above 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// URL or sqlite:PATH'],
    [{ PUBLIC_URL: 'help.example.com' }, 'PUBLIC_URL: "help.example.com" is not a URL'],
    [
      { PUBLIC_URL: 'ftp://help.example.com' },
      'PUBLIC_URL: "ftp://help.example.com" must start with http:// or https://',
    ],
    [{ CAPTCHA_PROVIDER: 'hcaptcha' }, 'CAPTCHA_PROVIDER: must be altcha, recaptcha or none'],
    [{ DEMO_CONTENT: 'maybe' }, 'DEMO_CONTENT: must be true or false'],
    [{ METRICS_PUBLIC: 'maybe' }, 'METRICS_PUBLIC: must be true or false'],
    [{ PASSWORD_SCRYPT_N: '100000' }, 'PASSWORD_SCRYPT_N: "100000" must be a power of two'],
  ])('stops on bad configuration %j with one line naming the variable', async (env, message) => {
    const run = await signpost(['serve'], { DATA_DIR: '/nonexistent-signpost', ...env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(message);
  });
});

describe.each(testDialects())('signpost commands on %s', (dialect) => {
  let environment: TestEnvironment;
  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
  });
  afterAll(async () => environment?.cleanup());

  it('migrates, and says so when there is nothing left to do', async () => {
    const first = await signpost(['migrate'], environment.env);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('applied 0001-initial');
    const second = await signpost(['migrate'], environment.env);
    expect(second.stdout).toContain('the database is up to date');
  });

  it('adds users, refuses a duplicate and a short password', async () => {
    const added = await signpost(
      ['user', 'add', '--email', 'Ops@Example.com', '--name', 'Ops', '--password', 'long enough', '--admin'],
      environment.env,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/created admin user \d+ <ops@example.com>/);
    const again = await signpost(
      ['user', 'add', '--email', 'ops@example.com', '--name', 'Ops', '--password', 'long enough'],
      environment.env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    const short = await signpost(
      ['user', 'add', '--email', 'b@example.com', '--name', 'B', '--password', 'short'],
      environment.env,
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password must be at least 8 characters');
    const missing = await signpost(['user', 'add', '--email', 'c@example.com'], environment.env);
    expect(missing.stderr).toContain('missing --name;');
    const agent = await signpost(
      [
        'user',
        'add',
        '--email',
        'desk@example.com',
        '--name',
        'Desk',
        '--password',
        'long enough',
        '--agent',
      ],
      environment.env,
    );
    expect(agent.stdout).toMatch(/created agent user \d+ <desk@example.com>/);
    const customer = await signpost(
      ['user', 'add', '--email', 'cu@example.com', '--name', 'Cu', '--password', 'long enough'],
      environment.env,
    );
    expect(customer.stdout).toMatch(/created user \d+ <cu@example.com>/);
    const both = await signpost(
      [
        'user',
        'add',
        '--email',
        'd@example.com',
        '--name',
        'D',
        '--password',
        'long enough',
        '--admin',
        '--agent',
      ],
      environment.env,
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--admin and --agent: give one');
  });

  it('takes a password typed unseen in a terminal or piped on standard input, and warns when it is a flag', async () => {
    const ctx = await createContext(environment.config);
    const app = await buildApp(ctx);
    const signsIn = async (email: string, password: string) =>
      (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode;
    try {
      const piped = await signpost(
        ['user', 'add', '--email', 'piped@example.com', '--name', 'Piped'],
        environment.env,
        {
          input: 'piped sécret ✓ one\n',
        },
      );
      expect(piped.stderr).toBe('');
      expect(piped.stdout).toMatch(/created user \d+ <piped@example.com>/);
      expect(await signsIn('piped@example.com', 'piped sécret ✓ one')).toBe(200);

      const typed = await signpostInTerminal(
        ['user', 'add', '--email', 'typed@example.com', '--name', 'Typed', '--agent'],
        environment.env,
        ['typed secret two', 'typed secret two'],
      );
      expect(typed.code).toBe(0);
      expect(typed.stdout).toContain('Password: ');
      expect(typed.stdout).toMatch(/created agent user \d+ <typed@example.com>/);
      expect(typed.stdout).not.toContain('typed secret');
      expect(await signsIn('typed@example.com', 'typed secret two')).toBe(200);

      // Keys that send escape sequences (an arrow) add nothing; characters beyond ASCII are kept whole.
      const keys = await signpostInTerminal(
        ['user', 'add', '--email', 'keys@example.com', '--name', 'Keys'],
        environment.env,
        ['grüße \u001b[D\u001b[Cköln', 'grüße köln'],
      );
      expect(keys.code, keys.stdout).toBe(0);
      expect(await signsIn('keys@example.com', 'grüße köln')).toBe(200);

      const empty = await signpostInTerminal(
        ['user', 'add', '--email', 'empty@example.com', '--name', 'Empty'],
        environment.env,
        [''],
      );
      expect(empty.code).toBe(1);
      expect(empty.stdout).toContain('no password given');

      const differ = await signpostInTerminal(
        ['user', 'add', '--email', 'differ@example.com', '--name', 'Differ'],
        environment.env,
        ['first of two', 'second of two'],
      );
      expect(differ.code).toBe(1);
      expect(differ.stdout).toContain('the two passwords differ');
      expect(await signsIn('differ@example.com', 'first of two')).toBe(401);

      const none = await signpost(
        ['user', 'add', '--email', 'none@example.com', '--name', 'None'],
        environment.env,
      );
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('no password:');

      const flag = await signpost(
        ['user', 'add', '--email', 'flag@example.com', '--name', 'Flag', '--password', 'flag secret three'],
        environment.env,
      );
      expect(flag.code).toBe(0);
      expect(flag.stderr).toContain('warning: --password leaves the password in the process list');
      expect(await signsIn('flag@example.com', 'flag secret three')).toBe(200);
    } finally {
      await app.close();
      await ctx.database.close();
    }
  });

  it('unlocks an account that wrong passwords from everywhere locked, saying how many it cleared', async () => {
    const ctx = await createContext(environment.config);
    const app = await buildApp(ctx);
    try {
      await buildUser(ctx.db, { email: 'locked@example.com', name: 'Locked', role: 'admin' });
      const login = (remoteAddress: string, password: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'locked@example.com', password },
          remoteAddress,
        });
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++)
        expect((await login(`198.51.100.${i}`, `guess ${i}`)).statusCode).toBe(401);
      expect((await login('203.0.113.5', DEFAULT_PASSWORD)).statusCode).toBe(429);

      const unlocked = await signpost(['user', 'unlock', ' Locked@Example.com'], environment.env);
      expect(unlocked.stderr).toBe('');
      expect(unlocked.code).toBe(0);
      expect(unlocked.stdout.trim()).toBe(
        `unlocked locked@example.com: cleared ${SIGN_IN_FAILURES_PER_ACCOUNT} failed sign-ins`,
      );
      expect((await login('203.0.113.5', DEFAULT_PASSWORD)).statusCode).toBe(200);

      const again = await signpost(['user', 'unlock', 'locked@example.com'], environment.env);
      expect(again.stdout.trim()).toBe('unlocked locked@example.com: cleared 0 failed sign-ins');
      const unknown = await signpost(['user', 'unlock', 'nobody@example.com'], environment.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no user has the email nobody@example.com');
      const missing = await signpost(['user', 'unlock'], environment.env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('signpost user unlock EMAIL');
    } finally {
      await app.close();
      await ctx.database.close();
    }
  });

  it('sets and shows branding, storing a logo from a file', async () => {
    const logo = writeFolder({ 'logo.png': Buffer.from('89504e470d0a1a0a', 'hex') });
    const set = await signpost(
      [
        'branding',
        'set',
        'lang=sk',
        'portal_enabled=true',
        'site_title=Pomoc',
        `logo=${path.join(logo, 'logo.png')}`,
        'background=https://cdn.example.com/bg.jpg',
        'footer_links=Status=https://status.example.com/?a=1; Privacy = /privacy',
      ],
      environment.env,
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const show = await signpost(['branding', 'show'], environment.env);
    expect(show.stdout).toContain('lang=sk');
    expect(show.stdout).toContain('portal_enabled=true');
    expect(show.stdout).toContain('site_title=Pomoc');
    expect(show.stdout).toMatch(/logo_url=\/files\/\d+\/logo\.png/);
    expect(show.stdout).toContain('background_url=https://cdn.example.com/bg.jpg');
    expect(show.stdout).toContain('footer_links=Status=https://status.example.com/?a=1;Privacy=/privacy\n');

    for (const [pair, message] of [
      ['lang=xx', 'lang must be one of en, ru, pt-BR, it, sk'],
      ['knowledge_enabled=perhaps', 'knowledge_enabled must be true or false'],
      ['colour=red', 'unknown branding key "colour"'],
      ['logo=/nonexistent.png', 'is not a file or an http(s) URL'],
      ['novalue', '"novalue" is not KEY=VALUE'],
      ['footer_links=Evil=javascript:alert(1)', 'footer_links.0.url must be https://… or a path'],
      ['footer_links=Status', 'footer_links: "Status" is not LABEL=URL'],
    ] as const) {
      const bad = await signpost(['branding', 'set', pair], environment.env);
      expect(bad.code, pair).toBe(1);
      expect(bad.stderr, pair).toContain(message);
    }
    expect((await signpost(['branding', 'show'], environment.env)).stdout).toContain('lang=sk');

    // An empty title brings back the interface's own, in the site's language.
    const cleared = await signpost(['branding', 'set', 'site_title='], environment.env);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('site_title=\n');
    const ctx = await createContext(environment.config);
    const app = await buildApp(ctx);
    try {
      expect((await app.inject('/api/settings/branding')).json()).toMatchObject({
        site_title: 'Centrum pomoci',
      });
    } finally {
      await app.close();
      await ctx.database.close();
    }
  });

  it('imports and exports a content folder, and reports a broken one without changing anything', async () => {
    const folder = writeFolder({
      'help/_section.md': '---\nname: Help\nposition: 1\n---\n',
      'help/first.md': '---\ntitle: First\nposition: 1\nfiles:\n  - _files/a.txt\n---\nHello **world**.\n',
      'help/_files/a.txt': 'attached',
      'help/first.ru.md': '---\ntitle: Первая\n---\nПривет, **мир**.\n',
    });
    const imported = await signpost(['import', folder], environment.env);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('articles: 1 created, 0 updated, 0 unchanged, 0 deleted');
    expect(imported.stdout).toContain('translations: 1 created, 0 updated, 0 unchanged, 0 deleted');
    const again = await signpost(['import', folder], environment.env);
    expect(again.stdout).toContain('articles: 0 created, 0 updated, 1 unchanged, 0 deleted');
    expect(again.stdout).toContain('translations: 0 created, 0 updated, 1 unchanged, 0 deleted');

    const out = path.join(writeFolder({}), 'export');
    const exported = await signpost(['export', out], environment.env);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('1 articles and 1 files to');
    expect(exported.stdout).toContain('with 1 translations beside them');
    const files = readFolder(out);
    expect(files.get('help/first.ru.md')?.toString()).toContain('Привет, **мир**.');
    expect(files.get('help/first.md')?.toString()).toContain('Hello **world**.');
    expect(files.get('help/_files/a.txt')?.toString()).toBe('attached');
    const refused = await signpost(['export', out], environment.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not empty');

    fs.writeFileSync(path.join(folder, 'help/second.md'), '---\ntitle: [broken\n---\n');
    const broken = await signpost(['import', folder], environment.env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('nothing was changed');
    expect(broken.stderr).toContain('help/second.md: broken front matter');
  });

  it('serves the help centre and loads the demo only into an empty database on first start', async () => {
    const fresh = await createTestEnvironment(dialect);
    try {
      const server = await startServe(fresh.env);
      const sections = await (await fetch(`${server.url}/api/knowledge/all-sections`)).json();
      expect(sections.length).toBeGreaterThanOrEqual(3);
      expect(await server.stop()).toBe(0);

      // Nothing comes back once the team has emptied the help centre.
      const emptied = await signpost(['import', writeFolder({}), '--prune'], fresh.env);
      expect(emptied.code).toBe(0);
      const again = await startServe(fresh.env);
      expect(await (await fetch(`${again.url}/api/knowledge/all-sections`)).json()).toEqual([]);
      await again.stop();

      const seeded = await signpost(['seed', '--demo'], fresh.env);
      expect(seeded.code).toBe(0);
      expect(seeded.stdout).toMatch(/articles: \d+ created/);
    } finally {
      await fresh.cleanup();
    }
  });
});
