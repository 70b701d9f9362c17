import { diffLines, diffWords, type ChangeObject } from 'diff';
import type { DiffPart, Revision, RevisionDiff, RevisionList } from '../../../shared/api/admin.ts';
import type { Executor } from '../../db/database.ts';
import type { ArticleRevisionRow } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { findArticle } from '../../content/content.repository.ts';
import { presentRevision, presentRevisionSummary, revisionFileIds } from '../../content/admin.presenters.ts';
import { findRevision, listRevisionSummaries } from '../../content/article-revisions.repository.ts';

/** A line diff of two 1 MiB bodies can take long; past this it answers "all removed, all added". */
const BODY_DIFF_TIMEOUT_MS = 2_000;

const BLOCK_TAG =
  /(<\/?(?:address|article|aside|blockquote|br|caption|col|colgroup|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|iframe|img|li|ol|p|picture|pre|section|source|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>)/gi;

/** Each block-level tag on a line of its own, so a line diff follows the document's structure. */
export function blockLines(html: string): string {
  return html
    .replace(BLOCK_TAG, '\n$1\n')
    .replace(/\n[ \t]*(?=\n)/g, '')
    .replace(/\n{2,}/g, '\n')
    .replace(/^\n+|\n+$/g, '');
}

const toParts = (changes: ChangeObject<string>[]): DiffPart[] =>
  changes
    .filter((change) => change.value !== '')
    .map((change) => ({
      op: change.added ? 'insert' : change.removed ? 'delete' : 'equal',
      text: change.value,
    }));

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
  const body =
    diffLines(blockLines(from.body_html), blockLines(to.body_html), { timeout: BODY_DIFF_TIMEOUT_MS }) ??
    ([
      { value: blockLines(from.body_html), removed: true, added: false, count: 1 },
      { value: blockLines(to.body_html), removed: false, added: true, count: 1 },
    ] satisfies ChangeObject<string>[]);
  const fields: RevisionDiff['fields'] = {};
  for (const key of COMPARED) {
    const a = comparable(from, key);
    const b = comparable(to, key);
    if (JSON.stringify(a) !== JSON.stringify(b)) fields[key] = { from: a, to: b };
  }
  return {
    from: presentRevisionSummary(from),
    to: presentRevisionSummary(to),
    title: toParts(diffWords(from.title, to.title)),
    body: toParts(body),
    fields,
  };
}
