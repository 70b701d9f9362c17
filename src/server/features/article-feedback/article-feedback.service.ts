import type {
  FeedbackAnswer,
  FeedbackBody,
  FeedbackReport,
  FeedbackReportQuery,
  FeedbackReportRow,
} from '../../../shared/api/feedback.ts';
import {
  FEEDBACK_COMMENT_MAX,
  FEEDBACK_MIN_VOTES,
  reasonsFor,
  type FeedbackReason,
} from '../../../shared/feedback.ts';
import type { Executor } from '../../db/database.ts';
import { listAllCategories, listAllSections, findArticle } from '../../content/content.repository.ts';
import { restrictionsOf, type Audience } from '../../content/visibility.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { dailyClientKey, dayOf } from '../../privacy/daily-key.ts';
import {
  countArticlesWithFeedback,
  countReasons,
  pageFeedbackTotals,
  recentComments,
  saveFeedback,
} from './article-feedback.repository.ts';

const REPORT_PAGE_SIZE = 20;
const COMMENTS_PER_ARTICLE = 5;

/** Who answered, as far as the count needs: one key per client address, article and day. */
const visitorKey = (db: Executor, client: string, articleId: number, now: number) =>
  dailyClientKey(db, client, String(articleId), now);

// Bidirectional overrides and isolates reorder what the team reads; other controls are not text.
const CONTROLS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
// An address up to its last letter or digit: a sentence's full stop after it stays.
const EMAILS = /[^\s@]+@[^\s@]*[^\s@.,;:!?)\]'"]/gu;
// Six or more digits, as phone, card, order and account numbers are written: spaced, dashed, dotted, bracketed.
const LONG_NUMBERS = /\+?\p{Nd}(?:[ \u00a0\-./()]{0,2}\p{Nd}){5,}/gu;

/**
 * A visitor's comment as it may be kept: plain lines without control characters, email addresses and numbers of six
 * or more digits masked (so nothing a person could be found by is stored), at most FEEDBACK_COMMENT_MAX characters;
 * null when nothing is left.
 */
export function cleanComment(comment: string | undefined): string | null {
  if (comment === undefined) return null;
  const text = comment
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, (char) => (char === '\n' ? '\n' : ''))
    .replace(EMAILS, '[email]')
    .replace(LONG_NUMBERS, '[number]')
    .replace(/[ \u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text ? Array.from(text).slice(0, FEEDBACK_COMMENT_MAX).join('').trim() : null;
}

/**
 * What is for signed-in visitors: 401, as reading it answers (the widget sits on its page only for one who may read
 * it).
 */
const signInRequired = (id: number) =>
  new ApiError(
    401,
    'sign_in_required',
    `Article ${id} is for signed-in visitors with a confirmed email; sign in to read it`,
  );

/** Answers the article when this reader may read it: published and, if restricted, read by a signed-in visitor. */
async function requireReadableArticle(db: Executor, id: number, audience: Audience) {
  const article = await findArticle(db, id);
  if (!article || article.published !== 1) throw notFound(`Article ${id}`);
  const [sections, categories] = await Promise.all([listAllSections(db), listAllCategories(db)]);
  if (restrictionsOf(sections, categories).article(article) && audience === 'everyone')
    throw signInRequired(id);
  return article;
}

export interface Visitor {
  /** The client's address as the rate limits count it (an IPv6 client by its /64). */
  client: string;
  audience: Audience;
}

/**
 * Keeps a visitor's answer to "Was this helpful?": one per client address, article and day, replaced by a later
 * answer that day (yes becomes no; a reason and a comment follow), never a second vote.
 */
export async function answerFeedback(
  db: Executor,
  articleId: number,
  body: FeedbackBody,
  visitor: Visitor,
  now = Date.now(),
): Promise<FeedbackAnswer> {
  await requireReadableArticle(db, articleId, visitor.audience);
  const reason: FeedbackReason | null = body.reason ?? null;
  if (reason !== null && !reasonsFor(body.helpful).includes(reason)) {
    throw badRequest(
      'reason',
      `must be one of ${reasonsFor(body.helpful).join(', ')} when helpful is ${body.helpful}`,
    );
  }
  const comment = cleanComment(body.comment);
  const visitor_key = await visitorKey(db, visitor.client, articleId, now);
  await saveFeedback(
    db,
    { article_id: articleId, visitor_key, helpful: body.helpful ? 1 : 0, reason, comment },
    now,
  );
  return { helpful: body.helpful, reason, comment };
}

const asReason = (reason: string | null) => reason as FeedbackReason | null;

export async function feedbackReport(db: Executor, query: FeedbackReportQuery): Promise<FeedbackReport> {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? REPORT_PAGE_SIZE;
  const [totalCount, totals] = await Promise.all([
    countArticlesWithFeedback(db),
    pageFeedbackTotals(db, FEEDBACK_MIN_VOTES, perPage, (page - 1) * perPage),
  ]);
  const ids = totals.map((row) => row.article_id);
  const [reasons, comments] = await Promise.all([
    countReasons(db, ids),
    recentComments(db, ids, COMMENTS_PER_ARTICLE),
  ]);
  const items = totals.map((row): FeedbackReportRow => ({
    article_id: row.article_id,
    title: row.title,
    published: row.published === 1,
    yes: row.yes,
    no: row.total - row.yes,
    helpful_share: row.total ? row.yes / row.total : 0,
    enough_votes: row.total >= FEEDBACK_MIN_VOTES,
    reasons: reasons
      .filter((r) => r.article_id === row.article_id)
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
      .map((r) => ({ reason: r.reason as FeedbackReason, count: r.count })),
    comments: comments
      .filter((c) => c.article_id === row.article_id)
      .map((c) => ({
        helpful: c.helpful === 1,
        reason: asReason(c.reason),
        comment: c.comment ?? '',
        day: dayOf(Number(c.updated_at)),
      })),
  }));
  return {
    items,
    _meta: { pageCount: Math.ceil(totalCount / perPage), totalCount, currentPage: page, perPage },
    min_votes: FEEDBACK_MIN_VOTES,
  };
}
