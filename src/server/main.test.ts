import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signpost, startServe } from './testing/run-cli.ts';
import { writeFolder } from './testing/folder.ts';
import { createTestEnvironment, testDialects } from './testing/test-context.ts';

const NOBODY = 'support requests reach nobody';

/** What `signpost serve` tells the operator as it starts (SQLite: start-up does not depend on the database kind). */
describe('starting the server', () => {
  it.each([
    ['neither email nor a webhook', {}, true],
    ['a webhook', { TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/' }, false],
    ['email', { SUPPORT_EMAIL: 'desk@example.com', SMTP_URL: 'smtp://127.0.0.1:2525' }, false],
  ])('with %s, says whether support requests reach anyone', async (_label, env, warns) => {
    const environment = await createTestEnvironment('sqlite', { DEMO_CONTENT: 'false', ...env });
    try {
      const server = await startServe(environment.env);
      try {
        // That warning comes before the first steps', which an install without an administrator always logs: once
        // those are out, it is there or it never will be (a fixed wait lost that race on a busy machine).
        await expect
          .poll(() => server.output(), { timeout: 30_000 })
          .toContain('there is no administrator yet');
        expect(server.output().includes(NOBODY)).toBe(warns);
      } finally {
        await server.stop();
      }
    } finally {
      await environment.cleanup();
    }
  });
});

describe('started from another folder', () => {
  it('renders its pages as when started from its own', async () => {
    const environment = await createTestEnvironment('sqlite', { DEMO_CONTENT: 'false' });
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-elsewhere-'));
    try {
      const server = await startServe(environment.env, { cwd: elsewhere });
      try {
        const response = await fetch(`${server.url}/knowledge`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('<div id="root">');
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
      await environment.cleanup();
    }
  });
});

const NO_ADMIN = 'there is no administrator yet: make one with signpost user add';
const EMPTY = 'the help centre has no published article, so visitors see an empty page';

/** The log's lines that say what to do next, by their message. */
async function firstStepsLogged(env: Record<string, string>): Promise<string[]> {
  const server = await startServe(env);
  try {
    await expect.poll(() => server.output()).toContain('search index built');
    return server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter(({ msg }) => msg.startsWith(NO_ADMIN) || msg.startsWith(EMPTY))
      .map(({ level, msg }) => `${level} ${msg}`);
  } finally {
    await server.stop();
  }
}

describe.each(testDialects())('the start-up log of a new help centre on %s', (dialect) => {
  it('says what to do next while there is no administrator or nothing published, and stops once there is', async () => {
    const environment = await createTestEnvironment(dialect, {
      DEMO_CONTENT: 'false',
      PUBLIC_URL: 'https://help.example.com',
    });
    try {
      const empty = await firstStepsLogged(environment.env);
      expect(empty).toEqual([
        `40 ${NO_ADMIN} --email E --name N --admin (it asks for the password), then sign in at https://help.example.com/admin`,
        expect.stringContaining(`40 ${EMPTY}: sign in at https://help.example.com/admin and write one`),
      ]);
      expect(empty[1]).toContain('signpost import DIR');

      const admin = [
        'user',
        'add',
        '--email',
        'ops@example.com',
        '--name',
        'Ops',
        '--password',
        'long enough',
      ];
      const added = await signpost([...admin, '--admin'], environment.env);
      expect(added.code, added.stderr).toBe(0);
      const folder = writeFolder({ 'help/first.md': '---\ntitle: First\n---\nHello.\n' });
      const imported = await signpost(['import', folder], environment.env);
      expect(imported.code, imported.stderr).toBe(0);
      expect(await firstStepsLogged(environment.env)).toEqual([]);
    } finally {
      await environment.cleanup();
    }
  }, 90_000);
});
