import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AdminArticle, AdminCategory, AdminFileList } from '../../../shared/api/admin.ts';
import { adminAndUserTokens, caller, multipart, ok, PNG, type Call } from '../../testing/admin-content.ts';
import { readFolder, withoutIds, writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { restoreBackup, writeBackup } from '../backup/backup.service.ts';
import { exportFolder } from './export-folder.ts';
import { importFolder } from './import-folder.ts';
import { FolderErrors } from './read-folder.ts';

const tempFolder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-ids-'));

async function exportTo(t: TestApp): Promise<string> {
  const folder = tempFolder();
  await exportFolder(t.ctx, folder, { force: true });
  return folder;
}

const articles = (t: TestApp) =>
  t.ctx.db.selectFrom('articles').select(['id', 'title', 'body_html', 'source_path']).orderBy('id').execute();

/** A folder as an export made before ids were written. */
const withoutIdsFolder = (folder: string) => writeFolder(Object.fromEntries(withoutIds(readFolder(folder))));

/** The same database elsewhere: a backup restored into a new one. */
/** Every row an import could change, to show that a refused one changed nothing. */
const everything = async (app: TestApp) => ({
  sections: await app.ctx.db.selectFrom('sections').selectAll().orderBy('id').execute(),
  categories: await app.ctx.db.selectFrom('categories').selectAll().orderBy('id').execute(),
  articles: await app.ctx.db.selectFrom('articles').selectAll().orderBy('id').execute(),
  files: await app.ctx.db.selectFrom('files').selectAll().orderBy('id').execute(),
});

/** What an import refuses, one message a problem; none when it goes through. */
const problems = (app: TestApp, folder: string) =>
  importFolder(app.ctx, folder).then(
    () => [] as string[],
    (error: unknown) => {
      expect(error).toBeInstanceOf(FolderErrors);
      return (error as FolderErrors).errors.map((e) => e.message);
    },
  );

async function copyOf(t: TestApp, dialect: 'sqlite' | 'postgres'): Promise<TestApp> {
  const file = path.join(tempFolder(), 'copy.backup');
  await writeBackup(t.ctx, file);
  const copy = await createTestApp(dialect);
  onTestFinished(() => copy.close());
  await restoreBackup(copy.ctx, file);
  return copy;
}

/**
 * A help centre of its own, written in the admin: the section Guides, its category Setup, and a published article in
 * the section for each of `titles`, in order.
 */
async function writtenInAdmin(dialect: 'sqlite' | 'postgres', titles: string[]) {
  const app = await createTestApp(dialect);
  onTestFinished(() => app.close());
  const call = caller(app, (await adminAndUserTokens(app)).adminToken);
  const section = await ok<{ id: number }>(call('POST', '/api/admin/sections', { name: 'Guides' }), 201);
  const setup = await ok<AdminCategory>(
    call('POST', '/api/admin/categories', { section_id: section.id, name: 'Setup' }),
    201,
  );
  const articles: AdminArticle[] = [];
  for (const title of titles)
    articles.push(
      await ok<AdminArticle>(
        call('POST', '/api/admin/articles', {
          section_id: section.id,
          title,
          body_html: `<p>${title}</p>`,
          published: true,
        }),
        201,
      ),
    );
  return { app, call, section, setup, articles };
}

describe.each(testDialects())('content folder ids on %s', (dialect) => {
  let t: TestApp;
  let as: Call;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    as = caller(t, (await adminAndUserTokens(t)).adminToken);
  });
  afterAll(async () => t?.close());

  const writeInAdmin = async (title: string, body: string, fileIds: number[] = []) => {
    const section = await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'Guides' }), 201);
    return ok<AdminArticle>(
      as('POST', '/api/admin/articles', {
        section_id: section.id,
        title,
        body_html: body,
        published: true,
        file_ids: fileIds,
      }),
      201,
    );
  };

  it('imports its own export of an article written in the admin as the same article, again and again', async () => {
    const upload = multipart([{ name: 'manual.pdf', content: '%PDF-1.4 manual' }]);
    const [manual] = (
      await ok<AdminFileList>(as('POST', '/api/admin/files', upload.payload, upload.headers), 201)
    ).items;
    const article = await writeInAdmin('Reset the router', '<p>Hold the button.</p>', [manual!.id]);
    const before = await articles(t);

    const folder = await exportTo(t);
    const summary = await importFolder(t.ctx, folder);
    expect(summary.articles).toEqual({ created: 0, updated: 0, unchanged: 1, deleted: 0 });
    expect(summary.sections).toEqual({ created: 0, updated: 0, unchanged: 1, deleted: 0 });
    const after = await articles(t);
    expect(after.map(({ id, title, body_html }) => ({ id, title, body_html }))).toEqual(
      before.map(({ id, title, body_html }) => ({ id, title, body_html })),
    );
    expect(after[0]?.source_path).toBe('guides/reset-the-router.md');
    // The upload is the file the folder holds, not a copy of it.
    expect(summary.files).toEqual({ created: 0, updated: 0, unchanged: 1, deleted: 0 });
    expect(await t.ctx.db.selectFrom('files').select('id').where('kind', '=', 'content').execute()).toEqual([
      { id: manual!.id },
    ]);

    // The article edited in the admin, then the round trip again on a copy of the database.
    await ok(as('PATCH', `/api/admin/articles/${article.id}`, { body_html: '<p>Hold it ten seconds.</p>' }));
    const copy = await copyOf(t, dialect);
    const again = await importFolder(copy.ctx, await exportTo(copy)).then((s) => s.articles);
    expect(again).toEqual({ created: 0, updated: 0, unchanged: 1, deleted: 0 });
    expect((await articles(copy)).map(({ id, body_html }) => ({ id, body_html }))).toEqual([
      { id: article.id, body_html: '<p>Hold it ten seconds.</p>' },
    ]);
  });

  it('on a database an older export already duplicated, neither overwrites one copy with the other nor makes a third', async () => {
    const other = await createTestApp(dialect);
    onTestFinished(() => other.close());
    const asOther = caller(other, (await adminAndUserTokens(other)).adminToken);
    const section = await ok<{ id: number }>(asOther('POST', '/api/admin/sections', { name: 'Guides' }), 201);
    const written = await ok<AdminArticle>(
      asOther('POST', '/api/admin/articles', {
        section_id: section.id,
        title: 'Reset the router',
        body_html: '<p>Hold the button.</p>',
        published: true,
      }),
      201,
    );
    // What the report's first round trip left: the article written in the admin, and its copy from the folder.
    await importFolder(other.ctx, withoutIdsFolder(await exportTo(other)));
    const [original, duplicate] = await articles(other);
    expect([original?.id, duplicate?.source_path]).toEqual([written.id, 'guides/reset-the-router.md']);
    await ok(
      asOther('PATCH', `/api/admin/articles/${written.id}`, { body_html: '<p>Hold it ten seconds.</p>' }),
    );
    const before = await articles(other);

    const copy = await copyOf(other, dialect);
    const summary = await importFolder(copy.ctx, await exportTo(copy));
    expect(summary.articles.created).toBe(0);
    expect(summary.sections.created).toBe(0);
    const after = await articles(copy);
    expect(after.map(({ id, title, body_html }) => ({ id, title, body_html }))).toEqual(
      before.map(({ id, title, body_html }) => ({ id, title, body_html })),
    );
  });

  /** Guides, its category Setup, the articles One and Two. */
  async function written() {
    const { articles, ...rest } = await writtenInAdmin(dialect, ['One', 'Two']);
    return { ...rest, one: articles[0]!, two: articles[1]! };
  }

  const edit = (folder: string, file: string, change: (text: string) => string) =>
    fs.writeFileSync(path.join(folder, file), change(fs.readFileSync(path.join(folder, file), 'utf8')));

  it('refuses ids that contradict each other or the paths, naming both, and changes nothing', async () => {
    const { app, setup, one, two } = await written();
    const exported = await exportTo(app);
    expect(fs.readFileSync(path.join(exported, 'guides/one.md'), 'utf8')).toMatch(
      new RegExp(`^id: article:${one.id}@[0-9a-z]+$`, 'm'),
    );
    expect(fs.readFileSync(path.join(exported, 'guides/setup/_category.md'), 'utf8')).toMatch(
      new RegExp(`^id: category:${setup.id}@[0-9a-z]+$`, 'm'),
    );
    await importFolder(app.ctx, exported);
    const before = await everything(app);

    // A copy of one file kept its id; another file says a category's id.
    const copied = await exportTo(app);
    fs.copyFileSync(path.join(copied, 'guides/one.md'), path.join(copied, 'guides/one-again.md'));
    edit(copied, 'guides/two.md', (text) => text.replace(/^id: .*$/m, `id: category:${setup.id}`));
    expect(await problems(app, copied)).toEqual([
      `guides/one.md: id article:${one.id} is guides/one-again.md's too: one item, one file (a copy made to start a new article must lose its id line)`,
      `guides/two.md: id category:${setup.id} is a category's (guides/setup/_category.md), but this file holds an article: give it its own id, or remove the id line`,
    ]);

    // A file that says it is One where Two came from.
    const swapped = await exportTo(app);
    fs.rmSync(path.join(swapped, 'guides/one.md'));
    edit(swapped, 'guides/two.md', (text) => text.replace(/^id: .*$/m, `id: article:${one.id}`));
    expect(await problems(app, swapped)).toEqual([
      `guides/two.md: says id article:${one.id}, but guides/two.md is where article:${two.id} came from (article:${one.id} came from guides/one.md): correct the id, or remove its line to import the file as article:${two.id}`,
    ]);

    // A file where One came from, and another that says it is One.
    const twice = await exportTo(app);
    fs.copyFileSync(path.join(twice, 'guides/one.md'), path.join(twice, 'guides/first.md'));
    edit(twice, 'guides/one.md', (text) => text.replace(/^id: .*\n/m, ''));
    expect(await problems(app, twice)).toEqual([
      `guides/one.md: is article:${one.id} (its path), and so is guides/first.md: one article cannot be at two places; remove the id line of the one that is a copy`,
    ]);
    expect(await everything(app)).toEqual(before);
  });

  it('keeps the id of what was moved or renamed in the folder, and prunes only what is gone', async () => {
    const { app, setup, one, two } = await written();
    await importFolder(app.ctx, await exportTo(app));
    const folder = await exportTo(app);
    fs.renameSync(path.join(folder, 'guides/one.md'), path.join(folder, 'guides/setup/first.md'));
    fs.renameSync(path.join(folder, 'guides/setup'), path.join(folder, 'guides/getting-started'));
    fs.rmSync(path.join(folder, 'guides/two.md'));
    const summary = await importFolder(app.ctx, folder, { prune: true });
    expect(summary.articles).toMatchObject({ created: 0, deleted: 1 });
    expect(summary.categories).toMatchObject({ created: 0, deleted: 0 });
    const { articles: rows, categories } = await everything(app);
    expect(rows.map(({ id, source_path, category_id }) => ({ id, source_path, category_id }))).toEqual([
      { id: one.id, source_path: 'guides/getting-started/first.md', category_id: setup.id },
    ]);
    expect(categories.map(({ id, source_path }) => ({ id, source_path }))).toEqual([
      { id: setup.id, source_path: 'guides/getting-started' },
    ]);
    expect(rows.some((row) => row.id === two.id)).toBe(false);
  });

  it("ignores the ids of another help centre's folder, matching by path alone", async () => {
    const source = await written();
    const target = await written();
    const folder = await exportTo(source.app);
    const before = await everything(target.app);
    const summary = await importFolder(target.app.ctx, folder);
    expect(summary.articles.created).toBe(2);
    expect(summary.warnings).toContain(
      'the folder was exported from another help centre (_origin.yml): its ids are ignored, items are matched by path',
    );
    const after = await everything(target.app);
    expect(after.articles.slice(0, 2)).toEqual(before.articles);
  });

  it('brings an item deleted since an older export back under its id, and that export again makes no copy', async () => {
    const { app, call, setup, one, two } = await written();
    const older = await exportTo(app);
    await importFolder(app.ctx, older);
    await ok(call('DELETE', `/api/admin/articles/${one.id}`));
    expect((await importFolder(app.ctx, older)).articles.created).toBe(1);
    const ids = async () => (await everything(app)).articles.map(({ id, title }) => ({ id, title }));
    expect(await ids()).toEqual([
      { id: one.id, title: 'One' },
      { id: two.id, title: 'Two' },
    ]);
    // Moved in the admin, exported and imported there: its path is now another.
    await ok(call('POST', '/api/admin/move', { kind: 'article', id: one.id, parent_id: setup.id, index: 0 }));
    await importFolder(app.ctx, await exportTo(app));
    expect((await importFolder(app.ctx, older)).articles).toMatchObject({ created: 0 });
    expect(await ids()).toEqual([
      { id: one.id, title: 'One' },
      { id: two.id, title: 'Two' },
    ]);
    const created = await ok<AdminArticle>(
      call('POST', '/api/admin/articles', { section_id: setup.section_id, title: 'Three' }),
      201,
    );
    expect(created.id).toBeGreaterThan(two.id);
  });

  it('moves what was written in a category since an older export along when that export moves the category back', async () => {
    const { app, call, section, setup } = await written();
    const older = await exportTo(app);
    await importFolder(app.ctx, older);
    const elsewhere = await ok<{ id: number }>(
      call('POST', '/api/admin/sections', { name: 'Elsewhere' }),
      201,
    );
    await ok(
      call('POST', '/api/admin/move', {
        kind: 'category',
        id: setup.id,
        section_id: elsewhere.id,
        parent_id: null,
        index: 0,
      }),
    );
    const inside = await ok<AdminArticle>(
      call('POST', '/api/admin/articles', {
        section_id: elsewhere.id,
        category_id: setup.id,
        title: 'Three',
      }),
      201,
    );
    await importFolder(app.ctx, older);
    const { categories, articles: rows } = await everything(app);
    expect(categories.find((row) => row.id === setup.id)?.section_id).toBe(section.id);
    expect(rows.find((row) => row.id === inside.id)).toMatchObject({
      section_id: section.id,
      category_id: setup.id,
    });
  });
});

describe.each(testDialects())('content folder ids, kept apart, on %s', (dialect) => {
  /** Guides, its category Setup, the article One. */
  async function written() {
    const { articles, ...rest } = await writtenInAdmin(dialect, ['One']);
    return { ...rest, one: articles[0]! };
  }

  const createdAt = async (app: TestApp, id: number) =>
    (
      await app.ctx.db
        .selectFrom('articles')
        .select('created_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).created_at;

  /** Waits until the clock has moved past `millis`, so that the next row is not made in the same millisecond. */
  const after = async (millis: number) => {
    while (Date.now() <= millis) await new Promise((resolve) => setTimeout(resolve, 1));
  };

  it('refuses the folder of a copy that gave an id to another item since the backup, naming both, and changes nothing', async () => {
    const { app, call, section } = await written();
    // Exported before the backup: both databases name themselves as that folder's _origin.yml does.
    await exportTo(app);
    const copy = await copyOf(app, dialect);
    const asCopy = caller(copy, (await adminAndUserTokens(copy)).adminToken);
    const here = await ok<AdminArticle>(
      call('POST', '/api/admin/articles', {
        section_id: section.id,
        title: 'Only here',
        body_html: '<p>Here</p>',
      }),
      201,
    );
    await after(await createdAt(app, here.id));
    const there = await ok<AdminArticle>(
      asCopy('POST', '/api/admin/articles', {
        section_id: section.id,
        title: 'Only there',
        body_html: '<p>There</p>',
      }),
      201,
    );
    // Both databases gave the next id, each to its own article.
    expect(there.id).toBe(here.id);
    const stamp = async (app: TestApp) =>
      `article:${here.id}@${(await createdAt(app, here.id)).toString(36)}`;

    const folder = await exportTo(app);
    const before = await everything(copy);
    expect(await problems(copy, folder)).toEqual([
      `guides/only-here.md: says id ${await stamp(app)}, but article:${here.id} here is another article, "Only there" (${await stamp(copy)}, which was written in the admin): they were made apart, in two copies of one database; remove the id line to import the file as a new article`,
    ]);
    expect(await everything(copy)).toEqual(before);
    expect(fs.readFileSync(path.join(folder, 'guides/only-here.md'), 'utf8')).toMatch(
      new RegExp(`^id: ${await stamp(app)}$`, 'm'),
    );

    // Without its id line, the file is a new article; the copy's own keeps its id and text.
    fs.writeFileSync(
      path.join(folder, 'guides/only-here.md'),
      fs.readFileSync(path.join(folder, 'guides/only-here.md'), 'utf8').replace(/^id: .*\n/m, ''),
    );
    expect((await importFolder(copy.ctx, folder)).articles.created).toBe(1);
    const rows = (await everything(copy)).articles.map(({ id, title }) => ({ id, title }));
    expect(rows.find((row) => row.id === there.id)).toEqual({ id: there.id, title: 'Only there' });
    expect(rows.filter((row) => row.title === 'Only here')).toHaveLength(1);
  });

  it('matches the plain ids of a folder written before ids carried their stamp by number', async () => {
    const { app, one } = await written();
    const folder = await exportTo(app);
    const file = path.join(folder, 'guides/one.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^(id: article:\d+)@.*$/m, '$1'));
    expect(fs.readFileSync(file, 'utf8')).toMatch(new RegExp(`^id: article:${one.id}$`, 'm'));
    fs.renameSync(file, path.join(folder, 'guides/first.md'));
    const summary = await importFolder(app.ctx, folder);
    expect(summary.articles).toMatchObject({ created: 0, deleted: 0 });
    expect((await everything(app)).articles.map(({ id, source_path }) => ({ id, source_path }))).toEqual([
      { id: one.id, source_path: 'guides/first.md' },
    ]);
  });

  it('refuses an id this help centre never gave, and one no id can be, naming the file, and changes nothing', async () => {
    const { app, call, section, one } = await written();
    const folder = await exportTo(app);
    const typed = (id: string) =>
      fs.writeFileSync(
        path.join(folder, 'guides/typed.md'),
        `---\ntitle: Typed\nid: article:${id}\n---\nTyped by hand.\n`,
      );
    const before = await everything(app);
    typed('5000000');
    expect(await problems(app, folder)).toEqual([
      'guides/typed.md: id article:5000000 was never given by this help centre: correct it, or remove the id line to import the file as a new article',
    ]);
    typed('2147483648');
    expect(await problems(app, folder)).toEqual([
      'guides/typed.md: id article:2147483648 is past the highest id there can be, 2147483647: correct it, or remove the id line',
    ]);
    expect(await everything(app)).toEqual(before);
    // The next article written takes the id after the highest given, as it would have without the folder.
    const next = await ok<AdminArticle>(
      call('POST', '/api/admin/articles', { section_id: section.id, title: 'Next' }),
      201,
    );
    expect(next.id).toBe(one.id + 1);
  });

  it('never prunes an upload the branding shows, though a folder brought it in', async () => {
    const { app, call, section } = await written();
    const upload = multipart([{ name: 'logo.png', content: PNG }]);
    const [logo] = (
      await ok<AdminFileList>(call('POST', '/api/admin/files', upload.payload, upload.headers), 201)
    ).items;
    await ok(
      call('POST', '/api/admin/articles', {
        section_id: section.id,
        title: 'Our logo',
        body_html: '<p>Our logo</p>',
        published: true,
        file_ids: [logo!.id],
      }),
      201,
    );
    await ok(call('PATCH', '/api/admin/branding', { logo_file_id: logo!.id }));
    const folder = await exportTo(app);
    expect(fs.existsSync(path.join(folder, `guides/_files/${logo!.id}/logo.png`))).toBe(true);
    expect((await importFolder(app.ctx, folder)).files).toMatchObject({ created: 0, deleted: 0 });

    // The article and its file leave the folder; the logo stays the logo.
    fs.rmSync(path.join(folder, 'guides/our-logo.md'));
    fs.rmSync(path.join(folder, 'guides/_files'), { recursive: true });
    const summary = await importFolder(app.ctx, folder, { prune: true });
    expect(summary.articles.deleted).toBe(1);
    expect(summary.files.deleted).toBe(0);
    expect((await everything(app)).files.map((row) => row.id)).toEqual([logo!.id]);
    expect((await app.app.inject(`/files/${logo!.id}/logo.png`)).statusCode).toBe(200);
  });

  it('imports into a database whose categories loop through their parents, leaving the loop as it is', async () => {
    const { app, call, section, setup } = await written();
    const inner = await ok<AdminCategory>(
      call('POST', '/api/admin/categories', { section_id: section.id, parent_id: setup.id, name: 'Inner' }),
      201,
    );
    // A loop neither the admin nor a folder makes, as a database damaged or edited by hand can hold.
    await app.ctx.db
      .updateTable('categories')
      .set({ parent_id: inner.id })
      .where('id', '=', setup.id)
      .execute();
    const before = (await everything(app)).categories;
    const summary = await importFolder(
      app.ctx,
      writeFolder({
        'news/_section.md': '---\nname: News\n---\n',
        'news/hello.md': '---\ntitle: Hello\n---\nHi.\n',
      }),
    );
    expect(summary.articles.created).toBe(1);
    expect((await everything(app)).categories).toEqual(before);
  });

  it('exports items whose source paths differ only in case under names that no other item came from', async () => {
    const app = await createTestApp(dialect);
    onTestFinished(() => app.close());
    const article = (title: string, position: number) =>
      `---\ntitle: ${title}\nposition: ${position}\n---\n${title}.\n`;
    await importFolder(app.ctx, writeFolder({ 'guides/Setup.md': article('Upper', 1) }));
    await importFolder(
      app.ctx,
      writeFolder({ 'guides/setup.md': article('Lower', 2), 'guides/setup-2.md': article('Second', 3) }),
    );
    const before = await everything(app);
    expect(before.articles.map((row) => row.source_path).sort()).toEqual([
      'guides/Setup.md',
      'guides/setup-2.md',
      'guides/setup.md',
    ]);

    const folder = await exportTo(app);
    const names = [...readFolder(folder).keys()].filter(
      (name) => name.startsWith('guides/') && name.endsWith('.md'),
    );
    // No two names are one on a file system that ignores case, and Second keeps its own.
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
    expect(fs.readFileSync(path.join(folder, 'guides/setup-2.md'), 'utf8')).toContain('title: Second');
    const summary = await importFolder(app.ctx, folder);
    expect(summary.articles).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    const after = await everything(app);
    expect(after.articles.map(({ id, title }) => ({ id, title }))).toEqual(
      before.articles.map(({ id, title }) => ({ id, title })),
    );
  });
});
