import { describe, expect, it } from 'vitest';
import type { Language } from '../../../../shared/constants.ts';
import {
  firstProblem,
  formatSynonymLines,
  lineProblems,
  parseSynonymLines,
  phrasesOf,
  serverProblems,
  type SynonymLines,
} from './synonym-lines.ts';

const none: SynonymLines = { sets: [], lines: [] };
const written = (en: string, sk = ''): Record<Language, SynonymLines> => ({
  en: parseSynonymLines(en),
  ru: none,
  'pt-BR': none,
  it: none,
  sk: parseSynonymLines(sk),
});

describe('synonym sets as lines', () => {
  it('reads a set a line, tidying spaces and skipping blank lines and empty phrases', () => {
    expect(parseSynonymLines('sign in,  log in ,log on\n\n  \r\nwifi, , wi-fi,\n')).toEqual({
      sets: [
        ['sign in', 'log in', 'log on'],
        ['wifi', 'wi-fi'],
      ],
      lines: [1, 4],
    });
  });

  it('keeps a quoted phrase with a comma in it whole, and a quote inside a phrase as written', () => {
    expect(phrasesOf('"a, b" , c')).toEqual(['a, b', 'c']);
    expect(phrasesOf('"say ""hi"", then", hello')).toEqual(['say "hi", then', 'hello']);
    expect(phrasesOf('6" screen, display')).toEqual(['6" screen', 'display']);
  });

  it('writes what it reads back the same', () => {
    const sets = [['sign in', 'log in'], ['a, b', 'c'], ['"quoted"', '6" screen'], ['one']];
    const text = formatSynonymLines(sets);
    expect(text).toBe('sign in, log in\n"a, b", c\n"""quoted""", 6" screen\none');
    expect(parseSynonymLines(text).sets).toEqual(sets);
  });

  it('finds a set of one phrase, too many phrases and a phrase too long, at their lines', () => {
    const many = Array.from({ length: 13 }, (_, i) => `w${i}`).join(', ');
    expect(lineProblems(parseSynonymLines(`a, b\n\ngizmo\n${many}\nok, ${'x'.repeat(61)}`))).toEqual([
      { line: 3, message: 'Add at least one more word or phrase that means the same, after a comma.' },
      { line: 4, message: 'At most 12 words or phrases in one set.' },
      { line: 5, message: `“${'x'.repeat(61)}” is longer than 60 characters.` },
    ]);
    expect(lineProblems(parseSynonymLines(Array.from({ length: 501 }, () => 'a, b').join('\n')))).toEqual([
      {
        line: 501,
        message: 'At most 500 sets a language: this line and the ones below it are too many.',
      },
    ]);
  });

  it("puts the server's refusals at the lines of the sets they name, in either form", () => {
    const { byLanguage, other } = serverProblems(
      {
        'sets.sk[1][0]': 'must contain a word',
        'sets.en[1]': 'must list at least two different phrases',
        'sets.en.0.1': 'must be at most 4 words',
        'sets.de': 'is not a known field',
      },
      written('\na, one two three four five\n\nsame, Same', 'x, y\n—, z'),
    );
    expect(byLanguage).toEqual({
      en: [
        { line: 2, message: '“one two three four five” must be at most 4 words.' },
        { line: 4, message: 'This set must list at least two different phrases.' },
      ],
      sk: [{ line: 2, message: '“—” must contain a word.' }],
    });
    expect(other).toEqual(['sets.de is not a known field']);
    expect(firstProblem(byLanguage)).toEqual({ lang: 'en', line: 2 });
    expect(firstProblem({})).toBeNull();
  });
});
