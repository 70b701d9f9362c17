import type { Query } from 'minisearch';
import type { Language } from '../../shared/constants.ts';
import { isStopword, variants, words } from './analysis.ts';
import { findSynonyms, type SynonymTable } from './synonyms.ts';

const MAX_QUERY_WORDS = 12;
/** Written words looked at for joins and synonyms, stopwords included ('log in', 'set up'). */
const MAX_WRITTEN_WORDS = 24;
/** Other ways of writing a query's words looked for at most: each costs a few term lookups. */
const MAX_ALTERNATIVES = 16;
/** How much a word written otherwise (joined, split) counts against the word as typed. */
const JOIN_WEIGHT = 0.9;
/** How much the parts of a word the index also has whole count. */
const KNOWN_SPLIT_WEIGHT = 0.4;
/** How much a synonym counts against the word as typed. */
const SYNONYM_WEIGHT = 0.3;
const MIN_PREFIX_LETTERS = 3;
/** A last word shorter than this is completed from titles and names only. */
const NAME_PREFIX_BELOW = 5;
const NAME_FIELDS = ['title', 'category', 'section'] as const;

/** Edits allowed by word length: none for short words, where a typo is another word. */
const fuzziness = (term: string) => (term.length >= 8 ? 2 : term.length >= 5 ? 1 : false);

/** What the index knows of its words, by which a query's words may be written otherwise. */
export interface IndexWords {
  /** The analysis languages of the index's documents. */
  languages: Language[];
  /** Whether the index holds the word whole. */
  known(word: string): boolean;
  /** Two words of the index the word may be written for ('wifi' for 'wi fi'). */
  splits(word: string): string[][];
}

/** A query's words as MiniSearch queries, one group per counted word. */
export interface BuiltQuery {
  /** How many words count (at most MAX_QUERY_WORDS). */
  wordCount: number;
  /** Each counted word as typed or written otherwise, splits included. */
  groups: Query[];
  /** The same without splits, whose parts may be anywhere in an article: for the search for every word. */
  strictGroups: Query[];
  /** The counted words (by index) each query term stands for. */
  wordsOf: ReadonlyMap<string, ReadonlySet<number>>;
}

/** A written word and its place among the written words. */
interface CountedWord {
  word: string;
  at: number;
}

/**
 * The words that count in a query and the MiniSearch query for each: as typed (with its forms, typos and, for the
 * last, as a prefix) or as the index may hold it written otherwise (joined, split, a synonym). Null when no word
 * counts.
 */
export function buildQuery(
  query: string,
  index: IndexWords,
  extras: { synonyms?: SynonymTable; exact?: boolean },
): BuiltQuery | null {
  const written = words(query)
    .map((w) => w.word)
    .slice(0, MAX_WRITTEN_WORDS);
  // Words like 'how', 'the', 'is' tell no article from another, and every article has them: a query of only
  // those finds nothing. The first words that count are searched, however long the question around them.
  const counted = written
    .map((word, at) => ({ word, at }))
    .filter(({ word }) => !isStopword(word))
    .slice(0, MAX_QUERY_WORDS);
  if (counted.length === 0) return null;
  const wordsOf = new Map<string, Set<number>>();
  const standsFor = (term: string, groups: Iterable<number>) => {
    const known = wordsOf.get(term) ?? new Set();
    for (const group of groups) known.add(group);
    wordsOf.set(term, known);
  };
  const { alternatives, looseAlternatives } = otherWritings(written, counted, index, extras, standsFor);
  const exact = extras.exact === true;
  const forms = counted.map(({ word }, at) => {
    const { whole, stems } = variants(word, index.languages);
    standsFor(whole, [at]);
    for (const term of stems) standsFor(term, [at]);
    return exact ? exactForm(whole, stems) : typedForm(whole, stems, at === counted.length - 1);
  });
  const group = (at: number, loose: boolean): Query => {
    const others = [...(alternatives[at] ?? []), ...(loose ? (looseAlternatives[at] ?? []) : [])];
    const typed = forms[at] as Query;
    return others.length ? { combineWith: 'OR', queries: [typed, ...others] } : typed;
  };
  return {
    wordCount: counted.length,
    groups: counted.map((_, at) => group(at, true)),
    strictGroups: counted.map((_, at) => group(at, false)),
    wordsOf,
  };
}

/** A word matched as it is written, with its forms. */
const exactForm = (whole: string, stems: string[]): Query => ({
  queries: [whole, ...stems],
  combineWith: 'OR',
  prefix: false,
  fuzzy: false,
});

/** A word as a visitor typed it: with typos, and the last one (`last`) as the beginning of a word. */
function typedForm(whole: string, stems: string[], last: boolean): Query {
  // One or two letters would stand for most of the index's words: matched as typed until a third comes.
  const letters = [...whole].length;
  const prefix = last && letters >= MIN_PREFIX_LETTERS;
  // Typos are looked for once, on the whole word; stems are matched as they are, which keeps queries cheap.
  const wholeWord: Query = { queries: [whole], prefix, fuzzy: fuzziness };
  // A stem shorter than the word begins more words than the word does ('topar' is 'top' in Portuguese): one
  // under five letters is completed from titles and names only, as a short word is below.
  const short =
    prefix && letters >= NAME_PREFIX_BELOW ? stems.filter((s) => [...s].length < NAME_PREFIX_BELOW) : [];
  const long = stems.filter((s) => !short.includes(s));
  const ways: Query[] = [wholeWord];
  if (long.length) ways.push({ queries: long, combineWith: 'OR', prefix });
  if (short.length) {
    ways.push({ queries: short, combineWith: 'OR', prefix, fields: [...NAME_FIELDS] });
    ways.push({ queries: short, combineWith: 'OR', prefix: false, fields: ['text'] });
  }
  const typed: Query = ways.length > 1 ? { combineWith: 'OR', queries: ways } : wholeWord;
  if (!prefix || letters >= NAME_PREFIX_BELOW) return typed;
  // A word begun with three or four letters is completed from titles and names, where it is looked for;
  // in bodies such a beginning starts hundreds of words, and it is matched there only as it stands.
  return {
    combineWith: 'OR',
    queries: [
      { ...typed, fields: [...NAME_FIELDS] },
      { queries: [whole, ...stems], combineWith: 'OR', fields: ['text'], prefix: false },
    ],
  };
}

/**
 * The other ways the index may hold the written words, by counted word: joined with a neighbour ('time zone' as
 * 'timezone'), said another way by a synonym set, and, loose, split into two words the index has ('wifi' as 'wi fi',
 * '24v' as '24 v'). None for an exact query.
 */
function otherWritings(
  written: string[],
  counted: CountedWord[],
  index: IndexWords,
  extras: { synonyms?: SynonymTable; exact?: boolean },
  standsFor: (term: string, groups: Iterable<number>) => void,
): { alternatives: Query[][]; looseAlternatives: Query[][] } {
  const groupAt = new Map(counted.map(({ at }, group) => [at, group]));
  const alternatives: Query[][] = counted.map(() => []);
  /**
   * Splits: their parts need not stand side by side in an article ('weekends' as 'week' … 'ends' anywhere), so they
   * add to an article's score but never make it match every word, nor count in the search for all of them.
   */
  const looseAlternatives: Query[][] = counted.map(() => []);
  let alternativeCount = 0;
  /**
   * Another way of writing the written words from..to (exclusive): all of `instead`, weighed by `weight`; `loose`
   * when its words may be anywhere in an article.
   */
  const alternative = (from: number, to: number, instead: string[], weight: number, loose = false) => {
    const groups: number[] = [];
    for (let at = from; at < to; at++) {
      const group = groupAt.get(at);
      if (group !== undefined) groups.push(group);
    }
    const needed = instead.filter((word) => !isStopword(word));
    if (groups.length === 0 || needed.length === 0 || alternativeCount >= MAX_ALTERNATIVES) return;
    alternativeCount++;
    const alt: Query = {
      combineWith: 'AND',
      boostTerm: () => weight,
      queries: needed.map((word) => {
        const { whole, stems } = variants(word, index.languages);
        if (!loose) for (const term of [whole, ...stems]) standsFor(term, groups);
        return exactForm(whole, stems);
      }),
    };
    for (const group of groups) (loose ? looseAlternatives : alternatives)[group]?.push(alt);
  };
  if (extras.exact === true) return { alternatives, looseAlternatives };
  for (let at = 0; at + 1 < written.length; at++) {
    const joined = `${written[at]}${written[at + 1]}`;
    if (index.known(joined)) alternative(at, at + 2, [joined], JOIN_WEIGHT);
  }
  for (const { word, at } of counted) {
    // A word the index has as it is written is mostly meant so ('workspace'); its parts count for less.
    const weight = index.known(word) ? KNOWN_SPLIT_WEIGHT : JOIN_WEIGHT;
    for (const parts of index.splits(word)) alternative(at, at + 1, parts, weight, true);
  }
  if (extras.synonyms) {
    for (const match of findSynonyms(extras.synonyms, written)) {
      for (const other of match.others) alternative(match.from, match.to, other, SYNONYM_WEIGHT);
    }
  }
  return { alternatives, looseAlternatives };
}
