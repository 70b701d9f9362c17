import type { AdminArticle, ArticleCreateBody, ArticleUpdateBody } from '../../../shared/api/admin.ts';
import type { Updateable } from 'kysely';
import type { Db, Executor, Tx } from '../../db/database.ts';
import type { ArticleRow, ArticleTable, RevisionAction } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { articleBodyScopes, touchContent, type ChangeScope } from '../../revisions/revision.repository.ts';
import {
  attachedFileRows,
  deleteArticles,
  findArticle,
  insertArticle,
  lockArticleRow,
  replaceAttachments,
  storedContentFileIds,
  writeArticle,
} from '../../content/content.repository.ts';
import { presentAdminArticle, revisionFileIds } from '../../content/admin.presenters.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { articleSummary } from '../../content/translation-summaries.ts';
import { cleanName, requireContentFiles } from '../../content/content-rules.ts';
import { closeGap, newItemContainer, placeAt } from '../../content/placement.ts';
import {
  findRevision,
  newestRevisionId,
  recordRevisions,
  type RevisionAuthor,
} from '../../content/article-revisions.repository.ts';

const flag = (value: boolean) => (value ? (1 as const) : (0 as const));

export async function getAdminArticle(db: Executor, id: number): Promise<AdminArticle> {
  const article = await findArticle(db, id);
  if (!article) throw notFound(`Article ${id}`);
  const [files, revision, translations] = await Promise.all([
    attachedFileRows(db, id),
    newestRevisionId(db, id),
    articleSummary(db, article),
  ]);
  return presentAdminArticle(article, files, revision, translations);
}

export async function createArticle(
  db: Db,
  body: ArticleCreateBody,
  author: RevisionAuthor,
): Promise<AdminArticle> {
  const title = cleanName(body.title, 'title');
  const bodyHtml = body.body_html === undefined ? '' : await cleanHtml(body.body_html, 'body_html');
  return db.transaction().execute(async (trx) => {
    const place = await newItemContainer(trx, body.section_id, body.category_id ?? null, 'category_id');
    const fileIds = body.file_ids ?? [];
    await requireContentFiles(trx, fileIds, 'file_ids');
    const now = Date.now();
    const articleId = await insertArticle(trx, {
      section_id: place.sectionId,
      category_id: place.categoryId,
      title,
      body_html: bodyHtml,
      body_source: null,
      lang: body.lang ?? null,
      can_create_issue: flag(body.can_create_issue ?? false),
      published: flag(body.published ?? false),
      visibility: body.visibility ?? 'everyone',
      noindex: flag(body.noindex ?? false),
      position: 1_000_000,
      source_path: null,
      created_at: now,
      updated_at: now,
    });
    await placeAt(trx, 'article', place.sectionId, place.categoryId, articleId, body.position, now);
    await replaceAttachments(trx, articleId, fileIds);
    await recordRevisions(trx, [articleId], { action: 'created', author, now });
    await touchContent(trx);
    return getAdminArticle(trx, articleId);
  });
}

/**
 * Takes the article's row lock for the rest of the transaction (a no-op write), so two saves of one article are
 * applied one after the other and the revision check below sees the other's revision.
 */
async function lockArticle(trx: Tx, id: number): Promise<ArticleRow> {
  const article = (await lockArticleRow(trx, id)) ? await findArticle(trx, id) : undefined;
  if (!article) throw notFound(`Article ${id}`);
  return article;
}

/** Rows written before revisions were kept (or by hand) get their current state as a first revision. */
async function ensureBaseline(trx: Tx, id: number): Promise<number | null> {
  const newest = await newestRevisionId(trx, id);
  if (newest === null) await recordRevisions(trx, [id], { action: 'imported', author: null });
  return newest;
}

async function saveChanges(
  trx: Tx,
  article: ArticleRow,
  changes: Updateable<ArticleTable>,
  fileIds: number[] | undefined,
  revision: { action: RevisionAction; author: RevisionAuthor; restoredFrom?: number },
): Promise<void> {
  const now = Date.now();
  await writeArticle(trx, article.id, { ...changes, updated_at: now });
  if (fileIds) await replaceAttachments(trx, article.id, fileIds);
  await recordRevisions(trx, [article.id], { ...revision, now });
  await touchContent(trx, changeScopes(article, changes));
}

/**
 * What visitors can see change: nothing while the article stays a draft; only its own page and call (and search)
 * when only its text or files change; anything else (title, publication, place, request form) shows on other pages.
 */
function changeScopes(article: ArticleRow, changes: Updateable<ArticleTable>): ChangeScope[] {
  if (article.published === 0 && changes.published === undefined) return ['draft'];
  const onlyText = Object.keys(changes).every((key) => key === 'body_html' || key === 'body_source');
  return onlyText ? articleBodyScopes(article.id) : ['*'];
}

/**
 * One save: edit, publish or unpublish. With base_revision_id, a save made over another one since is refused
 * (409 conflict) rather than silently replacing it. A save that changes nothing keeps no revision.
 */
export async function updateArticle(
  db: Db,
  id: number,
  body: ArticleUpdateBody,
  author: RevisionAuthor,
): Promise<AdminArticle> {
  const title = body.title === undefined ? undefined : cleanName(body.title, 'title');
  const bodyHtml = body.body_html === undefined ? undefined : await cleanHtml(body.body_html, 'body_html');
  return db.transaction().execute(async (trx) => {
    const article = await lockArticle(trx, id);
    const newest = await newestRevisionId(trx, id);
    if (body.base_revision_id !== undefined && body.base_revision_id !== newest) {
      throw new ApiError(
        409,
        'conflict',
        'Someone saved this article after you opened it; reload it to see their changes before saving yours',
        [{ field: 'base_revision_id', message: `is not the newest revision (${newest ?? 'none'})` }],
      );
    }
    if (body.file_ids) await requireContentFiles(trx, body.file_ids, 'file_ids');
    const changes: Updateable<ArticleTable> = {};
    if (title !== undefined && title !== article.title) changes.title = title;
    // The Markdown an import brought stays the source until the HTML itself changes.
    if (bodyHtml !== undefined && bodyHtml !== article.body_html) {
      changes.body_html = bodyHtml;
      changes.body_source = null;
    }
    if (body.published !== undefined && flag(body.published) !== article.published) {
      changes.published = flag(body.published);
    }
    if (body.can_create_issue !== undefined && flag(body.can_create_issue) !== article.can_create_issue) {
      changes.can_create_issue = flag(body.can_create_issue);
    }
    if (body.lang !== undefined && body.lang !== article.lang) changes.lang = body.lang;
    if (body.visibility !== undefined && body.visibility !== article.visibility)
      changes.visibility = body.visibility;
    if (body.noindex !== undefined && flag(body.noindex) !== article.noindex)
      changes.noindex = flag(body.noindex);
    const current = (await attachedFileRows(trx, id)).map((f) => f.id);
    const fileIds = body.file_ids && body.file_ids.join() !== current.join() ? body.file_ids : undefined;
    if (Object.keys(changes).length === 0 && !fileIds) return getAdminArticle(trx, id);

    await ensureBaseline(trx, id);
    const action: RevisionAction =
      changes.published === 1 ? 'published' : changes.published === 0 ? 'unpublished' : 'edited';
    await saveChanges(trx, article, changes, fileIds, { action, author });
    return getAdminArticle(trx, id);
  });
}

export async function deleteArticle(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const article = await findArticle(trx, id);
    if (!article) throw notFound(`Article ${id}`);
    // Its revisions and attachment links go with it (foreign keys cascade); the files themselves stay.
    await deleteArticles(trx, [id]);
    await closeGap(trx, 'article', article.section_id, article.category_id, Date.now());
    await touchContent(trx);
  });
}

/**
 * Brings back an older revision's text: title, body, language, whether visitors may open a request, attachments
 * (those still stored). Publication and place stay as they are now: restoring the words of a live article does not
 * take it offline, nor does it publish a draft. The result is a new revision that names the one restored.
 */
export async function restoreRevision(
  db: Db,
  id: number,
  revisionId: number,
  author: RevisionAuthor,
): Promise<AdminArticle> {
  const revision = await findRevision(db, id, revisionId);
  if (!revision) throw notFound(`Revision ${revisionId} of article ${id}`);
  // A revision keeps the body as it was cleaned then; the sanitiser may have been tightened since, and a restored
  // body is published like any other. Cleaned before the transaction (revisions never change), so a large body
  // goes to the worker without the article's lock held meanwhile.
  const bodyHtml = await cleanHtml(revision.body_html, 'body_html');
  return db.transaction().execute(async (trx) => {
    const article = await lockArticle(trx, id);
    const wanted = revisionFileIds(revision);
    const stored = wanted.length ? new Set(await storedContentFileIds(trx, wanted)) : new Set<number>();
    const changes: Updateable<ArticleTable> = {
      title: revision.title,
      can_create_issue: revision.can_create_issue,
      lang: revision.lang,
    };
    if (bodyHtml !== article.body_html) {
      changes.body_html = bodyHtml;
      changes.body_source = null;
    }
    await ensureBaseline(trx, id);
    await saveChanges(
      trx,
      article,
      changes,
      wanted.filter((fileId) => stored.has(fileId)),
      { action: 'restored', author, restoredFrom: revision.id },
    );
    return getAdminArticle(trx, id);
  });
}
