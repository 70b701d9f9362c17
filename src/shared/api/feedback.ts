import { Type, type Static } from 'typebox';
import { Id, PageMeta, PageNumber } from './common.ts';
import { FEEDBACK_COMMENT_MAX, FEEDBACK_REASONS } from '../feedback.ts';

export { FEEDBACK_COMMENT_MAX, FEEDBACK_MIN_VOTES, FEEDBACK_REASONS } from '../feedback.ts';

export const FeedbackReasonSchema = Type.Enum(FEEDBACK_REASONS);

export const FeedbackParams = Type.Object({ id: Id });

/**
 * A visitor's answer to "Was this helpful?" on one article. Sent again the same day, it replaces that visitor's
 * answer (a reason and a comment usually follow the yes or no in a second call).
 */
export const FeedbackBody = Type.Object({
  helpful: Type.Boolean(),
  reason: Type.Optional(FeedbackReasonSchema),
  comment: Type.Optional(Type.String({ maxLength: FEEDBACK_COMMENT_MAX })),
});
export type FeedbackBody = Static<typeof FeedbackBody>;

/** The answer as kept: the comment with email addresses and long numbers masked, or null. */
export const FeedbackAnswer = Type.Object({
  helpful: Type.Boolean(),
  reason: Type.Union([FeedbackReasonSchema, Type.Null()]),
  comment: Type.Union([Type.String(), Type.Null()]),
});
export type FeedbackAnswer = Static<typeof FeedbackAnswer>;

export const FeedbackReportQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type FeedbackReportQuery = Static<typeof FeedbackReportQuery>;

export const FeedbackReasonCount = Type.Object({ reason: FeedbackReasonSchema, count: Type.Integer() });

export const FeedbackComment = Type.Object({
  helpful: Type.Boolean(),
  reason: Type.Union([FeedbackReasonSchema, Type.Null()]),
  comment: Type.String(),
  /** The day it was last changed (YYYY-MM-DD, UTC): no finer time is shown next to what a visitor wrote. */
  day: Type.String(),
});
export type FeedbackComment = Static<typeof FeedbackComment>;

export const FeedbackReportRow = Type.Object({
  article_id: Type.Integer(),
  title: Type.String(),
  published: Type.Boolean(),
  yes: Type.Integer({ minimum: 0 }),
  no: Type.Integer({ minimum: 0 }),
  /** yes / (yes + no), from 0 to 1. */
  helpful_share: Type.Number({ minimum: 0, maximum: 1 }),
  /** Whether yes + no reaches `min_votes`, so the share is ranked as such. */
  enough_votes: Type.Boolean(),
  /** Each reason given, most often first. */
  reasons: Type.Array(FeedbackReasonCount),
  /** The newest comments (up to five), newest first. */
  comments: Type.Array(FeedbackComment),
});
export type FeedbackReportRow = Static<typeof FeedbackReportRow>;

/**
 * Articles with answers, worst first: those with at least `min_votes` answers by their share of "yes" (lowest
 * first), then by their "no" count; then those with fewer answers, by their "no" count.
 */
export const FeedbackReport = Type.Object({
  items: Type.Array(FeedbackReportRow),
  _meta: PageMeta,
  min_votes: Type.Integer(),
});
export type FeedbackReport = Static<typeof FeedbackReport>;
