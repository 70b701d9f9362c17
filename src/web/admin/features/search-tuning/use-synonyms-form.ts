import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { SynonymSets, SynonymsResponse } from '../../../../shared/api/synonyms.ts';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { fieldErrorsOf, messageOf } from '../../lib/errors.ts';
import type { FocusRequest } from './language-panel.tsx';
import {
  firstProblem,
  formatSynonymLines,
  lineProblems,
  parseSynonymLines,
  serverProblems,
  type ProblemsByLanguage,
} from './synonym-lines.ts';

type PerLanguage<T> = Record<Language, T>;

const perLanguage = <T>(value: (lang: Language) => T): PerLanguage<T> =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, value(lang)])) as PerLanguage<T>;

const textsOf = (sets: SynonymSets) => perLanguage((lang) => formatSynonymLines(sets[lang] ?? []));

/**
 * The synonym sets as typed, per language, against the saved ones, and saving them all at once: lines at fault,
 * found here or by the server, are marked and the first one is shown.
 */
export function useSynonymsForm(initial: SynonymsResponse, startWith: Language) {
  const [saved, setSaved] = useState(initial);
  const savedTexts = useMemo(() => textsOf(saved.sets), [saved]);
  const [texts, setTexts] = useState(savedTexts);
  const [selected, setSelected] = useState<Language>(startWith);
  const [problems, setProblems] = useState<ProblemsByLanguage>({});
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const written = useMemo(() => perLanguage((lang) => parseSynonymLines(texts[lang])), [texts]);
  const changed = perLanguage(
    (lang) => formatSynonymLines(written[lang].sets) !== formatSynonymLines(saved.sets[lang] ?? []),
  );
  const dirty = LANGUAGES.some((lang) => changed[lang]);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const refuse = (found: ProblemsByLanguage, other: string[] = []) => {
    setProblems(found);
    const first = firstProblem(found);
    if (first) {
      setSelected(first.lang);
      setFocus({ ...first });
    }
    setMessage(
      [first ? 'Nothing was saved: check the lines marked below.' : 'Nothing was saved.', ...other].join(' '),
    );
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus('');
    setMessage(null);
    const local: ProblemsByLanguage = {};
    for (const lang of LANGUAGES) {
      const found = lineProblems(written[lang]);
      if (found.length) local[lang] = found;
    }
    if (firstProblem(local)) return refuse(local);
    setBusy(true);
    try {
      const next = await adminCall('updateSynonyms', {
        body: { sets: perLanguage((lang) => written[lang].sets) },
      });
      // The server's tidy form (spaces, repeats) replaces what was typed, so it shows what search uses.
      dirtyRef.current = false;
      setSaved(next);
      setTexts(textsOf(next.sets));
      setProblems({});
      setStatus('Saved: search uses these sets now.');
    } catch (error) {
      const fields = fieldErrorsOf(error);
      const { byLanguage, other } = serverProblems(fields, written);
      if (firstProblem(byLanguage)) refuse(byLanguage, other);
      else {
        setProblems({});
        setMessage(messageOf(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return {
    saved,
    texts,
    setTexts,
    selected,
    setSelected,
    problems,
    focus,
    message,
    status,
    busy,
    written,
    changed,
    dirty,
    dirtyRef,
    handleSubmit,
  };
}
