import { useEffect, useRef, type KeyboardEvent } from 'react';
import { LANGUAGES, type Language } from '../../../../shared/constants.ts';
import { ENGLISH_NAMES, NATIVE_NAMES } from '../../lib/languages.ts';
import type { ProblemsByLanguage } from './synonym-lines.ts';

/** Where each key moves among the tabs, from the index of the current one. */
const TAB_MOVES = new Map<string, (index: number) => number>([
  ['ArrowRight', (index) => (index + 1) % LANGUAGES.length],
  ['ArrowLeft', (index) => (index - 1 + LANGUAGES.length) % LANGUAGES.length],
  ['Home', () => 0],
  ['End', () => LANGUAGES.length - 1],
]);

/** Tabs in the ARIA pattern: the arrow keys, Home and End move between them, Tab goes on into the panel. */
function handleTabKey(event: KeyboardEvent, current: Language, select: (lang: Language) => void) {
  const move = TAB_MOVES.get(event.key);
  const next = move ? LANGUAGES[move(LANGUAGES.indexOf(current))] : undefined;
  if (!next) return;
  event.preventDefault();
  select(next);
  document.getElementById(`synonyms-tab-${next}`)?.focus();
}

/** A tab per language, with its number of sets and whether it has unsaved changes or lines to fix. */
export function LanguageTabs({
  selected,
  setSelected,
  written,
  changed,
  problems,
}: {
  selected: Language;
  setSelected: (lang: Language) => void;
  written: Record<Language, { sets: unknown[] }>;
  changed: Record<Language, boolean>;
  problems: ProblemsByLanguage;
}) {
  const tabsRef = useRef<HTMLDivElement>(null);
  // On a phone the tabs are a strip that scrolls sideways: the chosen one is brought into it, without the page moving.
  useEffect(() => {
    const strip = tabsRef.current;
    const tab = document.getElementById(`synonyms-tab-${selected}`);
    if (!strip || !tab) return;
    if (tab.offsetLeft < strip.scrollLeft) strip.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > strip.scrollLeft + strip.clientWidth)
      strip.scrollLeft = tab.offsetLeft + tab.offsetWidth - strip.clientWidth;
  }, [selected]);

  return (
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
  );
}
