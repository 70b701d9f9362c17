import type { Revision, RevisionDiff, RevisionList } from '../../../shared/api/admin.ts';
import type { Executor } from '../../db/database.ts';
import type { ArticleRevisionRow } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { findArticle } from '../../content/content.repository.ts';
import { presentRevision, presentRevisionSummary, revisionFileIds } from '../../content/admin.presenters.ts';
import { findRevision, listRevisionSummaries } from '../../content/article-revisions.repository.ts';
import { diffHtml, diffText } from '../../content/text-diff.ts';

export { blockLines } from '../../content/text-diff.ts';

export async function listRevisions(db: Executor, articleId: number): Promise<RevisionList> {
  if (!(await findArticle(db, articleId))) throw notFound(`Article ${articleId}`);
  return { items: (await listRevisionSummaries(db, articleId)).map(presentRevisionSummary) };
}

async function requireRevision(db: Executor, articleId: number, revisionId: number, field?: string) {
  const revision = await findRevision(db, articleId, revisionId);
  if (revision) return revision;
  if (!(await findArticle(db, articleId))) throw notFound(`Article ${articleId}`);
  throw new ApiError(
    404,
    'not_found',
    `Revision ${revisionId} of article ${articleId} was not found`,
    field ? [{ field, message: 'is not a revision of this article' }] : [],
  );
}

export async function getRevision(db: Executor, articleId: number, revisionId: number): Promise<Revision> {
  return presentRevision(await requireRevision(db, articleId, revisionId));
}

const COMPARED = ['published', 'can_create_issue', 'lang', 'section_id', 'category_id', 'file_ids'] as const;

function comparable(revision: ArticleRevisionRow, key: (typeof COMPARED)[number]): unknown {
  if (key === 'published' || key === 'can_create_issue') return revision[key] === 1;
  if (key === 'file_ids') return revisionFileIds(revision);
  return revision[key];
}

export async function diffRevisions(
  db: Executor,
  articleId: number,
  fromId: number,
  toId: number,
): Promise<RevisionDiff> {
  const [from, to] = await Promise.all([
    requireRevision(db, articleId, fromId, 'from'),
    requireRevision(db, articleId, toId, 'to'),
  ]);
  const fields: RevisionDiff['fields'] = {};
  for (const key of COMPARED) {
    const a = comparable(from, key);
    const b = comparable(to, key);
    if (JSON.stringify(a) !== JSON.stringify(b)) fields[key] = { from: a, to: b };
  }
  return {
    from: presentRevisionSummary(from),
    to: presentRevisionSummary(to),
    title: diffText(from.title, to.title),
    body: diffHtml(from.body_html, to.body_html),
    fields,
  };
}
