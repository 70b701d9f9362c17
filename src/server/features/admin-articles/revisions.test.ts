import fs from 'node:fs';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Revision,
  RevisionDiff,
  RevisionList,
  type AdminArticle,
  type RevisionDiff as RevisionDiffType,
  type RevisionList as RevisionListType,
  type Revision as RevisionType,
} from '../../../shared/api/admin.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { importFolder } from '../content-folder/import-folder.ts';
import { adminAndUserTokens, caller, ok, type Call } from '../../testing/admin-content.ts';
import { blockLines } from './revisions.service.ts';

describe.each(testDialects())('article revisions on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let adminName: string;
  let adminId: number;
  let sectionId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tokens = await adminAndUserTokens(t);
    as = caller(t, tokens.adminToken);
    adminName = tokens.admin.name;
    adminId = tokens.admin.id;
    sectionId = (await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'History' }), 201)).id;
  });
  afterAll(async () => t?.close());

  const create = (title: string, body_html: string) =>
    ok<AdminArticle>(as('POST', '/api/admin/articles', { section_id: sectionId, title, body_html }), 201);
  const save = (id: number, body: Record<string, unknown>) =>
    ok<AdminArticle>(as('PATCH', `/api/admin/articles/${id}`, body));
  const list = (id: number) => ok<RevisionListType>(as('GET', `/api/admin/articles/${id}/revisions`));

  it('keeps a revision of every save, newest first, with who and what', async () => {
    const a = await create('Reset the router', '<p>Hold the button.</p>');
    await save(a.id, { body_html: '<p>Hold the button for ten seconds.</p>' });
    await save(a.id, { published: true });
    await save(a.id, { published: false, title: 'Reset the old router' });
    const revisions = await list(a.id);
    expect(Value.Check(RevisionList, revisions)).toBe(true);
    expect(revisions.items.map((r) => [r.number, r.action, r.published])).toEqual([
      [4, 'unpublished', false],
      [3, 'published', true],
      [2, 'edited', false],
      [1, 'created', false],
    ]);
    expect(revisions.items[0]?.author).toEqual({ id: adminId, name: adminName });
    expect(revisions.items[0]?.created_at).toMatch(/Z$/);

    const first = await ok<RevisionType>(
      as('GET', `/api/admin/articles/${a.id}/revisions/${revisions.items[3]!.id}`),
    );
    expect(Value.Check(Revision, first)).toBe(true);
    expect(first).toMatchObject({
      title: 'Reset the router',
      body_html: '<p>Hold the button.</p>',
      file_ids: [],
    });
    expectApiError(await as('GET', `/api/admin/articles/${a.id}/revisions/999999`), 404);
    expectApiError(await as('GET', '/api/admin/articles/999999/revisions'), 404);
  });

  it('diffs two revisions: words of the title, lines of the body, and the other fields', async () => {
    const a = await create('Pair the remote', '<h2>Steps</h2><p>Press A.</p><p>Wait.</p>');
    const b = await save(a.id, {
      title: 'Pair the new remote',
      body_html: '<h2>Steps</h2><p>Press B.</p><p>Wait.</p>',
      published: true,
    });
    const diff = await ok<RevisionDiffType>(
      as('GET', `/api/admin/articles/${a.id}/diff?from=${a.revision_id}&to=${b.revision_id}`),
    );
    expect(Value.Check(RevisionDiff, diff)).toBe(true);
    expect(diff.title.filter((p) => p.op !== 'equal')).toEqual([{ op: 'insert', text: 'new ' }]);
    expect(diff.title.map((p) => (p.op === 'delete' ? '' : p.text)).join('')).toBe('Pair the new remote');
    expect(diff.body.filter((p) => p.op !== 'equal')).toEqual([
      { op: 'delete', text: 'Press A.\n' },
      { op: 'insert', text: 'Press B.\n' },
    ]);
    expect(diff.fields).toEqual({ published: { from: false, to: true } });
    expect(diff.from.id).toBe(a.revision_id);

    expectApiError(await as('GET', `/api/admin/articles/${a.id}/diff?from=999999&to=${b.revision_id}`), 404, [
      'from',
    ]);
    expectApiError(await as('GET', `/api/admin/articles/${a.id}/diff?from=${a.revision_id}`), 400, ['to']);
  });

  it('puts each block tag on a line of its own for the body diff', () => {
    expect(blockLines('<table><tr><td>a <b>b</b></td></tr></table><p>c</p>')).toBe(
      '<table>\n<tr>\n<td>\na <b>b</b>\n</td>\n</tr>\n</table>\n<p>\nc\n</p>',
    );
  });

  it('restores an older revision as a new one, keeping the publication state', async () => {
    const a = await create('Update the firmware', '<p>Version 1</p>');
    await save(a.id, { body_html: '<p>Version 2</p>', title: 'Update firmware', published: true });
    const restored = await ok<AdminArticle>(
      as('POST', `/api/admin/articles/${a.id}/revisions/${a.revision_id}/restore`),
    );
    expect(restored).toMatchObject({
      title: 'Update the firmware',
      body_html: '<p>Version 1</p>',
      published: true,
    });
    const revisions = await list(a.id);
    expect(revisions.items[0]).toMatchObject({
      id: restored.revision_id,
      number: 3,
      action: 'restored',
      restored_from: a.revision_id,
      published: true,
    });
    expect((await t.app.inject(`/api/knowledge/instruction/${a.id}`)).json()).toMatchObject({
      description: '<p>Version 1</p>',
    });
    const other = await create('Another', '<p>x</p>');
    expectApiError(
      await as('POST', `/api/admin/articles/${a.id}/revisions/${other.revision_id}/restore`),
      404,
    );
  });

  it('cleans a restored body again, however it was stored', async () => {
    const a = await create('Printer setup', '<p>Safe</p>');
    // As a revision kept by an older, laxer sanitiser (or written by hand) would hold it.
    const unsafe =
      '<p onclick="steal()">Old text<script>alert(1)</script> <a href="javascript:alert(1)">link</a>' +
      '<img src="x.png" onerror="alert(1)"><iframe src="https://evil.example/"></iframe></p>';
    const stored = await t.ctx.db
      .selectFrom('article_revisions')
      .selectAll()
      .where('id', '=', a.revision_id as number)
      .executeTakeFirstOrThrow();
    const { id: _id, ...copy } = stored;
    const old = await t.ctx.db
      .insertInto('article_revisions')
      .values({ ...copy, number: stored.number + 1, body_html: unsafe, action: 'edited' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const restored = await ok<AdminArticle>(
      as('POST', `/api/admin/articles/${a.id}/revisions/${old.id}/restore`),
    );
    const clean = '<p>Old text <a>link</a><img src="x.png" loading="lazy" /></p>';
    expect(restored.body_html).toBe(clean);
    const row = await t.ctx.db
      .selectFrom('articles')
      .select('body_html')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.body_html).toBe(clean);
    const newest = (await list(a.id)).items[0];
    expect(newest).toMatchObject({ action: 'restored', restored_from: old.id });
  });

  it('refuses a save over a newer revision (409 conflict) and changes nothing', async () => {
    const a = await create('Shared article', '<p>Original</p>');
    const theirs = await save(a.id, { body_html: '<p>Their change</p>', base_revision_id: a.revision_id });
    const conflict = expectApiError(
      await as('PATCH', `/api/admin/articles/${a.id}`, {
        body_html: '<p>Mine</p>',
        base_revision_id: a.revision_id,
      }),
      409,
      ['base_revision_id'],
    );
    expect(conflict.code).toBe('conflict');
    expect((await ok<AdminArticle>(as('GET', `/api/admin/articles/${a.id}`))).body_html).toBe(
      '<p>Their change</p>',
    );
    expect((await list(a.id)).items).toHaveLength(2);
    expect(
      (await save(a.id, { body_html: '<p>Mine</p>', base_revision_id: theirs.revision_id })).body_html,
    ).toBe('<p>Mine</p>');
  });

  it('lets only one of two simultaneous saves from the same revision through', async () => {
    const a = await create('Raced article', '<p>Start</p>');
    const responses = await Promise.all(
      ['<p>One</p>', '<p>Two</p>', '<p>Three</p>'].map((body_html) =>
        as('PATCH', `/api/admin/articles/${a.id}`, { body_html, base_revision_id: a.revision_id }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect((await list(a.id)).items).toHaveLength(2);
  });

  it('keeps a revision of each article an import creates or changes, and none for unchanged ones', async () => {
    const folder = writeFolder({
      'imported/_section.md': '---\nname: Imported\n---\n',
      'imported/one.md': '---\ntitle: One\n---\nFirst body.\n',
      'imported/two.md': '---\ntitle: Two\n---\nSecond body.\n',
    });
    await importFolder(t.ctx, folder);
    const rows = await t.ctx.db
      .selectFrom('articles')
      .select(['id', 'source_path'])
      .where('source_path', 'is not', null)
      .execute();
    const idOf = (p: string) => rows.find((r) => r.source_path === p)!.id;
    const one = await list(idOf('imported/one.md'));
    expect(one.items.map((r) => [r.action, r.author])).toEqual([['imported', null]]);

    await importFolder(t.ctx, folder);
    expect((await list(idOf('imported/one.md'))).items).toHaveLength(1);

    fs.writeFileSync(path.join(folder, 'imported/two.md'), '---\ntitle: Two\n---\nSecond body, changed.\n');
    await importFolder(t.ctx, folder);
    expect((await list(idOf('imported/one.md'))).items).toHaveLength(1);
    const two = await list(idOf('imported/two.md'));
    expect(two.items.map((r) => r.action)).toEqual(['imported', 'imported']);
    const newest = await ok<RevisionType>(
      as('GET', `/api/admin/articles/${idOf('imported/two.md')}/revisions/${two.items[0]!.id}`),
    );
    expect(newest.body_html).toBe('<p>Second body, changed.</p>\n');
  });
});
