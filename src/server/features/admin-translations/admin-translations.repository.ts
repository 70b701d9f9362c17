import type { Executor } from '../../db/database.ts';

/** What the status page compares: every article's own text, drafts included. */
export function listArticleTexts(db: Executor) {
  return db
    .selectFrom('articles')
    .select(['id', 'title', 'body_html', 'lang', 'published'])
    .orderBy('section_id')
    .orderBy('category_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}
