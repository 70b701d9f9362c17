import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminArticle, AdminCategory, AdminFileList } from '../../../shared/api/admin.ts';
import { writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { exportFolder } from './export-folder.ts';
import { importFolder } from './import-folder.ts';
import { adminAndUserTokens, caller, multipart, ok, PNG, type Call } from '../../testing/admin-content.ts';

describe.each(testDialects())('admin content and content folders on %s', (dialect) => {
  let t: TestApp;
  let as: Call;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    as = caller(t, (await adminAndUserTokens(t)).adminToken);
  });
  afterAll(async () => t?.close());

  it('exports an article written in the admin so that importing it gives the same HTML', async () => {
    const upload = multipart([
      { name: 'manual.pdf', content: '%PDF-1.4 manual' },
      { name: 'screen shot.png', content: PNG },
    ]);
    const [manual, screen] = (
      await ok<AdminFileList>(as('POST', '/api/admin/files', upload.payload, upload.headers), 201)
    ).items;
    const section = await ok<{ id: number }>(as('POST', '/api/admin/sections', { name: 'Guides' }), 201);
    const category = await ok<AdminCategory>(
      as('POST', '/api/admin/categories', {
        section_id: section.id,
        name: 'Setup',
        description: '<p>Everything about <strong>setting up</strong>.</p>\n\n<p>Second paragraph</p>',
      }),
      201,
    );
    const body = [
      '<h2>Steps</h2>',
      '<p>Text with *asterisks* and _underscores_ that are not Markdown.</p>',
      '<table><thead><tr><th>Setting</th><th>Value</th></tr></thead><tbody><tr><td>Mode</td><td>Auto</td></tr></tbody></table>',
      `<p><img src="${screen!.url}" alt="The screen"></p>`,
      '<p>See <a href="https://example.com/docs?a=1&amp;b=2" target="_blank">the docs</a> and ',
      `<a href="${manual!.url}">the manual</a>.</p>`,
      '<div class="callout callout-warning"><p>Careful:</p>\n\n<p>    indented text</p></div>',
      '<pre><code class="language-sh">lumo --version\n\n    lumo start</code></pre>',
    ].join('');
    const article = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', {
        section_id: section.id,
        category_id: category.id,
        title: 'Install the app',
        body_html: body,
        published: true,
        can_create_issue: true,
        noindex: true,
        file_ids: [manual!.id],
      }),
      201,
    );
    expect(article.noindex).toBe(true);
    expect(article.body_html).toContain('<table>');
    expect(article.body_html).toContain('class="callout callout-warning"');

    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-admin-export-'));
    await exportFolder(t.ctx, folder, { force: true });
    const exported = fs.readFileSync(path.join(folder, 'guides/setup/install-the-app.md'), 'utf8');
    expect(exported).toMatch(/^format: html$/m);
    expect(exported).toMatch(/^noindex: true$/m);
    expect(exported).not.toContain('/files/');

    const fresh = await createTestApp(dialect);
    try {
      await importFolder(fresh.ctx, folder);
      const imported = await fresh.ctx.db.selectFrom('articles').selectAll().executeTakeFirstOrThrow();
      expect(imported.body_html).toBe(article.body_html);
      expect(imported.body_source).toBeNull();
      expect(imported).toMatchObject({
        title: 'Install the app',
        published: 1,
        can_create_issue: 1,
        noindex: 1,
      });
      const importedCategory = await fresh.ctx.db
        .selectFrom('categories')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(importedCategory.description).toBe(category.description);

      // And back again: the second export is the same folder, but for the id (another database's, with its stamp).
      const again = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-admin-export-'));
      await exportFolder(fresh.ctx, again, { force: true });
      const withoutId = (text: string) => text.replace(/^id: .*\n/m, '');
      expect(withoutId(fs.readFileSync(path.join(again, 'guides/setup/install-the-app.md'), 'utf8'))).toBe(
        withoutId(exported),
      );
    } finally {
      await fresh.close();
    }
  });

  it('stores the same sanitised HTML for Markdown imported and for its rendering sent through the admin API', async () => {
    const markdown = [
      '## Pairing',
      '',
      'Press **A**, then [read more](https://example.com/more "More").',
      '',
      '| Key | Action |',
      '|---|---|',
      '| A | Pair |',
      '',
      '![Remote](https://example.com/remote.png)',
      '',
      '<div class="callout callout-tip" onclick="steal()">',
      '',
      'Keep it *close*.',
      '',
      '</div>',
      '',
      '<script>alert(1)</script>',
      '',
      '```sh',
      'pair --now',
      '```',
      '',
    ].join('\n');
    const folder = writeFolder({
      'remote/_section.md': '---\nname: Remote\n---\n',
      'remote/pairing.md': `---\ntitle: Pairing\n---\n${markdown}`,
    });
    await importFolder(t.ctx, folder);
    const imported = await t.ctx.db
      .selectFrom('articles')
      .selectAll()
      .where('source_path', '=', 'remote/pairing.md')
      .executeTakeFirstOrThrow();

    // The importer's own Markdown settings (src/server/features/content-folder/markdown.ts), without its sanitiser.
    const rendered = new MarkdownIt({ html: true, linkify: true, typographer: false }).render(markdown);
    expect(rendered).toContain('onclick');
    const viaApi = await ok<AdminArticle>(
      as('POST', '/api/admin/articles', {
        section_id: imported.section_id,
        title: 'Pairing',
        body_html: rendered,
      }),
      201,
    );
    expect(viaApi.body_html).toBe(imported.body_html);
    expect(viaApi.body_html).not.toMatch(/onclick|script/);
    expect((await ok<AdminArticle>(as('GET', `/api/admin/articles/${imported.id}`))).body_html).toBe(
      imported.body_html,
    );
  });
});
