import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundary rules of eslint.config.js, run by ESLint itself on code written to cross them: each way round a
 * rule that once passed unseen (a path not written plainly, a dynamic import, a namespace import of kysely, a
 * computed member, a compiled query) is an error naming the rule, and the legitimate forms beside it still pass,
 * so the suite fails if a rule stops catching or starts catching too much.
 */

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

/** The rule ids and messages ESLint reports for `code` as the file at `filePath` (the boundary rules alone). */
async function problems(code: string, filePath: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax' || m.fatal)
    .map((m) => ({ rule: m.ruleId, message: m.message }));
}

const FEATURE_FILE = 'src/server/features/tickets/tickets.service.ts';
const FEATURE_REPOSITORY = 'src/server/features/tickets/tickets.repository.ts';
const SHARED_PART = 'src/server/accounts/roles.ts';
const SHARED_REPOSITORY = 'src/server/accounts/users.repository.ts';

const ANOTHER_FEATURE = 'A feature does not import another feature';
const PLAIN_PATH = 'Write a relative import plainly';
const SHARED_PARTS = "The server's shared parts import no feature";
const QUERIES = "Queries live in the feature's *.repository.ts";
const RAW_SQL = "Raw SQL lives in the feature's *.repository.ts";

const caught = (rule: string, message: string) => [
  expect.objectContaining({ rule, message: expect.stringContaining(message) }),
];

describe('the boundary rules catch each way round them', () => {
  it('a feature importing another through a path not written plainly (./../other)', async () => {
    expect(await problems(`import { x } from './../admin-tickets/x.ts';\nx();\n`, FEATURE_FILE)).toEqual(
      caught('no-restricted-imports', PLAIN_PATH),
    );
    expect(
      await problems(`import { x } from './sub/../../admin-tickets/x.ts';\nx();\n`, FEATURE_FILE),
    ).toEqual(caught('no-restricted-imports', PLAIN_PATH));
    expect(await problems(`import { x } from '../admin-tickets/x.ts';\nx();\n`, FEATURE_FILE)).toEqual(
      caught('no-restricted-imports', ANOTHER_FEATURE),
    );
  });

  it('a feature importing another dynamically (import())', async () => {
    for (const [path, message] of [
      ['../admin-tickets/x.ts', ANOTHER_FEATURE],
      ['../../features/portal/x.ts', ANOTHER_FEATURE],
      ['./../admin-tickets/x.ts', PLAIN_PATH],
    ])
      expect(await problems(`export const load = () => import('${path}');\n`, FEATURE_FILE), path).toEqual(
        caught('no-restricted-syntax', message!),
      );
    expect(await problems(`export const load = () => import('../../../web/x.ts');\n`, FEATURE_FILE)).toEqual(
      caught('no-restricted-syntax', 'The server does not depend on the web client'),
    );
    expect(
      await problems('export const load = (name: string) => import(`../${name}.ts`);\n', FEATURE_FILE),
    ).toEqual(caught('no-restricted-syntax', 'Import a path written as a plain string'));
    // The shared parts, too, and in a repository.
    expect(
      await problems(`export const load = () => import('../features/tickets/x.ts');\n`, SHARED_PART),
    ).toEqual(caught('no-restricted-syntax', SHARED_PARTS));
    expect(await problems(`export const load = () => import('../x/x.ts');\n`, FEATURE_REPOSITORY)).toEqual(
      caught('no-restricted-syntax', ANOTHER_FEATURE),
    );
  });

  it('raw SQL through a namespace import of kysely (k.sql)', async () => {
    expect(
      await problems(`import * as k from 'kysely';\nexport const q = k.sql\`select 1\`;\n`, FEATURE_FILE),
    ).toEqual(caught('no-restricted-syntax', RAW_SQL));
    expect(await problems(`export const k = () => import('kysely');\n`, SHARED_PART)).toEqual(
      caught('no-restricted-syntax', RAW_SQL),
    );
  });

  it("a query begun through a computed member (db['selectFrom'])", async () => {
    const db = `import type { Executor } from '../../db/database.ts';\ndeclare const db: Executor;\n`;
    expect(await problems(`${db}export const q = db['selectFrom']('users');\n`, FEATURE_FILE)).toEqual(
      caught('no-restricted-syntax', QUERIES),
    );
    expect(await problems(`${db}export const q = db[\`selectFrom\`]('users');\n`, FEATURE_FILE)).toEqual(
      caught('no-restricted-syntax', QUERIES),
    );
    expect(
      await problems(`${db}const { insertInto } = db;\nexport const q = insertInto;\n`, SHARED_PART),
    ).toEqual(caught('no-restricted-syntax', QUERIES));
  });

  it('SQL run as a compiled query (CompiledQuery.raw)', async () => {
    const code = `import { CompiledQuery } from 'kysely';\nexport const q = CompiledQuery.raw('delete from users');\n`;
    expect(await problems(code, FEATURE_FILE)).toEqual([
      expect.objectContaining({
        rule: 'no-restricted-syntax',
        message: expect.stringContaining('CompiledQuery'),
      }),
      expect.objectContaining({
        rule: 'no-restricted-syntax',
        message: expect.stringContaining('CompiledQuery'),
      }),
    ]);
  });
});

describe('the access rule', () => {
  it('keeps token checks out of the handlers: route() holds every endpoint to its role', async () => {
    const code = `import { authenticate } from '../../accounts/accounts.service.ts';\nexport const a = authenticate;\n`;
    expect(await problems(code, 'src/server/features/files/files.routes.ts')).toEqual(
      caught('no-restricted-imports', 'No handler checks a token itself'),
    );
    const cookie = `import { sessionCookieToken } from '../../accounts/session-cookie.ts';\nexport const a = sessionCookieToken;\n`;
    expect(await problems(cookie, FEATURE_FILE)).toEqual(
      caught('no-restricted-imports', 'No handler checks a token itself'),
    );
    const login = `import { login } from '../../accounts/accounts.service.ts';\nexport const a = login;\n`;
    expect(await problems(login, FEATURE_FILE)).toEqual([]);
  });
});

describe('the boundary rules let the legitimate forms pass', () => {
  it("a feature's own files, the shared parts and the contract, written plainly, statically or dynamically", async () => {
    const code =
      `import { a } from './tickets.repository.ts';\nimport { b } from '../../accounts/roles.ts';\n` +
      `import { c } from '../../../shared/paths.ts';\nexport const d = () => import('./tickets.presenter.ts');\n` +
      `export const e = [a, b, c];\n`;
    expect(await problems(code, FEATURE_FILE)).toEqual([]);
    expect(
      await problems(
        `import { a } from './users.repository.ts';\nexport const b = () => import('../lib/x.ts');\nexport const c = a;\n`,
        SHARED_PART,
      ),
    ).toEqual([]);
  });

  it('types from kysely anywhere, and SQL in a repository', async () => {
    expect(
      await problems(
        `import type { CompiledQuery, Updateable } from 'kysely';\nimport type * as K from 'kysely';\n` +
          `export type A = [CompiledQuery, Updateable<object>, K.Kysely<object>];\n`,
        FEATURE_FILE,
      ),
    ).toEqual([]);
    const repository =
      `import { sql, CompiledQuery } from 'kysely';\nimport type { Executor } from '../../db/database.ts';\n` +
      `export const q = (db: Executor) => [db.selectFrom('users'), db['insertInto']('users'), sql\`1\`, CompiledQuery.raw('select 1')];\n`;
    expect(await problems(repository, FEATURE_REPOSITORY)).toEqual([]);
    expect(await problems(repository, SHARED_REPOSITORY)).toEqual([]);
  });

  it('a member that only shares a name with a query starter is not one when read plainly elsewhere', async () => {
    expect(
      await problems(`export const pick = (o: Record<string, number>) => o['total'];\n`, FEATURE_FILE),
    ).toEqual([]);
  });
});

describe('small pieces', () => {
  it('no function or component file is let off its size limit by a comment', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const offending: string[] = [];
    for (const folder of ['src', 'scripts', 'bench', 'e2e']) {
      for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|tsx|js|mjs)$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name))
          continue;
        const file = path.join(entry.parentPath, entry.name);
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            if (/eslint-disable.*\bmax-lines(-per-function)?\b/.test(line))
              offending.push(`${file}:${index + 1}`);
          });
      }
    }
    expect(offending).toEqual([]);
  });
});
