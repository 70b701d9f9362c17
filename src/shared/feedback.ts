/**
 * "Was this helpful?": the reasons a visitor may give with each answer, and the bounds of the answer. Plain data, so
 * the browser reads the lists without the schema library; the API's schema (api/feedback.ts) is built from them.
 */
export const HELPFUL_REASONS = ['answered', 'easy_to_understand', 'complete'] as const;
export const UNHELPFUL_REASONS = ['not_answered', 'hard_to_understand', 'out_of_date', 'missing'] as const;
export const FEEDBACK_REASONS = [...HELPFUL_REASONS, ...UNHELPFUL_REASONS] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

/** The reasons that go with an answer: a "no" reason given with "yes" is refused (400 naming `reason`). */
export const reasonsFor = (helpful: boolean): readonly FeedbackReason[] =>
  helpful ? HELPFUL_REASONS : UNHELPFUL_REASONS;

/** A comment's length, in characters, as sent and as stored. */
export const FEEDBACK_COMMENT_MAX = 1000;

/** Below this many answers an article's share of "yes" says little: the report ranks it after those above. */
export const FEEDBACK_MIN_VOTES = 5;
