import { Type, type Static } from 'typebox';

import { SEARCH_TEXT_MAX, SUGGESTIONS_LIMIT_MAX } from '../constants.ts';

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
