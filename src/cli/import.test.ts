import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  createTestApp,
  createTestEnvironment,
  testDialects,
  type TestEnvironment,
} from '../server/testing/test-context.ts';
import { signpost } from '../server/testing/run-cli.ts';
import { writeFolder } from '../server/testing/folder.ts';
import { adminAndUserTokens, caller, ok } from '../server/testing/admin-content.ts';

// Child processes while other files keep the cores busy (see cli.test.ts).
vi.setConfig({ testTimeout: 90_000 });

describe.each(testDialects())('signpost import on %s', (dialect) => {
  let environment: TestEnvironment;
  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
  });
  afterAll(async () => environment?.cleanup());

  it('prints every problem of every file, then replaces the demo with a folder in one command', async () => {
    const { env } = environment;
    expect((await signpost(['seed', '--demo'], env)).code).toBe(0);

    const broken = writeFolder({
      'help/one.md': '---\ntittle: One\nposition: first\n---\n![x](_images/none.png)\n',
      'help/two.md': '---\nfiles:\n  - _files/none.pdf\n---\n',
    });
    const refused = await signpost(['import', broken, '--replace'], env);
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines[0]).toBe('signpost import: nothing was changed: the folder has 4 problems:');
    expect(lines.slice(1).map((line) => line.trim())).toEqual([
      expect.stringMatching(/^help\/one\.md: unknown front matter key "tittle"/),
      'help/one.md: position must be a whole number, not "first"',
      'help/one.md: image "_images/none.png" does not exist',
      'help/two.md: attachment "_files/none.pdf" does not exist',
    ]);

    const both = await signpost(['import', broken, '--replace', '--prune'], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--prune and --replace: give one');

    const own = writeFolder({
      'help/_section.md': '---\nname: Help\n---\n',
      'help/start.md': '---\ntitle: Start\n---\nThen read [billing](../billing/missing.md).\n',
    });
    const replaced = await signpost(['import', own, '--replace'], env);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr.trim()).toBe(
      'warning: help/start.md: link "../billing/missing.md" leads to no article in the folder; it is kept as written',
    );
    expect(replaced.stdout).toMatch(/^sections: 1 created, 0 updated, 0 unchanged, \d+ deleted$/m);
    expect(replaced.stdout).toMatch(/^articles: 1 created, 0 updated, 0 unchanged, \d+ deleted$/m);
    expect(replaced.stdout).toContain('branding: site_title "Lumo Help Centre" (the demo\'s) cleared');

    const out = writeFolder({});
    const exported = await signpost(['export', out, '--force'], env);
    expect(exported.stdout).toContain('exported 1 sections, 0 categories, 1 articles and 0 files');
    expect((await signpost(['branding', 'show'], env)).stdout).toContain('site_title=\n');
  });

  it('imports its own export of an article published in the admin as that article: nothing created, no copy', async () => {
    const t = await createTestApp(dialect);
    onTestFinished(() => t.close());
    const as = caller(t, (await adminAndUserTokens(t)).adminToken);
    const section = await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'Guides' }), 201);
    await ok(
      as('POST', '/api/admin/articles', {
        section_id: section.id,
        title: 'Reset the router',
        body_html: '<p>Hold the button.</p>',
        published: true,
      }),
      201,
    );
    const folder = path.join(writeFolder({}), 'D');
    expect((await signpost(['export', folder], t.environment.env)).code).toBe(0);
    const imported = await signpost(['import', folder], t.environment.env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('sections: 0 created, 0 updated, 1 unchanged, 0 deleted');
    expect(imported.stdout).toContain('articles: 0 created, 0 updated, 1 unchanged, 0 deleted');
    expect(await t.ctx.db.selectFrom('articles').select('title').execute()).toEqual([
      { title: 'Reset the router' },
    ]);
  });
});
