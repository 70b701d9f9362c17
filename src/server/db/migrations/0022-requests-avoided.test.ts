import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';

describe.each(testDialects())('migration 0022-requests-avoided on %s', (dialect) => {
  it('keeps one row per article and week, and drops the rows with their article', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0020-article-noindex');
    try {
      const now = 1_700_000_000_000;
      await sql`insert into sections (name, position, created_at, updated_at)
        values ('S', 0, ${now}, ${now})`.execute(handle.db);
      await sql`insert into articles (section_id, title, body_html, can_create_issue, published, position,
        created_at, updated_at) select id, 'A', '', 0, 1, 0, ${now}, ${now} from sections`.execute(handle.db);

      await migrateToLatest(handle);
      const article = await handle.db.selectFrom('articles').select('id').executeTakeFirstOrThrow();
      const row = { article_id: article.id, week: '2025-01-13', opened: 2, sent: 1 };
      await handle.db.insertInto('requests_avoided').values(row).execute();
      const second = await handle.db
        .insertInto('requests_avoided')
        .values(row)
        .execute()
        .then(
          () => 'stored',
          () => 'refused',
        );
      expect(second).toBe('refused');
      await handle.db
        .insertInto('requests_avoided')
        .values({ ...row, week: '2025-01-20' })
        .execute();

      await handle.db.deleteFrom('articles').where('id', '=', article.id).execute();
      expect(await handle.db.selectFrom('requests_avoided').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
