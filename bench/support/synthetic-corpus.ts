/**
 * The benchmark's deterministic corpus: pseudo-words in the five languages, titles of three to eight of them, bodies
 * with common real words between, and queries aimed at an article made from its title.
 */
import type { Language } from '../../src/shared/constants.ts';

/** mulberry32: small, seeded, good enough for test data. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, int, pick };
}
export type Rng = ReturnType<typeof prng>;

export interface LanguageSpec {
  lang: Language;
  /** PostgreSQL text search configuration. */
  pg: string;
  onsets: string[];
  vowels: string[];
  codas: string[];
  /** Endings of one lexeme: every stem takes one paradigm; the forms are stem + ending. */
  paradigms: string[][];
  /** Common real words, for the body text between the pseudo-words. */
  common: string[];
}

export const SPECS: LanguageSpec[] = [
  {
    lang: 'en',
    pg: 'english',
    onsets: [
      'b',
      'br',
      'c',
      'cl',
      'd',
      'dr',
      'f',
      'g',
      'gr',
      'k',
      'l',
      'm',
      'n',
      'p',
      'pl',
      'r',
      's',
      'st',
      't',
      'tr',
      'v',
      'w',
    ],
    vowels: ['a', 'e', 'i', 'o', 'u', 'oa', 'ea'],
    codas: ['nt', 'rk', 'st', 'nd', 'lt', 'rm', 'mp', 'sk', 'ck', 'rn'],
    paradigms: [
      ['', 's', 'ing', 'ed'],
      ['', 'er', 'ers', 'ing'],
    ],
    common: [
      'the',
      'to',
      'your',
      'account',
      'click',
      'settings',
      'page',
      'and',
      'you',
      'can',
      'open',
      'then',
      'select',
    ],
  },
  {
    lang: 'ru',
    pg: 'russian',
    onsets: [
      'б',
      'в',
      'г',
      'д',
      'ж',
      'з',
      'к',
      'л',
      'м',
      'н',
      'п',
      'р',
      'с',
      'т',
      'ф',
      'х',
      'ч',
      'ш',
      'пр',
      'ст',
      'кр',
    ],
    vowels: ['а', 'о', 'у', 'и', 'е', 'ё'],
    codas: ['н', 'р', 'к', 'т', 'л', 'д', 'ск', 'рт', 'нт'],
    paradigms: [
      ['а', 'ы', 'е', 'у', 'ой', 'ами'],
      ['', 'а', 'у', 'ом', 'ы', 'ов'],
      ['ить', 'ишь', 'ит', 'ите', 'ил', 'ила'],
    ],
    common: [
      'и',
      'в',
      'на',
      'для',
      'настройки',
      'нажмите',
      'страница',
      'вы',
      'можете',
      'затем',
      'выберите',
      'учётной',
    ],
  },
  {
    lang: 'pt-BR',
    pg: 'portuguese',
    onsets: ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'br', 'pr', 'tr', 'cr'],
    vowels: ['a', 'e', 'i', 'o', 'u', 'ã', 'ê'],
    codas: ['r', 'l', 's', 'nt', 'nd', 'rt', 'st'],
    paradigms: [
      ['ar', 'ado', 'ando', 'ação', 'ações'],
      ['o', 'os', 'inho', 'inhos'],
      ['ente', 'entes', 'ência', 'ências'],
    ],
    common: [
      'o',
      'a',
      'de',
      'para',
      'sua',
      'conta',
      'clique',
      'configurações',
      'página',
      'você',
      'pode',
      'então',
    ],
  },
  {
    lang: 'it',
    pg: 'italian',
    onsets: [
      'b',
      'c',
      'd',
      'f',
      'g',
      'l',
      'm',
      'n',
      'p',
      'r',
      's',
      't',
      'v',
      'z',
      'br',
      'pr',
      'tr',
      'sc',
      'st',
    ],
    vowels: ['a', 'e', 'i', 'o', 'u'],
    codas: ['r', 'l', 'n', 'nt', 'st', 'rt', 'ss', 'tt'],
    paradigms: [
      ['are', 'ato', 'ando', 'azione', 'azioni'],
      ['o', 'i', 'etto', 'etti'],
      ['ità', 'ità', 'ale', 'ali'],
    ],
    common: [
      'il',
      'la',
      'di',
      'per',
      'tuo',
      'account',
      'fai',
      'clic',
      'impostazioni',
      'pagina',
      'puoi',
      'poi',
    ],
  },
  {
    lang: 'sk',
    pg: 'simple',
    onsets: [
      'b',
      'c',
      'č',
      'd',
      'h',
      'j',
      'k',
      'l',
      'ľ',
      'm',
      'n',
      'p',
      'r',
      's',
      'š',
      't',
      'v',
      'z',
      'ž',
      'pr',
      'st',
      'kr',
    ],
    vowels: ['a', 'á', 'e', 'é', 'i', 'í', 'o', 'ô', 'u', 'ú', 'y'],
    codas: ['n', 'r', 'k', 't', 'l', 'd', 'sk', 'st', 'v'],
    paradigms: [
      ['a', 'y', 'e', 'u', 'ou', 'ami'],
      ['', 'u', 'om', 'y', 'ov', 'och'],
      ['ovať', 'ujem', 'uje', 'ujú', 'oval', 'ovala'],
    ],
    common: [
      'a',
      'v',
      'na',
      'pre',
      'váš',
      'účet',
      'kliknite',
      'nastavenia',
      'stránka',
      'môžete',
      'potom',
      'vyberte',
    ],
  },
];

export const LEXEMES_PER_LANGUAGE = 2000;

export interface Lexeme {
  id: number;
  forms: string[];
}

/** The vocabulary of one language: distinct stems of two or three syllables, each with its paradigm's forms. */
function vocabulary(spec: LanguageSpec, rng: Rng, firstId: number): Lexeme[] {
  const stems = new Set<string>();
  while (stems.size < LEXEMES_PER_LANGUAGE) {
    let stem = '';
    const syllables = rng.int(2, 3);
    for (let i = 0; i < syllables; i++) stem += rng.pick(spec.onsets) + rng.pick(spec.vowels);
    stems.add(stem + rng.pick(spec.codas));
  }
  return [...stems].map((stem, i) => ({
    id: firstId + i,
    forms: [...new Set(rng.pick(spec.paradigms).map((ending) => stem + ending))],
  }));
}

export type Kind = 'exact' | 'typo' | 'inflection' | 'prefix';
export const KINDS: Kind[] = ['exact', 'typo', 'inflection', 'prefix'];

export interface Article {
  id: number;
  lang: Language;
  spec: LanguageSpec;
  title: string;
  /** The title's words as [lexeme, form index]. */
  words: [Lexeme, number][];
  body: string;
}

export interface Query {
  text: string;
  kind: Kind;
  lang: Language;
  target: number;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function generateCorpus(size: number) {
  const rng = prng(20240605 + size);
  let nextId = 1;
  const vocab = new Map<LanguageSpec, Lexeme[]>();
  for (const spec of SPECS) {
    vocab.set(spec, vocabulary(spec, rng, nextId));
    nextId += LEXEMES_PER_LANGUAGE;
  }
  const articles: Article[] = [];
  for (let id = 1; id <= size; id++) {
    const spec = SPECS[(id - 1) % SPECS.length] as LanguageSpec;
    const lexemes = vocab.get(spec) as Lexeme[];
    const count = rng.int(3, 8);
    const words: [Lexeme, number][] = [];
    while (words.length < count) {
      const lexeme = rng.pick(lexemes);
      if (!words.some(([l]) => l === lexeme)) words.push([lexeme, rng.int(0, lexeme.forms.length - 1)]);
    }
    const title = capitalise(words.map(([l, f]) => l.forms[f]).join(' '));
    const bodyWords: string[] = [];
    const length = rng.int(80, 200);
    for (let i = 0; i < length; i++) {
      if (rng.next() < 0.35) bodyWords.push(rng.pick(spec.common));
      else {
        const lexeme = rng.pick(lexemes);
        bodyWords.push(rng.pick(lexeme.forms));
      }
    }
    const sentences: string[] = [];
    for (let i = 0; i < bodyWords.length; i += 12)
      sentences.push(`${capitalise(bodyWords.slice(i, i + 12).join(' '))}.`);
    articles.push({ id, lang: spec.lang, spec, title, words, body: sentences.join(' ') });
  }
  return { articles, queries: generateQueries(articles, rng) };
}

/** One edit at a random place after the first letter: substitution, deletion, transposition or insertion. */
export function typo(word: string, spec: LanguageSpec, rng: Rng): string {
  const letters = [...word];
  const alphabet = [...new Set([...spec.vowels.join(''), ...spec.onsets.join('')])];
  for (;;) {
    const at = rng.int(1, letters.length - 2);
    const edit = rng.int(0, 3);
    const next = [...letters];
    if (edit === 0) next[at] = rng.pick(alphabet);
    else if (edit === 1) next.splice(at, 1);
    else if (edit === 2) [next[at], next[at + 1]] = [next[at + 1] as string, next[at] as string];
    else next.splice(at, 0, rng.pick(alphabet));
    const result = next.join('');
    if (result !== word) return result;
  }
}

/** About 200 queries: 50 of each kind, 10 per language, each aimed at an article whose title it was made from. */
function generateQueries(articles: Article[], rng: Rng): Query[] {
  // A query must point at few titles, so its target is a fair answer: count titles per pair of lexemes.
  const pairCount = new Map<string, number>();
  const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
  for (const article of articles) {
    const ids = article.words.map(([l]) => l.id);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const key = pairKey(ids[i] as number, ids[j] as number);
        pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
      }
    }
  }
  const queries: Query[] = [];
  const used = new Set<number>();
  for (const kind of KINDS) {
    for (const spec of SPECS) {
      let made = 0;
      while (made < 10) {
        const article = articles[rng.int(0, articles.length - 1)] as Article;
        if (article.spec !== spec || used.has(article.id)) continue;
        const size = rng.next() < 0.5 ? 2 : 3;
        const shuffled = [...article.words];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = rng.int(0, i);
          [shuffled[i], shuffled[j]] = [shuffled[j] as [Lexeme, number], shuffled[i] as [Lexeme, number]];
        }
        const chosen = shuffled.slice(0, size);
        if (chosen.length < size) continue;
        const [first, second] = chosen as [[Lexeme, number], [Lexeme, number]];
        if ((pairCount.get(pairKey(first[0].id, second[0].id)) ?? 0) > 1) continue;
        let forms = chosen.map(([l, f]) => l.forms[f] as string);
        if (kind === 'inflection') {
          // Every word in another form of its lexeme than the title has (where the paradigm has one).
          if (!chosen.every(([l]) => l.forms.length > 1)) continue;
          forms = chosen.map(([l, f]) => {
            const others = l.forms.filter((_, i) => i !== f);
            return rng.pick(others);
          });
        } else if (kind === 'typo') {
          const at = forms.findIndex((w) => [...w].length >= 6);
          if (at === -1) continue;
          forms[at] = typo(forms[at] as string, spec, rng);
        } else if (kind === 'prefix') {
          const last = [...(forms[forms.length - 1] as string)];
          if (last.length < 5) continue;
          forms[forms.length - 1] = last.slice(0, Math.max(3, Math.ceil(last.length * 0.6))).join('');
        }
        used.add(article.id);
        queries.push({ text: forms.join(' '), kind, lang: spec.lang, target: article.id });
        made++;
      }
    }
  }
  return queries;
}

/**
 * Queries as visitors type them, all different, so none is answered from a cache: one to three words of a title,
 * the last often cut short, sometimes with a typo.
 */
export function uniqueQueries(articles: Article[], count: number): string[] {
  const rng = prng(7 + articles.length);
  const seen = new Set<string>();
  for (let tries = 0; seen.size < count && tries < count * 20; tries++) {
    const article = articles[rng.int(0, articles.length - 1)] as Article;
    const words = article.words.map(([l, f]) => l.forms[f] as string);
    const start = rng.int(0, Math.max(0, words.length - 1));
    const chosen = words.slice(start, start + rng.int(1, 3));
    const last = [...(chosen[chosen.length - 1] as string)];
    if (rng.next() < 0.6 && last.length > 3)
      chosen[chosen.length - 1] = last.slice(0, rng.int(3, last.length)).join('');
    else if (rng.next() < 0.3 && last.length >= 6)
      chosen[chosen.length - 1] = typo(last.join(''), article.spec, rng);
    seen.add(chosen.join(' '));
  }
  return [...seen];
}
