import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { Language } from './settings.ts';
import {
  OPENED_SUGGESTIONS_MAX,
  SEARCH_REPORT_WEEKS_MAX,
  SEARCH_TEXT_MAX,
  SUGGESTIONS_LIMIT_MAX,
} from '../constants.ts';

export {
  OPENED_SUGGESTIONS_MAX,
  SEARCH_REPORT_WEEKS,
  SEARCH_REPORT_WEEKS_MAX,
  SEARCH_TEXT_MAX,
  SUGGESTIONS_LIMIT,
  SUGGESTIONS_LIMIT_MAX,
} from '../constants.ts';

export const SuggestionsQuery = Type.Object({
  text: Type.String({ maxLength: SEARCH_TEXT_MAX }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SUGGESTIONS_LIMIT_MAX })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: SUGGESTIONS_LIMIT_MAX })),
  lang: Type.Optional(Language),
});
export type SuggestionsQuery = Static<typeof SuggestionsQuery>;

export const Suggestion = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  lang: Language,
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  section_id: Type.Integer(),
  snippet: Type.String({ description: 'escaped text around the match, matched words in <mark>' }),
});
export type Suggestion = Static<typeof Suggestion>;

export const SuggestionList = Type.Object({ items: Type.Array(Suggestion) });
export type SuggestionList = Static<typeof SuggestionList>;

/**
 * What the web client reports: a search it showed (with how many results), a result the visitor opened, an article
 * suggested under a request form that the visitor opened, or a request sent after opening such articles (their ids).
 */
export const SearchEvent = Type.Union([
  Type.Object({
    type: Type.Literal('search'),
    query: Type.String({ maxLength: SEARCH_TEXT_MAX }),
    found: Type.Integer({ minimum: 0 }),
  }),
  Type.Object({
    type: Type.Literal('open'),
    query: Type.String({ maxLength: SEARCH_TEXT_MAX }),
    id: Id,
  }),
  Type.Object({
    type: Type.Literal('suggestion_open'),
    id: Id,
  }),
  Type.Object({
    type: Type.Literal('request_sent'),
    opened: Type.Array(Id, {
      minItems: 1,
      maxItems: OPENED_SUGGESTIONS_MAX,
      uniqueItems: true,
    }),
  }),
]);
export type SearchEvent = Static<typeof SearchEvent>;

export const SearchReportRow = Type.Object({
  query: Type.String(),
  searches: Type.Integer(),
  empty_results: Type.Integer(),
  opened: Type.Integer(),
  last_searched_at: Type.String({ description: 'ISO 8601' }),
});
export type SearchReportRow = Static<typeof SearchReportRow>;

/** An article readers said did not help, with its answers. */
export const UnhelpfulArticle = Type.Object({
  article_id: Type.Integer(),
  title: Type.String(),
  published: Type.Boolean(),
  yes: Type.Integer({ minimum: 0 }),
  no: Type.Integer({ minimum: 0 }),
});
export type UnhelpfulArticle = Static<typeof UnhelpfulArticle>;

export const AvoidedRequestsRow = Type.Object({
  article_id: Type.Integer(),
  title: Type.String(),
  published: Type.Boolean(),
  /** The ISO week, as 2025-W03. */
  week: Type.String(),
  /** Its Monday, YYYY-MM-DD (UTC). */
  week_start: Type.String(),
  /** Times the article was opened from the suggestions under a request form. */
  opened: Type.Integer({ minimum: 0 }),
  /** Times a request was sent after it had been opened so. */
  sent: Type.Integer({ minimum: 0 }),
  /** opened − sent (never below 0): requests the article made unnecessary. */
  avoided: Type.Integer({ minimum: 0 }),
});
export type AvoidedRequestsRow = Static<typeof AvoidedRequestsRow>;

export const SearchReport = Type.Object({
  /** The most frequent queries. */
  top: Type.Array(SearchReportRow),
  /** Queries that found nothing, most frequent first: the articles to write next. */
  unanswered: Type.Array(SearchReportRow),
  /** Queries that found articles but whose results nobody opened, most frequent first. */
  unopened: Type.Array(SearchReportRow),
  /** Articles readers answered "No" to "Was this helpful?", most "No" first. */
  unhelpful: Type.Array(UnhelpfulArticle),
  /** How many articles have any answer at all: 0 means nobody has rated an article yet. */
  rated_articles: Type.Integer({ minimum: 0 }),
  /** Suggested articles opened under request forms, per article and week, newest week first. */
  avoided: Type.Array(AvoidedRequestsRow),
  /** The weeks `avoided` covers, the current one included. */
  weeks: Type.Integer({ minimum: 1 }),
});
export type SearchReport = Static<typeof SearchReport>;

export const SearchReportQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_REPORT_WEEKS_MAX })),
});
