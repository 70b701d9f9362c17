import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { SynonymSets, SynonymsResponse } from '../../../../shared/api/synonyms.ts';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { adminCall } from '../../api/admin-api.ts';
import { FormError } from '../../components/field.tsx';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import { fieldErrorsOf, messageOf } from '../../lib/errors.ts';
import { ENGLISH_NAMES, LANGUAGE_NAMES, NATIVE_NAMES } from '../../lib/languages.ts';
import {
  firstProblem,
  formatSynonymLines,
  lineProblems,
  parseSynonymLines,
  serverProblems,
  type LineProblem,
  type ProblemsByLanguage,
} from './synonym-lines.ts';

type PerLanguage<T> = Record<Language, T>;

const perLanguage = <T,>(value: (lang: Language) => T): PerLanguage<T> =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, value(lang)])) as PerLanguage<T>;

const textsOf = (sets: SynonymSets) => perLanguage((lang) => formatSynonymLines(sets[lang] ?? []));

const HINT =
  'One set per line: words or phrases that mean the same, separated by commas. Search finds each for the others, at once, with nothing to index again.';

/** Where focus goes after a refusal; a new object each time, so the same line is found again. */
interface FocusRequest {
  lang: Language;
  line: number;
}

/** The characters of a line (counted from 1) in a textarea's value. */
function lineRange(value: string, line: number): [number, number] {
  const lines = value.split('\n');
  const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  return [start, start + (lines[line - 1]?.length ?? 0)];
}

/** One language's sets: the textarea, its line numbers (the ones to fix marked) and what is wrong on them. */
function LanguagePanel({
  lang,
  selected,
  text,
  problems,
  focus,
  onChange,
}: {
  lang: Language;
  selected: boolean;
  text: string;
  problems: LineProblem[];
  focus: FocusRequest | null;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const gutterRef = useRef<HTMLDivElement>(null);
  const lineCount = text.split('\n').length;
  const badLines = new Set(problems.map((problem) => problem.line));
  const describedBy = [`${id}-hint`, problems.length ? `${id}-problems` : ''].filter(Boolean).join(' ');

  // The line at fault is selected and scrolled to, so the person sees which one the message means.
  useEffect(() => {
    const area = areaRef.current;
    if (!focus || focus.lang !== lang || !area) return;
    area.focus();
    area.setSelectionRange(...lineRange(area.value, focus.line));
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 24;
    area.scrollTop = Math.max(0, (focus.line - 3) * lineHeight);
  }, [focus, lang]);

  return (
    <div
      role="tabpanel"
      id={`synonyms-panel-${lang}`}
      aria-labelledby={`synonyms-tab-${lang}`}
      hidden={!selected}
      className="synonyms-panel"
    >
      <label htmlFor={id} className="field-label">
        Synonym sets in {LANGUAGE_NAMES[lang]}
      </label>
      <p className="field-hint" id={`${id}-hint`}>
        {HINT}
      </p>
      <div className="synonym-lines">
        <div className="synonym-gutter" aria-hidden="true" ref={gutterRef}>
          {Array.from({ length: lineCount }, (_, index) => (
            <span key={index} className={badLines.has(index + 1) ? 'synonym-gutter-bad' : undefined}>
              {index + 1}
            </span>
          ))}
        </div>
        <textarea
          ref={areaRef}
          id={id}
          lang={lang}
          rows={14}
          wrap="off"
          value={text}
          aria-invalid={problems.length ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          onScroll={(event) => {
            if (gutterRef.current) gutterRef.current.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      {problems.length > 0 && (
        <ul className="synonym-problems" id={`${id}-problems`}>
          {problems.map((problem, index) => (
            <li key={index}>
              <strong>Line {problem.line}:</strong> {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Tabs in the ARIA pattern: the arrow keys, Home and End move between them, Tab goes on into the panel. */
function handleTabKey(event: KeyboardEvent, current: Language, select: (lang: Language) => void) {
  const index = LANGUAGES.indexOf(current);
  const next =
    event.key === 'ArrowRight'
      ? LANGUAGES[(index + 1) % LANGUAGES.length]
      : event.key === 'ArrowLeft'
        ? LANGUAGES[(index - 1 + LANGUAGES.length) % LANGUAGES.length]
        : event.key === 'Home'
          ? LANGUAGES[0]
          : event.key === 'End'
            ? LANGUAGES[LANGUAGES.length - 1]
            : undefined;
  if (!next) return;
  event.preventDefault();
  select(next);
  document.getElementById(`synonyms-tab-${next}`)?.focus();
}

/**
 * The team's synonym sets, a tab per content language, all saved at once. Each language keeps its text while
 * another is shown, and a tab says when its language has changes not saved yet.
 */
export function SynonymsEditor({ initial, startWith }: { initial: SynonymsResponse; startWith: Language }) {
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
  const tabsRef = useRef<HTMLDivElement>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  // On a phone the tabs are a strip that scrolls sideways: the chosen one is brought into it, without the page moving.
  useEffect(() => {
    const strip = tabsRef.current;
    const tab = document.getElementById(`synonyms-tab-${selected}`);
    if (!strip || !tab) return;
    if (tab.offsetLeft < strip.scrollLeft) strip.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > strip.scrollLeft + strip.clientWidth)
      strip.scrollLeft = tab.offsetLeft + tab.offsetWidth - strip.clientWidth;
  }, [selected]);

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

  return (
    <form className="synonyms-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <LeaveGuard dirty={dirty} dirtyRef={dirtyRef}>
        <p>The synonym sets have changes that are not saved. Leave, and they are lost.</p>
      </LeaveGuard>
      {saved.defaults && (
        <p className="banner banner-info">
          These are Signpost’s default sets, everyday help-centre words in each language. Edit or remove any:
          once you save, search uses your sets instead.
        </p>
      )}
      <FormError message={message} />
      <div role="tablist" aria-label="Language" className="language-tabs" ref={tabsRef}>
        {LANGUAGES.map((lang) => {
          const count = written[lang].sets.length;
          const toFix = problems[lang]?.length ?? 0;
          return (
            <button
              key={lang}
              type="button"
              role="tab"
              id={`synonyms-tab-${lang}`}
              aria-selected={lang === selected}
              aria-controls={`synonyms-panel-${lang}`}
              tabIndex={lang === selected ? 0 : -1}
              onClick={() => setSelected(lang)}
              onKeyDown={(event) => handleTabKey(event, selected, setSelected)}
            >
              <span>
                <span lang={lang}>{NATIVE_NAMES[lang]}</span>
                {ENGLISH_NAMES[lang] && <span className="tab-english"> ({ENGLISH_NAMES[lang]})</span>}
              </span>
              <span className="tab-count">
                {count}
                <span className="visually-hidden">{count === 1 ? ' set' : ' sets'}</span>
              </span>
              {changed[lang] && <span className="badge badge-unsaved">Unsaved</span>}
              {toFix > 0 && <span className="badge badge-problem">{toFix} to fix</span>}
            </button>
          );
        })}
      </div>
      {LANGUAGES.map((lang) => (
        <LanguagePanel
          key={lang}
          lang={lang}
          selected={lang === selected}
          text={texts[lang]}
          problems={problems[lang] ?? []}
          focus={focus}
          onChange={(text) => setTexts((current) => ({ ...current, [lang]: text }))}
        />
      ))}
      <div className="editor-actions">
        <button type="submit" className="button" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save synonyms'}
        </button>
        <span role="status" className="editor-status">
          {status}
        </span>
      </div>
    </form>
  );
}
