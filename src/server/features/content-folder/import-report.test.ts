import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { importFolder } from './import-folder.ts';
import { FolderErrors } from './read-folder.ts';

const LATIN1 = Buffer.from('---\ntitle: Caf\xe9\n---\n', 'latin1');

async function rowCounts(t: TestApp) {
  const count = async (table: 'sections' | 'categories' | 'articles' | 'files') =>
    (await t.ctx.db.selectFrom(table).select('id').execute()).length;
  return {
    sections: await count('sections'),
    categories: await count('categories'),
    articles: await count('articles'),
    files: await count('files'),
  };
}

describe.each(testDialects())('what an import reports on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('reports every problem of every file at once, and changes nothing', async () => {
    await importFolder(t.ctx, writeFolder({ 'kept/first.md': '---\ntitle: First\n---\nHello.\n' }));
    const before = await rowCounts(t);
    const folder = writeFolder({
      'guides/_section.md': '---\nname: Guides\nposition: first\n---\n',
      'guides/install.md': [
        '---',
        'tittle: Install',
        'published: maybe',
        'lang: xx',
        'files:',
        '  - _files/missing.pdf',
        '  - ../../etc/passwd',
        '---',
        '![Screen](_images/missing.png)',
        '',
      ].join('\n'),
      'guides/setup/_category.md':
        '---\nicon: _images/none.png\nfont_icon: fa-solid fa-wrench\nvisibility: all\n---\n',
      'guides/setup/tune.md': '---\nposition: 1.5\nformat: rst\n---\n',
      'guides/setup/latin.md': LATIN1,
      'guides/fine.md': '---\ntitle: Fine\n---\nok\n',
    });
    const error = await importFolder(t.ctx, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderErrors);
    expect((error as FolderErrors).errors.map((e) => e.message)).toEqual([
      'guides/_section.md: position must be a whole number, not "first"',
      expect.stringMatching(/^guides\/install\.md: unknown front matter key "tittle" \(allowed: title, /),
      'guides/install.md: attachment "_files/missing.pdf" does not exist',
      'guides/install.md: attachment "../../etc/passwd" points outside the content folder',
      'guides/install.md: lang must be one of en, ru, pt-BR, it, sk',
      'guides/install.md: published must be true or false, not "maybe"',
      'guides/install.md: image "_images/missing.png" does not exist',
      'guides/setup/_category.md: give either icon or font_icon, not both',
      'guides/setup/_category.md: icon "_images/none.png" does not exist',
      'guides/setup/_category.md: visibility must be one of everyone, signed_in',
      'guides/setup/latin.md: is not valid UTF-8 text (save it as UTF-8)',
      'guides/setup/tune.md: format must be markdown or html',
      'guides/setup/tune.md: position must be a whole number, not 1.5',
    ]);
    expect((error as Error).message).toMatch(/^the folder has 13 problems:\n {2}guides\/_section\.md: /);
    expect(await rowCounts(t)).toEqual(before);
  });

  it('warns about links to articles the folder does not have, and imports all the same', async () => {
    const folder = writeFolder({
      'billing/refunds.md':
        '---\ntitle: Refunds\n---\nSee [plans](plans.md) and [the old page](../billing/missing.md).\n',
      'billing/plans.md':
        '---\ntitle: Plans\n---\nBack to [refunds](refunds.md#how), or [away](../../outside.md).\n',
      'billing/raw.md':
        '---\ntitle: Raw\nformat: html\n---\n<p><a href="gone/article.md">gone</a> <a href="plans.md">plans</a></p>\n',
    });
    const summary = await importFolder(t.ctx, folder);
    expect(summary.articles.created).toBe(3);
    expect(summary.warnings.sort()).toEqual([
      'billing/plans.md: link "../../outside.md" leads to no article in the folder; it is kept as written',
      'billing/raw.md: link "gone/article.md" leads to no article in the folder; it is kept as written',
      'billing/refunds.md: link "../billing/missing.md" leads to no article in the folder; it is kept as written',
    ]);
    const refunds = await t.ctx.db
      .selectFrom('articles')
      .select('body_html')
      .where('source_path', '=', 'billing/refunds.md')
      .executeTakeFirstOrThrow();
    expect(refunds.body_html).toMatch(/href="\/knowledge\/instruction\/\d+"/);
    expect(refunds.body_html).toContain('href="../billing/missing.md"');
  });
});
