import { Type, type Static } from 'typebox';
import {
  SYNONYM_PHRASE_MAX,
  SYNONYM_PHRASES_MAX,
  SYNONYM_PHRASES_MIN,
  SYNONYM_SETS_MAX,
  SEARCH_TEXT_MAX,
} from '../constants.ts';

export {
  SYNONYM_PHRASE_MAX,
  SYNONYM_PHRASE_WORDS_MAX,
  SYNONYM_PHRASES_MAX,
  SYNONYM_PHRASES_MIN,
  SYNONYM_SETS_MAX,
} from '../constants.ts';

const SynonymSet = Type.Array(Type.String({ minLength: 1, maxLength: SYNONYM_PHRASE_MAX }), {
  minItems: SYNONYM_PHRASES_MIN,
  maxItems: SYNONYM_PHRASES_MAX,
});
const SynonymList = Type.Array(SynonymSet, { maxItems: SYNONYM_SETS_MAX });

/**
 * The team's synonym sets, per content language: each set's phrases are found for one another at query time, so an
 * edit takes effect at once, with nothing indexed again. A language left out has no sets.
 */
export const SynonymSets = Type.Object(
  {
    en: Type.Optional(SynonymList),
    ru: Type.Optional(SynonymList),
    'pt-BR': Type.Optional(SynonymList),
    it: Type.Optional(SynonymList),
    sk: Type.Optional(SynonymList),
  },
  { additionalProperties: false },
);
export type SynonymSets = Static<typeof SynonymSets>;

export const SynonymsBody = Type.Object({ sets: SynonymSets });
export type SynonymsBody = Static<typeof SynonymsBody>;

export const SynonymsResponse = Type.Object({
  sets: SynonymSets,
  /** Whether the sets are the ones Signpost ships (never edited), so the admin can say so. */
  defaults: Type.Boolean(),
});
export type SynonymsResponse = Static<typeof SynonymsResponse>;

/** One query's chosen article, as search learned it from visitors. */
export const LearnedRow = Type.Object({
  /** The query's counted words, stemmed and sorted: close variants share it. */
  query: Type.String(),
  article_id: Type.Integer(),
  title: Type.String(),
  /** Votes weighed by age (a vote loses half its weight every two weeks). */
  votes: Type.Number(),
  /** What the article's score is multiplied by for the query (1: not enough votes yet). */
  factor: Type.Number(),
});
export type LearnedRow = Static<typeof LearnedRow>;

export const LearnedList = Type.Object({ items: Type.Array(LearnedRow) });
export type LearnedList = Static<typeof LearnedList>;

export const ResetLearnedQuery = Type.Object({
  /** One query's key, as listed; without it, everything learned is forgotten. */
  query: Type.Optional(Type.String({ minLength: 1, maxLength: SEARCH_TEXT_MAX })),
});
