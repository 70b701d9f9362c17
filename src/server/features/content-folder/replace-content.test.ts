import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from '../../testing/admin-content.ts';
import { buildArticle, buildFile, buildSection } from '../../testing/factories.ts';
import { writeFolder } from '../../testing/folder.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { getStoredBranding, updateBranding } from '../../settings/branding.ts';
import { seedDemo } from './demo.service.ts';
import { importFolder } from './import-folder.ts';
import { FolderErrors } from './read-folder.ts';

const ownFolder = () =>
  writeFolder({
    // The demo has this article too: it is updated in place and keeps its id.
    'getting-started/_section.md': '---\nname: Start here\n---\n',
    'getting-started/welcome-to-lumo.md':
      '---\ntitle: Welcome to Acme\n---\nSee [install](setup/install.md).\n',
    'getting-started/setup/install.md':
      '---\ntitle: Install\nfiles:\n  - _files/manual.pdf\n---\n![Screen](_images/screen.png)\n',
    'getting-started/setup/_files/manual.pdf': '%PDF-1.4 manual',
    'getting-started/setup/_images/screen.png': PNG,
    'billing/refunds.md': '---\ntitle: Refunds\n---\nWithin 30 days.\n',
  });

async function contentPaths(t: TestApp) {
  const { db } = t.ctx;
  const paths = async (table: 'sections' | 'categories' | 'articles') =>
    (await db.selectFrom(table).select('source_path').execute()).map((row) => row.source_path).sort();
  return {
    sections: await paths('sections'),
    categories: await paths('categories'),
    articles: await paths('articles'),
    files: (await db.selectFrom('files').select('source_path').where('kind', '=', 'content').execute())
      .map((row) => row.source_path ?? '(none)')
      .sort(),
  };
}

describe.each(testDialects())('replacing the whole content with a folder on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('leaves exactly the folder: the demo, what the admin wrote and its files go; the logo and its own ids stay', async () => {
    await seedDemo(t.ctx);
    const { db } = t.ctx;
    const welcome = await db
      .selectFrom('articles')
      .select('id')
      .where('source_path', '=', 'getting-started/welcome-to-lumo.md')
      .executeTakeFirstOrThrow();
    // Written in the admin: inside a demo category, and in a section of its own with an attached file.
    const demoCategory = await db
      .selectFrom('categories')
      .select('id')
      .where('source_path', 'is not', null)
      .executeTakeFirstOrThrow();
    await buildArticle(db, { title: 'Our own notes', category_id: demoCategory.id });
    const section = await buildSection(db, { name: 'Written here' });
    const written = await buildArticle(db, { title: 'Written in the admin', section_id: section.id });
    await buildFile(t.ctx, { name: 'notes.txt', content: 'notes', articleId: written.id });
    const logo = await buildFile(t.ctx, { name: 'logo.png', content: PNG });
    await updateBranding(db, { logo_url: `/files/${logo.id}/logo.png` });

    const broken = writeFolder({ 'a/b.md': '---\ntitle: [broken\n---\n' });
    const before = await contentPaths(t);
    const refused = await importFolder(t.ctx, broken, { replace: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FolderErrors);
    expect(await contentPaths(t)).toEqual(before);

    const summary = await importFolder(t.ctx, ownFolder(), { replace: true });
    expect(await contentPaths(t)).toEqual({
      sections: ['billing', 'getting-started'],
      categories: ['getting-started/setup'],
      articles: [
        'billing/refunds.md',
        'getting-started/setup/install.md',
        'getting-started/welcome-to-lumo.md',
      ],
      files: [
        '(none)',
        'getting-started/setup/_files/manual.pdf',
        'getting-started/setup/_images/screen.png',
      ],
    });
    expect(summary.articles).toMatchObject({ created: 2, updated: 1 });
    expect(summary.articles.deleted).toBeGreaterThanOrEqual(40);
    expect(summary.deletedWritten.sort()).toEqual(['Our own notes', 'Written in the admin']);
    expect(summary.notes.join('\n')).toContain('site_title "Lumo Help Centre" (the demo\'s) cleared');
    expect(summary.notes.join('\n')).toContain('portal_enabled stays true');

    // Where paths match, ids stay, so links to the article keep working.
    const kept = await db
      .selectFrom('articles')
      .select(['id', 'title'])
      .where('source_path', '=', 'getting-started/welcome-to-lumo.md')
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ id: welcome.id, title: 'Welcome to Acme' });
    const branding = await getStoredBranding(db);
    expect(branding).toMatchObject({ site_title: '', logo_url: `/files/${logo.id}/logo.png` });
    expect((await t.app.inject(`/files/${logo.id}/logo.png`)).statusCode).toBe(200);

    // Visitors see the folder and nothing else.
    const sections = (await t.app.inject('/api/knowledge/all-sections')).json() as { name: string }[];
    expect(sections.map((s) => s.name).sort()).toEqual(['Billing', 'Start here']);
    const articles = (await t.app.inject('/api/knowledge/instruction')).json().items as { title: string }[];
    expect(articles.map((a) => a.title).sort()).toEqual(['Install', 'Refunds', 'Welcome to Acme']);

    // Again: nothing left to remove, and a site title of the operator's own is theirs.
    await updateBranding(db, { site_title: 'Acme Help' });
    const again = await importFolder(t.ctx, ownFolder(), { replace: true });
    expect(again.articles).toMatchObject({ created: 0, deleted: 0 });
    expect(again.notes).toEqual([]);
    expect((await getStoredBranding(db)).site_title).toBe('Acme Help');
  });
});
