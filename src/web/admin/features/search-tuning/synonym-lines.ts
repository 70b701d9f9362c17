import {
  LANGUAGES,
  SYNONYM_PHRASE_MAX,
  SYNONYM_PHRASES_MAX,
  SYNONYM_PHRASES_MIN,
  SYNONYM_SETS_MAX,
  type Language,
} from '../../../../shared/constants.ts';

/** One language's sets as the team writes them: a set a line, its phrases separated by commas. */
export interface SynonymLines {
  sets: string[][];
  /** The line (counted from 1) each set is written on: blank lines hold none. */
  lines: number[];
}

/** What is wrong on a line, in words for the person who wrote it. */
export interface LineProblem {
  line: number;
  message: string;
}

export type ProblemsByLanguage = Partial<Record<Language, LineProblem[]>>;

/** A phrase holding a comma, or starting with a quote, is written in quotes, a quote in it doubled (as in CSV). */
const quote = (phrase: string) =>
  phrase.includes(',') || phrase.startsWith('"') ? `"${phrase.replaceAll('"', '""')}"` : phrase;

export const formatSynonymLines = (sets: readonly string[][]): string =>
  sets.map((set) => set.map(quote).join(', ')).join('\n');

/**
 * A line's phrases: split at commas, spaces tidied, empty ones dropped. A phrase that starts with a quote runs to
 * the closing one, commas and all; a quote anywhere else is part of the phrase (6" screen).
 */
export function phrasesOf(line: string): string[] {
  const phrases: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i);
    if (quoted) {
      if (char !== '"') current += char;
      else if (line.charAt(i + 1) === '"') {
        current += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && current.trim() === '') {
      current = '';
      quoted = true;
    } else if (char === ',') {
      phrases.push(current);
      current = '';
    } else current += char;
  }
  phrases.push(current);
  return phrases.map((phrase) => phrase.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

export function parseSynonymLines(text: string): SynonymLines {
  const sets: string[][] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const phrases = phrasesOf(line);
    if (phrases.length === 0) return;
    sets.push(phrases);
    lines.push(index + 1);
  });
  return { sets, lines };
}

/** What the server's schema would refuse, said at the line before sending anything. */
export function lineProblems({ sets, lines }: SynonymLines): LineProblem[] {
  const problems: LineProblem[] = [];
  sets.forEach((set, index) => {
    const line = lines[index] ?? 0;
    if (index === SYNONYM_SETS_MAX)
      problems.push({
        line,
        message: `At most ${SYNONYM_SETS_MAX} sets a language: this line and the ones below it are too many.`,
      });
    if (set.length < SYNONYM_PHRASES_MIN)
      problems.push({
        line,
        message: 'Add at least one more word or phrase that means the same, after a comma.',
      });
    if (set.length > SYNONYM_PHRASES_MAX)
      problems.push({ line, message: `At most ${SYNONYM_PHRASES_MAX} words or phrases in one set.` });
    const long = set.find((phrase) => phrase.length > SYNONYM_PHRASE_MAX);
    if (long !== undefined)
      problems.push({ line, message: `“${long}” is longer than ${SYNONYM_PHRASE_MAX} characters.` });
  });
  return problems;
}

/** `sets.en[3]`, `sets.en[3][1]`, or the schema's `sets.en.3.1`. */
const FIELD = /^sets\.([A-Za-z-]+)(?:\[(\d+)\]|\.(\d+))(?:\[(\d+)\]|\.(\d+))?$/;

/**
 * The server's refusals put at their lines: `sets.LANG[i]` is the language's set i, on the line it was written on.
 * Fields that name no set come back as they are, for the whole form.
 */
export function serverProblems(
  fields: Record<string, string>,
  written: Record<Language, SynonymLines>,
): { byLanguage: ProblemsByLanguage; other: string[] } {
  const byLanguage: ProblemsByLanguage = {};
  const other: string[] = [];
  for (const [field, message] of Object.entries(fields)) {
    const match = FIELD.exec(field);
    const lang = LANGUAGES.find((code) => code === match?.[1]);
    const set = Number(match?.[2] ?? match?.[3]);
    const line = lang ? written[lang].lines[set] : undefined;
    if (!match || !lang || line === undefined) {
      other.push(`${field} ${message}`);
      continue;
    }
    const phraseIndex = match[4] ?? match[5];
    const phrase = phraseIndex === undefined ? undefined : written[lang].sets[set]?.[Number(phraseIndex)];
    (byLanguage[lang] ??= []).push({
      line,
      message: phrase === undefined ? `This set ${message}.` : `“${phrase}” ${message}.`,
    });
  }
  for (const problems of Object.values(byLanguage)) problems.sort((a, b) => a.line - b.line);
  return { byLanguage, other };
}

/** Where focus goes after a refusal: the first language, in the usual order, with a problem, at its first line. */
export function firstProblem(problems: ProblemsByLanguage): { lang: Language; line: number } | null {
  for (const lang of LANGUAGES) {
    const first = problems[lang]?.[0];
    if (first) return { lang, line: first.line };
  }
  return null;
}
