import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { randomFrom } from '../testing/random.ts';
import { ANALYSED_LANGUAGES, analyse, fold, stem, variants, writtenFor } from './analysis.ts';

/** Every letter and digit below U+30000, as it is. */
const LETTERS_AS_THEY_ARE = (() => {
  const letters: string[] = [];
  for (let code = 0x30; code < 0x3_0000; code++) {
    const char = String.fromCodePoint(code);
    if (/[\p{L}\p{N}]/u.test(char)) letters.push(char);
  }
  return letters;
})();

/** Those letters that lower-case to one code unit or pair, lower-cased, as a stemmer would be given them. */
const LETTERS = LETTERS_AS_THEY_ARE.filter((char) => char.toLowerCase().length === char.length).map((char) =>
  char.toLowerCase(),
);

/** `variants` as it was before it skipped any stemmer: every language asked, for the word and its folded form. */
function everyStemmerAsked(word: string, languages: readonly Language[]) {
  const whole = fold(word.replace(/ё/gi, 'е'));
  const stems = new Set<string>();
  for (const form of [word, whole].flatMap((w) => languages.map((lang) => [w, lang] as const))) {
    const lower = form[0].toLowerCase().replace(/ё/g, 'е');
    stems.add(lower.length > 2 && !/^\d+$/.test(lower) ? fold(stem(lower, form[1])) : fold(lower));
  }
  stems.delete(whole);
  return [...stems].filter(Boolean).sort();
}

describe('the stemmers a word is given to', () => {
  it('cover every language with a stemmer', () => {
    expect([...ANALYSED_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(ANALYSED_LANGUAGES)(
    '%s: a word without its letters comes back from its stemmer as it went in',
    (lang) => {
      const others = LETTERS.filter((letter) => !writtenFor(letter, lang));
      expect(others.length).toBeGreaterThan(100_000);
      const random = randomFrom(ANALYSED_LANGUAGES.indexOf(lang) + 1);
      // The scripts next to its own first (Greek and Cyrillic beside Latin, Latin beside Cyrillic, IPA, full width):
      // a rule written for its letters could only be met by a letter that looks or sorts like one of them.
      const near = others.filter((letter) =>
        /[\u0030-\u052f\u1c80-\u1eff\u2c60-\u2c7f\ua640-\ua7ff\uff00-\uffef]/u.test(letter),
      );
      // Every other letter once, four to a word; then words drawn at random.
      const words = Array.from({ length: Math.ceil(others.length / 4) }, (_, n) =>
        others.slice(n * 4, n * 4 + 4).join(''),
      );
      for (let n = 0; n < 10_000; n++) {
        const pool = n % 4 === 0 ? others : near;
        const length = 3 + Math.floor(random() * 10);
        words.push(Array.from({ length }, () => pool[Math.floor(random() * pool.length)]).join(''));
      }
      const changed = words.filter((word) => stem(word, lang) !== word);
      expect(changed).toEqual([]);
    },
  );

  it('are only those whose letters it has, with the same stems as when every one was asked', () => {
    const words = [
      'passwords',
      'Пароли',
      'ёжики',
      'ЁЛКИ',
      'súbory',
      'faturas',
      'fatturazione',
      'roуter',
      'Wi',
      'Fi',
      'mp3',
      '2024',
      'ΟΔΟΣ',
      'οδηγίες',
      'パスワード',
      '密码',
      'İstanbul',
      'straße',
      'łódź',
      'اللغة',
      'ｐａｓｓｗｏｒｄｓ',
      'ɐbɔ',
      'x',
    ];
    for (const word of words) {
      for (const languages of [ANALYSED_LANGUAGES, ['en'] as Language[], ['ru', 'sk'] as Language[]]) {
        expect([...variants(word, languages).stems].sort(), `${word} in ${languages.join(', ')}`).toEqual(
          everyStemmerAsked(word, languages),
        );
      }
    }
    // Every letter whose lower case or folded form is another letter (the kelvin sign is 'k'), as a word.
    const changing = LETTERS_AS_THEY_ARE.filter(
      (letter) => fold(letter) !== letter || letter.toLowerCase() !== letter,
    );
    expect(changing.length).toBeGreaterThan(1_000);
    for (const word of changing.map((letter) => letter.repeat(4)).concat(['\u212A\u212B\u212A\u212B'])) {
      expect([...variants(word).stems].sort(), word).toEqual(everyStemmerAsked(word, ANALYSED_LANGUAGES));
    }
    // A word of both scripts is stemmed in both: 'roуter' has a Cyrillic 'у'.
    expect(writtenFor('roуter', 'ru') && writtenFor('roуter', 'en')).toBe(true);
    // Indexed text too: the Russian stemmer is not asked about a Latin word, the English one is.
    expect(analyse('Passwords', 'ru')).toBe('passwords');
    expect(analyse('Passwords', 'en')).toBe('password');
    expect(analyse('Пароли', 'ru')).toBe('парол');
  });
});
