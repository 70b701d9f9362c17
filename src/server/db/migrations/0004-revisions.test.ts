import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';

describe.each(testDialects())('migration 0004-revisions on %s', (dialect) => {
  it('keeps every existing article, with its attachments, as its first revision', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0003-search-queries');
    try {
      const db = handle.db;
      const now = Date.now();
      const section = await db
        .insertInto('sections')
        .values({ name: 'S', position: 0, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const article = await db
        .insertInto('articles')
        .values({
          section_id: section.id,
          title: 'Before revisions',
          body_html: '<p>old</p>',
          can_create_issue: 1,
          published: 0,
          position: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const files = [];
      for (const name of ['b.pdf', 'a.pdf']) {
        files.push(
          await db
            .insertInto('files')
            .values({
              storage_key: 'k',
              original_name: name,
              mime_type: 'x',
              size: 1,
              kind: 'content',
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        );
      }
      await db
        .insertInto('article_files')
        .values(files.map((f, position) => ({ article_id: article.id, file_id: f.id, position })))
        .execute();

      await migrateToLatest(handle);
      const revisions = await db.selectFrom('article_revisions').selectAll().execute();
      expect(revisions).toEqual([
        expect.objectContaining({
          article_id: article.id,
          number: 1,
          action: 'imported',
          user_id: null,
          title: 'Before revisions',
          body_html: '<p>old</p>',
          published: 0,
          can_create_issue: 1,
          section_id: section.id,
          category_id: null,
          file_ids: JSON.stringify(files.map((f) => f.id)),
          restored_from: null,
        }),
      ]);
      expect(Number(revisions[0]?.created_at)).toBeGreaterThanOrEqual(now);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
