import { useEffect, useId, useRef } from 'react';
import type { Language } from '../../../../shared/constants.ts';
import { LANGUAGE_NAMES } from '../../lib/languages.ts';
import type { LineProblem } from './synonym-lines.ts';

const HINT =
  'One set per line: words or phrases that mean the same, separated by commas. Search finds each for the others, at once, with nothing to index again.';

export /** Where focus goes after a refusal; a new object each time, so the same line is found again. */
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

export /** One language's sets: the textarea, its line numbers (the ones to fix marked) and what is wrong on them. */
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
