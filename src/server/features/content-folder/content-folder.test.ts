import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PNG } from '../../testing/admin-content.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { readFolder, withoutIds, writeFolder } from '../../testing/folder.ts';
import { importFolder } from './import-folder.ts';
import { exportFolder } from './export-folder.ts';
import { FolderErrors } from './read-folder.ts';

const sampleFolder = () =>
  writeFolder({
    'guides/_section.md': '---\nname: Guides\nposition: 5\n---\n',
    'guides/welcome.md':
      '---\ntitle: Welcome\nposition: 1\n---\n# Welcome\n\nStart with [the setup](setup/install.md).\n',
    'guides/setup/_category.md':
      '---\nname: Setup\nposition: 1\nfont_icon: fa-solid fa-wrench\n---\nEverything about **setting up**.\n',
    'guides/setup/install.md': [
      '---',
      'title: Install the app',
      'position: 1',
      'can_create_issue: true',
      'files:',
      '  - _files/manual.pdf',
      '  - _files/Ünïcode notes.txt',
      '---',
      '## Steps',
      '',
      '1. Download',
      '2. Run `install`',
      '',
      '| Setting | Value |',
      '|---|---|',
      '| Mode | Auto |',
      '',
      '![The screen](_images/screen.png)',
      '',
      '<img src="_images/screen.png" alt="raw" onerror="alert(1)">',
      '',
      '```sh',
      'lumo --version',
      '```',
      '',
    ].join('\n'),
    'guides/setup/_files/manual.pdf': '%PDF-1.4 fake manual',
    'guides/setup/_files/Ünïcode notes.txt': 'notes',
    'guides/setup/_images/screen.png': PNG,
    'guides/setup/advanced/deeper/_category.md': '---\nname: Deeper\n---\n',
    'guides/setup/advanced/deeper/tuning.md': '---\ntitle: Tuning\n---\nTune it.\n',
    'guides/setup/advanced/draft.md': '---\ntitle: Draft\npublished: false\n---\nNot yet.\n',
    'news/2026-11.md': '---\ntitle: November news\nposition: 3\nlang: ru\n---\nНовости.\n',
    'hidden/secret.md': '---\ntitle: Secret\npublished: false\n---\nshh\n',
  });

async function snapshot(t: TestApp) {
  const { db } = t.ctx;
  const sections = await db
    .selectFrom('sections')
    .select(['name', 'position', 'source_path'])
    .orderBy('source_path')
    .execute();
  const categories = await db
    .selectFrom('categories as c')
    .leftJoin('categories as p', 'p.id', 'c.parent_id')
    .select([
      'c.name',
      'c.position',
      'c.source_path',
      'c.description_source',
      'c.font_icon',
      'c.icon_type',
      'p.source_path as parent',
    ])
    .orderBy('c.source_path')
    .execute();
  const articles = await db
    .selectFrom('articles')
    .select(['title', 'position', 'source_path', 'body_source', 'can_create_issue', 'published', 'lang'])
    .orderBy('source_path')
    .execute();
  const files = await db
    .selectFrom('files')
    .select(['source_path', 'storage_key', 'original_name', 'size', 'mime_type'])
    .orderBy('source_path')
    .execute();
  const attachments = await db
    .selectFrom('article_files')
    .innerJoin('articles', 'articles.id', 'article_files.article_id')
    .innerJoin('files', 'files.id', 'article_files.file_id')
    .select(['articles.source_path as article', 'files.source_path as file', 'article_files.position'])
    .orderBy('articles.source_path')
    .orderBy('article_files.position')
    .execute();
  return { sections, categories, articles, files, attachments };
}

const counts = async (t: TestApp) => {
  const count = async (table: 'sections' | 'categories' | 'articles' | 'files' | 'article_files') =>
    (await t.ctx.db.selectFrom(table).selectAll().execute()).length;
  return {
    sections: await count('sections'),
    categories: await count('categories'),
    articles: await count('articles'),
    files: await count('files'),
    article_files: await count('article_files'),
  };
};

describe.each(testDialects())('Markdown content folders on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('imports sections, nested categories, articles, attachments and images', async () => {
    const summary = await importFolder(t.ctx, sampleFolder());
    expect(summary.sections.created).toBe(3);
    expect(summary.categories.created).toBe(3);
    expect(summary.articles.created).toBe(6);
    expect(summary.files.created).toBe(3);

    const sections = (await t.app.inject('/api/knowledge/all-sections')).json();
    expect(sections.map((s: { name: string }) => s.name)).toEqual(['News', 'Guides']);

    const bundle = (await t.app.inject('/api/knowledge/instruction')).json();
    const install = bundle.items.find((a: { title: string }) => a.title === 'Install the app');
    expect(install.can_create_issue).toBe(true);

    const article = (await t.app.inject(`/api/knowledge/instruction/${install.id}`)).json();
    expect(article.files.map((f: { original_name: string }) => f.original_name)).toEqual([
      'manual.pdf',
      'Ünïcode notes.txt',
    ]);
    expect(article.description).toContain('<table>');
    expect(article.description).toContain('<ol>');
    expect(article.description).toMatch(/<pre><code class="language-sh">lumo --version/);
    expect(article.description).not.toContain('onerror');
    const images = [...article.description.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(images).toHaveLength(2);
    for (const src of images) {
      expect(src).toMatch(/^\/files\/\d+\/screen\.png$/);
      const image = await t.app.inject(src);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(PNG)).toBe(true);
    }
    const download = await t.app.inject(article.files[1].link);
    expect(download.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Ünïcode notes.txt')}`,
    );
    expect(download.body).toBe('notes');

    const welcome = bundle.items.find((a: { title: string }) => a.title === 'Welcome');
    const welcomeBody = (await t.app.inject(`/api/knowledge/instruction/${welcome.id}`)).json().description;
    expect(welcomeBody).toContain(`href="/knowledge/instruction/${install.id}"`);

    const categories = (await t.app.inject('/api/knowledge/category')).json().items;
    const setup = categories.find((c: { name: string }) => c.name === 'Setup');
    expect(setup.description).toBe('<p>Everything about <strong>setting up</strong>.</p>\n');
    expect(setup).toMatchObject({
      icon_type: 'font',
      font_icon: 'fa-solid fa-wrench',
      count_instruction: 1,
      count_category: 1,
    });
    // "advanced" has only a draft directly in it, but a published article deeper down.
    const advanced = categories.find((c: { name: string }) => c.name === 'Advanced');
    expect(advanced).toMatchObject({ parent_id: setup.id, count_instruction: 0, count_category: 1 });
  });

  it('re-imports the same folder in place, with no duplicates', async () => {
    const before = await counts(t);
    const ids = await t.ctx.db.selectFrom('articles').select(['id', 'source_path']).orderBy('id').execute();
    const summary = await importFolder(t.ctx, sampleFolder());
    expect(summary.articles).toEqual({ created: 0, updated: 0, unchanged: 6, deleted: 0 });
    expect(await counts(t)).toEqual(before);
    expect(
      await t.ctx.db.selectFrom('articles').select(['id', 'source_path']).orderBy('id').execute(),
    ).toEqual(ids);
  });

  it('leaves what did not change alone, so a re-import moves only the changed articles in search and caches', async () => {
    const versions = () =>
      t.ctx.db.selectFrom('articles').select(['source_path', 'updated_at']).orderBy('source_path').execute();
    const revision = () =>
      t.ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'content_revision')
        .executeTakeFirst();
    const before = await versions();
    const revisionBefore = await revision();
    await importFolder(t.ctx, sampleFolder());
    expect(await versions()).toEqual(before);
    expect(await revision()).toEqual(revisionBefore);

    const folder = sampleFolder();
    fs.writeFileSync(
      path.join(folder, 'guides/setup/advanced/deeper/tuning.md'),
      '---\ntitle: Tuning\n---\nTune it well.\n',
    );
    const summary = await importFolder(t.ctx, folder);
    expect(summary.articles).toEqual({ created: 0, updated: 1, unchanged: 5, deleted: 0 });
    const after = await versions();
    const moved = after
      .filter((row, i) => row.updated_at !== before[i]?.updated_at)
      .map((row) => row.source_path);
    expect(moved).toEqual(['guides/setup/advanced/deeper/tuning.md']);
    expect(await revision()).not.toEqual(revisionBefore);
  });

  it('exports a folder that imports back to the same content, byte for byte on the second round', async () => {
    const original = await snapshot(t);
    const first = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-export-'));
    await exportFolder(t.ctx, first, { force: true });
    const exported = readFolder(first);
    expect(exported.get('guides/setup/_images/screen.png')?.equals(PNG)).toBe(true);
    expect(exported.get('guides/setup/_files/Ünïcode notes.txt')?.toString()).toBe('notes');
    expect(exported.get('hidden/secret.md')?.toString()).toContain('published: false');

    const other = await createTestApp(dialect);
    try {
      await importFolder(other.ctx, first);
      expect(await snapshot(other)).toEqual(original);
      const second = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-export-'));
      await exportFolder(other.ctx, second, { force: true });
      // Each database has its own ids and origin; the rest is the same, byte for byte.
      expect(withoutIds(readFolder(second))).toEqual(withoutIds(exported));
    } finally {
      await other.close();
    }
  });

  it('prunes what the folder no longer has only when asked', async () => {
    const folder = sampleFolder();
    fs.rmSync(path.join(folder, 'guides/setup/advanced'), { recursive: true });
    fs.rmSync(path.join(folder, 'guides/setup/_files/manual.pdf'));
    fs.writeFileSync(
      path.join(folder, 'guides/setup/install.md'),
      fs
        .readFileSync(path.join(folder, 'guides/setup/install.md'), 'utf8')
        .replace('  - _files/manual.pdf\n', ''),
    );
    await importFolder(t.ctx, folder);
    expect((await counts(t)).articles).toBe(6);

    const summary = await importFolder(t.ctx, folder, { prune: true });
    expect(summary.articles.deleted).toBe(2);
    expect(summary.categories.deleted).toBe(2);
    expect(summary.files.deleted).toBe(1);
    const paths = (await t.ctx.db.selectFrom('articles').select('source_path').execute()).map(
      (a) => a.source_path,
    );
    expect(paths.sort()).toEqual([
      'guides/setup/install.md',
      'guides/welcome.md',
      'hidden/secret.md',
      'news/2026-11.md',
    ]);
  });

  it.each([
    [
      'broken front matter',
      { 'a/b.md': '---\ntitle: [unclosed\n---\nbody\n' },
      /a\/b\.md: broken front matter/,
    ],
    [
      'an unclosed front matter',
      { 'a/b.md': '---\ntitle: x\nbody\n' },
      /a\/b\.md: front matter starts with --- but has no closing/,
    ],
    [
      'a missing attachment',
      { 'a/b.md': '---\ntitle: B\nfiles:\n  - nope.pdf\n---\n' },
      /a\/b\.md: attachment "nope.pdf" does not exist/,
    ],
    [
      'a missing image',
      { 'a/b.md': '---\ntitle: B\n---\n![x](gone.png)\n' },
      /a\/b\.md: image "gone.png" does not exist/,
    ],
    [
      'a file that is not UTF-8',
      { 'a/b.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]) },
      /a\/b\.md: is not valid UTF-8/,
    ],
    ['an unknown key', { 'a/b.md': '---\ntittle: B\n---\n' }, /a\/b\.md: unknown front matter key "tittle"/],
    [
      'a wrong type',
      { 'a/b.md': '---\ntitle: B\nposition: first\n---\n' },
      /a\/b\.md: position must be a whole number/,
    ],
    [
      'an unknown visibility',
      { 'a/b.md': '---\ntitle: B\nvisibility: friends\n---\n' },
      /a\/b\.md: visibility must be one of everyone, signed_in/,
    ],
    [
      'a font icon that is more than class names',
      {
        'a/c/_category.md': '---\nfont_icon: \'fa-wifi" onmouseover="x\'\n---\n',
        'a/c/d.md': '---\ntitle: D\n---\n',
      },
      /a\/c\/_category\.md: font_icon must be icon classes/,
    ],
    [
      'a path outside the folder',
      { 'a/b.md': '---\ntitle: B\nfiles:\n  - ../../etc/passwd\n---\n' },
      /points outside the content folder/,
    ],
  ])('refuses %s, naming the file, and changes nothing', async (_name, files, message) => {
    const before = await snapshot(t);
    const folder = writeFolder({ ...files, 'z/fine.md': '---\ntitle: Fine\n---\nok\n' });
    const error = await importFolder(t.ctx, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    expect((error as Error).message).toMatch(message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('reads and writes who may read a section, a category and an article (visibility), the default left unwritten', async () => {
    const folder = writeFolder({
      'members/_section.md': '---\nname: Members\nvisibility: signed_in\n---\n',
      'members/welcome.md': '---\ntitle: Members welcome\n---\nHello.\n',
      'open/_section.md': '---\nname: Open\n---\n',
      'open/deals/_category.md': '---\nname: Deals\nvisibility: signed_in\n---\n',
      'open/deals/desk.md': '---\ntitle: Deal desk\n---\nAsk.\n',
      'open/pricing.md': '---\ntitle: Partner pricing\nvisibility: signed_in\n---\nPrices.\n',
      'open/install.md': '---\ntitle: Install\n---\nRun it.\n',
    });
    // Its own help centre: the other tests share the sample content.
    const own = await createTestApp(dialect);
    onTestFinished(() => own.close());
    await importFolder(own.ctx, folder);
    const { db } = own.ctx;
    const visibilityOf = async (table: 'sections' | 'categories', name: string) =>
      (await db.selectFrom(table).select('visibility').where('name', '=', name).executeTakeFirstOrThrow())
        .visibility;
    const articleVisibility = async (title: string) =>
      (
        await db
          .selectFrom('articles')
          .select('visibility')
          .where('title', '=', title)
          .executeTakeFirstOrThrow()
      ).visibility;
    expect(await visibilityOf('sections', 'Members')).toBe('signed_in');
    expect(await visibilityOf('sections', 'Open')).toBe('everyone');
    expect(await visibilityOf('categories', 'Deals')).toBe('signed_in');
    expect(await articleVisibility('Partner pricing')).toBe('signed_in');
    expect(await articleVisibility('Deal desk')).toBe('everyone');

    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-export-'));
    await exportFolder(own.ctx, out, { force: true });
    const files = readFolder(out);
    const text = (name: string) => files.get(name)?.toString('utf8') ?? '';
    expect(text('members/_section.md')).toContain('visibility: signed_in');
    expect(text('open/deals/_category.md')).toContain('visibility: signed_in');
    expect(text('open/pricing.md')).toContain('visibility: signed_in');
    expect(text('open/_section.md')).not.toContain('visibility');
    expect(text('open/install.md')).not.toContain('visibility');
  });

  it('refuses every file whose real location is outside the folder, however links lead there, naming the file that refers to it, and changes nothing', async () => {
    const before = await snapshot(t);
    const outside = writeFolder({
      passwd: 'root:x:0:0:root:/root:/bin/bash\n',
      'logo.png': PNG,
      'secret.md': '---\nname: Leaked\n---\nSMTP_URL=smtp://mailer:hunter2@mail.example.com\n',
    });
    const folder = writeFolder({
      'a/b.md': '---\ntitle: B\nfiles:\n  - link/passwd\n---\n![x](link/logo.png)\n',
      'a/html.md': '---\ntitle: Html\nformat: html\n---\n<p><a href="link/passwd">download</a></p>\n',
      'a/env.md': '---\ntitle: Env\nfiles:\n  - proc/environ\n---\n',
      'a/loop.md': '---\ntitle: Loop\nfiles:\n  - loop/x\n---\n',
      'a/iconic/_category.md': '---\nicon: ../link/logo.png\n---\n',
      'a/described/article.md': '---\ntitle: In a category\n---\n',
      'a/zero/article.md': '---\ntitle: In another\n---\n',
      'y/article.md': '---\ntitle: In a section\n---\n',
      'z/fine.md': '---\ntitle: Fine\n---\nok\n',
    });
    fs.symlinkSync(outside, path.join(folder, 'a/link'));
    fs.symlinkSync('/proc/self', path.join(folder, 'a/proc'));
    fs.symlinkSync('loop', path.join(folder, 'a/loop'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(folder, 'a/described/_category.md'));
    fs.symlinkSync('/dev/zero', path.join(folder, 'a/zero/_category.md'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(folder, 'y/_section.md'));

    const error = await importFolder(t.ctx, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    const problems = (error as FolderErrors).errors.map((e) => e.message).sort();
    const real = fs.realpathSync(outside);
    expect(problems).toEqual([
      `a/b.md: attachment "link/passwd" points outside the content folder (through a symbolic link, to ${real}/passwd)`,
      `a/b.md: image "link/logo.png" points outside the content folder (through a symbolic link, to ${real}/logo.png)`,
      expect.stringMatching(
        /^a\/described\/_category\.md: points outside the content folder \(through a symbolic link, to .*secret\.md\)$/,
      ),
      `a/env.md: attachment "proc/environ" points outside the content folder (through a symbolic link, to /proc/${process.pid}/environ)`,
      `a/html.md: linked file "link/passwd" points outside the content folder (through a symbolic link, to ${real}/passwd)`,
      `a/iconic/_category.md: icon "../link/logo.png" points outside the content folder (through a symbolic link, to ${real}/logo.png)`,
      'a/loop.md: attachment "loop/x" is a loop of symbolic links',
      'a/zero/_category.md: points outside the content folder (through a symbolic link, to /dev/zero)',
      `y/_section.md: points outside the content folder (through a symbolic link, to ${real}/secret.md)`,
    ]);
    expect((error as Error).message).not.toContain('hunter2');
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a FIFO or a folder where a file belongs, without waiting on it', async () => {
    const before = await snapshot(t);
    const folder = writeFolder({
      'a/b.md': '---\ntitle: B\nfiles:\n  - _files/pipe\n---\n',
      'a/c.md': '---\ntitle: C\nfiles:\n  - _files\n---\n',
      'a/piped/article.md': '---\ntitle: Piped\n---\n',
      'a/_files/readme.txt': 'beside the pipe',
    });
    execFileSync('mkfifo', [path.join(folder, 'a/_files/pipe'), path.join(folder, 'a/piped/_category.md')]);
    const error = await importFolder(t.ctx, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    expect((error as FolderErrors).errors.map((e) => e.message).sort()).toEqual([
      'a/b.md: attachment "_files/pipe" is not a regular file',
      'a/c.md: attachment "_files" is not a regular file',
      'a/piped/_category.md: is not a regular file',
    ]);
    expect(await snapshot(t)).toEqual(before);
  });

  it('reads a file whose folder is swapped for a link between the check and the read as it now is: refused', async () => {
    const before = await snapshot(t);
    const outside = writeFolder({ '2.txt': 'outside the folder' });
    const folder = writeFolder({
      'a/b.md': '---\ntitle: B\nfiles:\n  - _first/1.txt\n  - _second/2.txt\n---\n',
      'a/_first/1.txt': 'one',
      'a/_second/2.txt': 'two',
    });
    const error = await importFolder(t.ctx, folder, {
      // Once the first file is stored, the second's folder becomes a link to another place.
      onProgress: (_done, _total, label) => {
        if (label !== 'a/_first/1.txt') return;
        fs.renameSync(path.join(folder, 'a/_second'), path.join(folder, 'a/_moved'));
        fs.symlinkSync(outside, path.join(folder, 'a/_second'));
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    expect((error as Error).message).toMatch(/a\/_second\/2\.txt: points outside the content folder/);
    expect(await snapshot(t)).toEqual(before);
  });

  it('follows links that stay inside the folder and a folder that is itself a link, but walks into no linked folder', async () => {
    const own = await createTestApp(dialect);
    try {
      const folder = writeFolder({
        '_shared/screen.png': PNG,
        '_shared/manual.pdf': '%PDF-1.4 shared manual',
        '_shared/category.md': '---\nname: Shared setup\n---\nThe shared description.\n',
        'guides/install.md':
          '---\ntitle: Install\nfiles:\n  - _files/manual.pdf\n---\n![Screen](_img/screen.png)\n',
        'guides/setup/first.md': '---\ntitle: First\n---\n',
        'guides/_files/readme.txt': 'a real file beside the link',
      });
      fs.symlinkSync('../_shared', path.join(folder, 'guides/_img'));
      fs.symlinkSync('../../_shared/manual.pdf', path.join(folder, 'guides/_files/manual.pdf'));
      fs.symlinkSync('../../_shared/category.md', path.join(folder, 'guides/setup/_category.md'));
      fs.symlinkSync('setup', path.join(folder, 'guides/again'));
      fs.symlinkSync('first.md', path.join(folder, 'guides/setup/second.md'));
      const link = path.join(os.tmpdir(), `signpost-linked-${process.pid}-${Date.now()}`);
      fs.symlinkSync(folder, link);
      try {
        const summary = await importFolder(own.ctx, link);
        expect(summary.warnings.sort()).toEqual([
          'guides/again: symbolic link skipped',
          'guides/setup/second.md: symbolic link skipped',
        ]);
        expect(summary.articles.created).toBe(2);
        const category = await own.ctx.db.selectFrom('categories').selectAll().executeTakeFirstOrThrow();
        expect(category).toMatchObject({ name: 'Shared setup', source_path: 'guides/setup' });
        expect(category.description).toContain('The shared description.');

        const bundle = (await own.app.inject('/api/knowledge/instruction')).json();
        const install = bundle.items.find((a: { title: string }) => a.title === 'Install');
        const article = (await own.app.inject(`/api/knowledge/instruction/${install.id}`)).json();
        expect((await own.app.inject(article.files[0].link)).body).toBe('%PDF-1.4 shared manual');
        const image = /<img src="([^"]+)"/.exec(article.description)?.[1] as string;
        expect((await own.app.inject(image)).rawPayload.equals(PNG)).toBe(true);
      } finally {
        fs.unlinkSync(link);
      }
    } finally {
      await own.close();
    }
  });

  it('keeps the images and files of drafts from a folder private until the draft is published', async () => {
    const own = await createTestApp(dialect);
    try {
      await importFolder(
        own.ctx,
        writeFolder({
          'plans/next.md': [
            '---',
            'title: Next release',
            'published: false',
            'files:',
            '  - _files/roadmap.pdf',
            '---',
            '![The plan](_images/plan.png)',
            '',
          ].join('\n'),
          'plans/_images/plan.png': PNG,
          'plans/_files/roadmap.pdf': '%PDF-1.4 roadmap',
          'plans/open.md': '---\ntitle: Open\n---\nNothing secret.\n',
        }),
      );
      const files = await own.ctx.db.selectFrom('files').select(['id', 'original_name']).execute();
      const urls = files.map((file) => `/files/${file.id}/${file.original_name}`);
      expect(urls).toHaveLength(2);
      const statuses = async () =>
        Promise.all(urls.map(async (url) => (await own.app.inject(url)).statusCode));
      expect(await statuses()).toEqual([404, 404]);

      await own.ctx.db
        .updateTable('articles')
        .set({ published: 1 })
        .where('title', '=', 'Next release')
        .execute();
      expect(await statuses()).toEqual([200, 200]);
    } finally {
      await own.close();
    }
  });

  it('refuses to export into a folder that has content unless forced', async () => {
    const target = writeFolder({ 'keep.txt': 'x', '.git/HEAD': 'ref' });
    await expect(exportFolder(t.ctx, target)).rejects.toThrow(/not empty/);
    await exportFolder(t.ctx, target, { force: true });
    expect(fs.existsSync(path.join(target, 'keep.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(target, '.git/HEAD'), 'utf8')).toBe('ref');
  });
  it('replaces a folder that holds links by removing the links, never what they lead to', async () => {
    const outside = writeFolder({ 'keep.txt': 'outside', 'guides/_section.md': 'not ours' });
    const target = writeFolder({ 'old/page.md': 'old' });
    fs.symlinkSync(outside, path.join(target, 'guides'));
    fs.symlinkSync(outside, path.join(target, 'old/inner'));
    fs.symlinkSync(path.join(outside, 'keep.txt'), path.join(target, 'file.md'));
    await exportFolder(t.ctx, target, { force: true });
    expect(readFolder(outside)).toEqual(
      new Map([
        ['guides/_section.md', Buffer.from('not ours')],
        ['keep.txt', Buffer.from('outside')],
      ]),
    );
    expect(fs.lstatSync(path.join(target, 'guides')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(target, 'guides/_section.md'), 'utf8')).toContain('name: Guides');
    expect(fs.existsSync(path.join(target, 'old'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'file.md'))).toBe(false);
  });

  it('refuses to write where a stored path or a link it keeps would lead out of the folder, writing nothing there', async () => {
    const own = await createTestApp(dialect);
    try {
      await importFolder(
        own.ctx,
        writeFolder({
          'help/a.md': '---\ntitle: A\nfiles:\n  - _files/a.txt\n---\n',
          'help/_files/a.txt': 'attached',
        }),
      );
      const outside = writeFolder({});
      const parent = writeFolder({});
      const target = path.join(parent, 'export');
      fs.mkdirSync(target);
      // A dot-entry is kept by --force, links included.
      fs.symlinkSync(outside, path.join(target, '.shared'));
      // Paths as a restored backup could carry them.
      const cases: [string, () => Promise<unknown>, RegExp][] = [
        [
          'a file above the folder',
          () => own.ctx.db.updateTable('files').set({ source_path: '../escape.txt' }).execute(),
          /\.\.\/escape\.txt: is not a path inside the folder/,
        ],
        [
          'a section above the folder',
          () => own.ctx.db.updateTable('sections').set({ source_path: '..' }).execute(),
          /\.\.\/_section\.md: is not a path inside the folder/,
        ],
        [
          'a file in a kept link',
          () => own.ctx.db.updateTable('files').set({ source_path: '.shared/a.txt' }).execute(),
          /\.shared\/a\.txt: lies in \.shared, and the export leaves dot-entries as they are/,
        ],
      ];
      for (const [name, spoil, message] of cases) {
        await own.ctx.db.updateTable('files').set({ source_path: 'help/_files/a.txt' }).execute();
        await own.ctx.db.updateTable('sections').set({ source_path: 'help' }).execute();
        await spoil();
        await expect(exportFolder(own.ctx, target, { force: true }), name).rejects.toThrow(message);
        expect(readFolder(outside), name).toEqual(new Map());
        expect(fs.readdirSync(parent), name).toEqual(['export']);
      }
    } finally {
      await own.close();
    }
  });
});
