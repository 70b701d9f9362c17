import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';

describe.each(testDialects())('migration 0019-article-feedback on %s', (dialect) => {
  it('keeps one answer per key, only yes or no, and drops the answers with their article', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0018-default-titles');
    try {
      const now = 1_700_000_000_000;
      await sql`insert into sections (name, position, created_at, updated_at)
        values ('S', 0, ${now}, ${now})`.execute(handle.db);
      await sql`insert into articles (section_id, title, body_html, can_create_issue, published, position,
        created_at, updated_at) select id, 'A', '', 0, 1, 0, ${now}, ${now} from sections`.execute(handle.db);

      await migrateToLatest(handle);
      const article = await handle.db.selectFrom('articles').select('id').executeTakeFirstOrThrow();
      const row = (key: string, helpful: number) => ({
        article_id: article.id,
        visitor_key: key,
        helpful: helpful as 0 | 1,
        reason: null,
        comment: null,
        created_at: now,
        updated_at: now,
      });
      await handle.db.insertInto('article_feedback').values(row('a', 1)).execute();
      const refused = (promise: Promise<unknown>) =>
        promise.then(
          () => 'stored',
          () => 'refused',
        );
      expect(await refused(handle.db.insertInto('article_feedback').values(row('a', 0)).execute())).toBe(
        'refused',
      );
      expect(
        await refused(
          handle.db
            .insertInto('article_feedback')
            .values(row('b', 2 as 1))
            .execute(),
        ),
      ).toBe('refused');
      await handle.db.insertInto('feedback_salts').values({ day: '2024-01-01', salt: 'x' }).execute();

      await handle.db.deleteFrom('articles').where('id', '=', article.id).execute();
      expect(await handle.db.selectFrom('article_feedback').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
