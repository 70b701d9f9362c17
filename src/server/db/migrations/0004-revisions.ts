import { sql, type Kysely } from 'kysely';
import { type Dialect, idColumn, timeType } from '../schema-helpers.ts';

/**
 * Every save of an article keeps a full copy, so an admin can see who changed what and go back. The author is kept
 * by id and by name without a foreign key: deleting a user leaves the history readable.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema
      .createTable('article_revisions')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('user_name', 'varchar(255)')
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('title', 'varchar(500)', (c) => c.notNull())
      .addColumn('body_html', 'text', (c) => c.notNull())
      .addColumn('published', 'integer', (c) => c.notNull())
      .addColumn('can_create_issue', 'integer', (c) => c.notNull())
      .addColumn('lang', 'varchar(16)')
      .addColumn('section_id', 'integer', (c) => c.notNull())
      .addColumn('category_id', 'integer')
      .addColumn('file_ids', 'text', (c) => c.notNull())
      .addColumn('restored_from', 'integer')
      .addColumn('created_at', time, (c) => c.notNull())
      .addUniqueConstraint('article_revisions_number', ['article_id', 'number'])
      .execute();

    // What was there before revisions were kept becomes each article's first revision.
    const now = Date.now();
    await sql`
      insert into article_revisions
        (article_id, number, action, title, body_html, published, can_create_issue, lang, section_id, category_id,
         file_ids, created_at)
      select id, 1, 'imported', title, body_html, published, can_create_issue, lang, section_id, category_id,
        '[]', cast(${now} as bigint)
      from articles
    `.execute(db);
    const links = await sql<{ article_id: number; file_id: number }>`
      select article_id, file_id from article_files order by article_id, position
    `.execute(db);
    const byArticle = new Map<number, number[]>();
    for (const { article_id, file_id } of links.rows) {
      byArticle.set(Number(article_id), [...(byArticle.get(Number(article_id)) ?? []), Number(file_id)]);
    }
    for (const [articleId, fileIds] of byArticle) {
      await sql`update article_revisions set file_ids = ${JSON.stringify(fileIds)} where article_id = ${articleId}`.execute(
        db,
      );
    }
  };
}
