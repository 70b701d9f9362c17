import type { Executor } from '../db/database.ts';
import type { ArticleRevisionRow, RevisionAction } from '../db/tables.ts';
import { chunks } from '../lib/chunks.ts';
import { attachedFiles } from './content.repository.ts';

export interface RevisionAuthor {
  id: number;
  name: string;
}

export interface RevisionInput {
  action: RevisionAction;
  /** Null for imports and the CLI. */
  author: RevisionAuthor | null;
  restoredFrom?: number | null;
  now?: number;
}

/**
 * Keeps the current state of each of these articles as its next revision. Called inside the transaction that
 * changed them, after every change (attachments included), so a revision is exactly what the save left behind.
 */
export async function recordRevisions(
  db: Executor,
  articleIds: number[],
  input: RevisionInput,
): Promise<void> {
  const now = input.now ?? Date.now();
  for (const ids of chunks([...new Set(articleIds)], 200)) {
    const [articles, files, numbers] = await Promise.all([
      db.selectFrom('articles').selectAll().where('id', 'in', ids).execute(),
      attachedFiles(db, ids),
      db
        .selectFrom('article_revisions')
        .select(['article_id', (eb) => eb.fn.max('number').as('number')])
        .where('article_id', 'in', ids)
        .groupBy('article_id')
        .execute(),
    ]);
    const last = new Map(numbers.map((row) => [row.article_id, Number(row.number)]));
    if (articles.length === 0) continue;
    await db
      .insertInto('article_revisions')
      .values(
        articles.map((article) => ({
          article_id: article.id,
          number: (last.get(article.id) ?? 0) + 1,
          user_id: input.author?.id ?? null,
          user_name: input.author?.name ?? null,
          action: input.action,
          title: article.title,
          body_html: article.body_html,
          published: article.published,
          can_create_issue: article.can_create_issue,
          lang: article.lang,
          section_id: article.section_id,
          category_id: article.category_id,
          file_ids: JSON.stringify(files.get(article.id) ?? []),
          restored_from: input.restoredFrom ?? null,
          created_at: now,
        })),
      )
      .execute();
  }
}

/** The id of the article's newest revision, or null when it has none (a row written outside the services). */
export async function newestRevisionId(db: Executor, articleId: number): Promise<number | null> {
  const row = await db
    .selectFrom('article_revisions')
    .select('id')
    .where('article_id', '=', articleId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

type RevisionSummaryRow = Omit<ArticleRevisionRow, 'body_html'>;

export function listRevisionSummaries(db: Executor, articleId: number): Promise<RevisionSummaryRow[]> {
  return db
    .selectFrom('article_revisions')
    .select([
      'id',
      'article_id',
      'number',
      'user_id',
      'user_name',
      'action',
      'title',
      'published',
      'can_create_issue',
      'lang',
      'section_id',
      'category_id',
      'file_ids',
      'restored_from',
      'created_at',
    ])
    .where('article_id', '=', articleId)
    .orderBy('number', 'desc')
    .execute();
}

export function findRevision(
  db: Executor,
  articleId: number,
  revisionId: number,
): Promise<ArticleRevisionRow | undefined> {
  return db
    .selectFrom('article_revisions')
    .selectAll()
    .where('article_id', '=', articleId)
    .where('id', '=', revisionId)
    .executeTakeFirst();
}
