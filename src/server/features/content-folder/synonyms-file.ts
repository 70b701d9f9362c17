import YAML from 'yaml';
import { SYNONYM_PHRASE_MAX, SYNONYM_SETS_MAX, type SynonymSets } from '../../../shared/api/synonyms.ts';
import { LANGUAGES, type Language } from '../../../shared/constants.ts';
import { ApiError } from '../../http/errors.ts';
import { tidySynonyms } from '../../search/synonyms.ts';
import { FolderError } from './front-matter.ts';

/** The synonyms' file, at the content folder's root. */
export const SYNONYMS_FILE = '_synonyms.yml';

const HEADER = [
  '# Synonyms search applies, per language: each line lists words or phrases that mean the same.',
  '# Write a set as "a, b, c", or as a list ([a, "b, with a comma"]) when a phrase holds a comma.',
];

/**
 * Reads `_synonyms.yml`: language codes, each with a list of sets, a set being "a, b, c" or a list of phrases. Every
 * problem is reported, naming the file and the set; nothing is stored unless the whole file is right.
 */
export function parseSynonymsFile(text: string): SynonymSets {
  const problem = (message: string) => new FolderError(SYNONYMS_FILE, message);
  let data: unknown;
  try {
    data = YAML.parse(text);
  } catch (error) {
    throw problem(`is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw problem(`must map language codes (${LANGUAGES.join(', ')}) to lists of sets`);
  const sets: SynonymSets = {};
  for (const [lang, list] of Object.entries(data as Record<string, unknown>)) {
    if (!(LANGUAGES as readonly string[]).includes(lang))
      throw problem(`"${lang}" is not a language (${LANGUAGES.join(', ')})`);
    if (list === null) continue;
    if (!Array.isArray(list)) throw problem(`${lang} must be a list of sets`);
    if (list.length > SYNONYM_SETS_MAX) throw problem(`${lang} has more than ${SYNONYM_SETS_MAX} sets`);
    sets[lang as Language] = list.map((set: unknown, index) => {
      const phrases =
        typeof set === 'string'
          ? set.split(',')
          : Array.isArray(set)
            ? set.map((p: unknown) => String(p))
            : null;
      if (!phrases) throw problem(`${lang} set ${index + 1} must be "a, b, c" or a list of phrases`);
      const long = phrases.find((phrase) => phrase.trim().length > SYNONYM_PHRASE_MAX);
      if (long !== undefined)
        throw problem(
          `${lang} set ${index + 1}: "${long.trim()}" is longer than ${SYNONYM_PHRASE_MAX} characters`,
        );
      return phrases.map((phrase) => phrase.trim()).filter(Boolean);
    });
  }
  try {
    return tidySynonyms(sets);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // sets.en[3][1] → "en set 4"
    const first = error.fields[0];
    const where = first?.field.replace(/^sets\.([\w-]+)\[(\d+)\].*$/, (_, lang: string, n: string) => {
      return `${lang} set ${Number(n) + 1}`;
    });
    throw problem(`${where ?? ''}: ${first?.message ?? error.message}`);
  }
}

/** The sets as `_synonyms.yml`, one line per set. */
export function formatSynonymsFile(sets: SynonymSets): string {
  const lines = [...HEADER];
  for (const lang of LANGUAGES) {
    const list = sets[lang];
    if (!list?.length) continue;
    lines.push(`${YAML.stringify(lang).trim()}:`);
    for (const set of list) {
      const plain = set.every((phrase) => !phrase.includes(',')) ? set.join(', ') : null;
      const value =
        plain ?? YAML.stringify(set, { flowCollectionPadding: false, collectionStyle: 'flow' }).trim();
      lines.push(`  - ${plain === null ? value : YAML.stringify(plain).trim()}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
