import { createRequire } from 'node:module';
import type { Language } from '../../shared/constants.ts';

interface Stemmer {
  stem(word: string): string;
}
const snowball = createRequire(import.meta.url)('snowball-stemmers') as { newStemmer(name: string): Stemmer };

/**
 * Slovak has no Snowball stemmer. Measured on the relevance set (Slovak queries): Czech Snowball MRR 0.947, no
 * stemming 0.934, this light stripping of case endings 0.961 with recall@3 1.000, so Slovak gets this.
 */
const SLOVAK_ENDINGS =
  /(iach|ovia|ových|ovým|ými|ých|ého|ému|ami|ách|ovi|och|om|ov|ou|ej|ie|ia|iu|y|a|e|i|u|o|á|é|í|ú|ý)$/u;
const slovakLight: Stemmer = { stem: (word) => (word.length > 5 ? word.replace(SLOVAK_ENDINGS, '') : word) };

/** Stemmers by interface language. */
const STEMMERS: Record<Language, Stemmer> = {
  en: snowball.newStemmer('english'),
  ru: snowball.newStemmer('russian'),
  'pt-BR': snowball.newStemmer('portuguese'),
  it: snowball.newStemmer('italian'),
  sk: slovakLight,
};
export const ANALYSED_LANGUAGES = Object.keys(STEMMERS) as Language[];

/**
 * The letters each stemmer's rules are written in. A word without one of them is not changed by that stemmer
 * (checked over every other letter and digit below U+30000, in analysis.test.ts), so it is not asked: a Russian
 * article's 'Wi-Fi', or an English word among the five languages a query word is stemmed in.
 */
const LATIN = /[a-z\u00c0-\u024f\u1e00-\u1eff]/i;
const CYRILLIC = /[\u0400-\u04ff]/;
const ALPHABETS: Record<Language, RegExp> = { en: LATIN, ru: CYRILLIC, 'pt-BR': LATIN, it: LATIN, sk: LATIN };

/** Whether `word` has a letter `lang`'s stemmer could change. */
export const writtenFor = (word: string, lang: Language) => ALPHABETS[lang].test(word);

/** A lower-case word through `lang`'s stemmer, as it is (`analyse` asks it only where it can change the word). */
export const stem = (lower: string, lang: Language) => STEMMERS[lang].stem(lower);

const ASCII = /^[^\u0080-\uffff]*$/;

/** Lower case without diacritics: 'subor' meets 'súbor', 'ежик' meets 'ёжик'. */
export function fold(text: string): string {
  // ASCII has no diacritics to take off (most words of most queries).
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;

/** A fresh global pattern for words, to walk a text with `exec` from any place. */
export const wordPattern = () => new RegExp(WORD.source, WORD.flags);

const initials = new Map<string, string>();

/** A word's first letter as its analysed forms begin: lower case, without diacritics. */
export function initialOf(word: string): string {
  return initialAt(word, 0);
}

/** `initialOf` the word that begins at `at` in `text`, without cutting it out. */
export function initialAt(text: string, at: number): string {
  const first = String.fromCodePoint(text.codePointAt(at) ?? 0);
  let folded = initials.get(first);
  if (folded === undefined) {
    folded = fold(first.toLowerCase().replace(/ё/g, 'е'));
    folded = String.fromCodePoint(folded.codePointAt(0) ?? 0);
    if (initials.size < 10_000) initials.set(first, folded);
  }
  return folded;
}

/** Words with their places in the text, for highlighting. */
export function words(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({
    word: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}

interface Analysed {
  stem: string;
  whole: string;
}

/** Words repeat a lot in help articles: each (language, word) is analysed once; the caches are bounded together. */
const caches = new Map<Language, Map<string, Analysed>>();
let cached = 0;
const CACHE_LIMIT = 500_000;

function analysed(word: string, lang: Language): Analysed {
  let cache = caches.get(lang);
  if (cache === undefined) caches.set(lang, (cache = new Map()));
  let entry = cache.get(word);
  if (entry === undefined) {
    const lower = word.toLowerCase().replace(/ё/g, 'е');
    const whole = fold(lower);
    const stemmable = lower.length > 2 && !/^\d+$/.test(lower) && writtenFor(lower, lang);
    entry = { stem: stemmable ? fold(stem(lower, lang)) : whole, whole };
    // Dropping the oldest entries keeps the common words cached, unlike clearing everything. They go from the
    // largest language's cache: one language's few words must not be evicted again and again for another's many.
    if (cached >= CACHE_LIMIT) {
      const largest = [...caches.values()].reduce((a, b) => (b.size > a.size ? b : a));
      for (const old of largest.keys()) {
        if (cached < CACHE_LIMIT * 0.9) break;
        largest.delete(old);
        cached--;
      }
    }
    cache.set(word, entry);
    cached++;
  }
  return entry;
}

/** One word as the index keeps it: lower case, stemmed in its language, then folded. */
export function analyse(word: string, lang: Language): string {
  return analysed(word, lang).stem;
}

/**
 * The terms a text is indexed under: each word's stem and, where asked, its folded whole form when that differs,
 * so a typo that breaks a suffix rule ('fatturazzione') can still reach the whole word by edit distance. The folded
 * whole words are added to `vocabulary` when given, so a query word can be split into words the index has.
 */
export function analyseText(
  text: string,
  lang: Language,
  withWholeWords = true,
  vocabulary?: Set<string>,
): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const { stem, whole } = analysed(match[0], lang);
    terms.push(stem);
    if (withWholeWords && whole !== stem) terms.push(whole);
    if (vocabulary && whole.length <= VOCABULARY_WORD_MAX) vocabulary.add(whole);
  }
  return terms;
}

/** Longer words are not kept in an index's vocabulary: no query is split into them. */
const VOCABULARY_WORD_MAX = 24;

/**
 * A query word as the index may hold it. The language of a query is unknown, so `stems` are the word's stems in
 * each of `languages` (those of the documents searched: every document is stemmed in its own), with and without its
 * diacritics (people type 'subor' for 'súbor'); `whole` is the folded word, the one form worth a fuzzy
 * (typo-tolerant) lookup, since whole words are indexed too.
 */
export function variants(
  word: string,
  languages: readonly Language[] = ANALYSED_LANGUAGES,
): { whole: string; stems: string[] } {
  const whole = fold(word.replace(/ё/gi, 'е'));
  const lower = word.toLowerCase();
  const stems = new Set<string>();
  for (const lang of languages) {
    // A language whose letters neither form has would give the whole word, which is not a stem to add. Both forms are
    // asked: lower-casing or folding can make a letter of the stemmer's own ('\u212A', the kelvin sign, is 'k').
    if (!writtenFor(lower, lang) && !writtenFor(whole, lang)) continue;
    stems.add(analyse(word, lang));
    stems.add(analyse(whole, lang));
  }
  stems.delete(whole);
  return { whole, stems: [...stems].filter(Boolean) };
}

const STOPWORDS = new Set(
  [
    'a an the is are was were be been do does did doing my your our their its it i you we they me to of in on at by for',
    'from with and or but not no can could should would will how what why when where which who whom this that these',
    'those there here have has had get gets got keep keeps any some all about into out up down off over after before',
    'как что почему где когда зачем не нет и или в во на с со по для у мой моя мое мои я вы мы это ли же бы к ко от',
    'до из за о об при так то тот та те также ещё еще уже можно нужно',
    'o a os as um uma uns umas de do da dos das em no na nos nas por para com como que porque é e ou não meu minha eu',
    'você se ao aos à às pelo pela seu sua',
    'il lo la i gli le un una uno di del della dei delle in con per come che perché è e o non mio mia io lei si al',
    'alla ai alle nel nella su da dal dalla posso può',
    'a je sa na v vo s so z zo ako čo prečo kde kedy nie môj moja ja vy to aj ale alebo do od pre pri po mi si',
  ]
    .join(' ')
    .split(' ')
    .map(fold),
);

export const isStopword = (word: string) => STOPWORDS.has(fold(word));
