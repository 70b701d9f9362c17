import { Type, type Static } from 'typebox';

export const SUGGESTIONS_LIMIT = 10;
export const SUGGESTIONS_LIMIT_MAX = 50;
export const SEARCH_TEXT_MAX = 200;

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
});
export type Suggestion = Static<typeof Suggestion>;

export const SuggestionList = Type.Object({ items: Type.Array(Suggestion) });
export type SuggestionList = Static<typeof SuggestionList>;
