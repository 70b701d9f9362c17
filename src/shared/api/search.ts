import { Type, type Static } from 'typebox';

import { SEARCH_TEXT_MAX, SUGGESTIONS_LIMIT_MAX } from '../constants.ts';
import { Id } from './common.ts';

export { SEARCH_TEXT_MAX, SUGGESTIONS_LIMIT, SUGGESTIONS_LIMIT_MAX } from '../constants.ts';

export const SuggestionsQuery = Type.Object({
  text: Type.String({ maxLength: SEARCH_TEXT_MAX }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SUGGESTIONS_LIMIT_MAX })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: SUGGESTIONS_LIMIT_MAX })),
});
export type SuggestionsQuery = Static<typeof SuggestionsQuery>;

export const Suggestion = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  section_id: Type.Integer(),
  snippet: Type.String({ description: 'escaped text around the match, matched words in <mark>' }),
});
export type Suggestion = Static<typeof Suggestion>;

export const SuggestionList = Type.Object({ items: Type.Array(Suggestion) });
export type SuggestionList = Static<typeof SuggestionList>;

/** What the web client reports: a search it showed (with how many results), or a result the visitor opened. */
export const SearchEvent = Type.Union([
  Type.Object({
    type: Type.Literal('search'),
    query: Type.String({ maxLength: SEARCH_TEXT_MAX }),
    found: Type.Integer({ minimum: 0 }),
  }),
  Type.Object({
    type: Type.Literal('open'),
    query: Type.String({ maxLength: SEARCH_TEXT_MAX }),
    // An article's id, within the database's integer: the vote looks the article up.
    id: Id,
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

export const SearchReport = Type.Object({
  /** The most frequent queries. */
  top: Type.Array(SearchReportRow),
  /** Queries that found nothing, most frequent first: the articles to write next. */
  unanswered: Type.Array(SearchReportRow),
});
export type SearchReport = Static<typeof SearchReport>;

export const SearchReportQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});
