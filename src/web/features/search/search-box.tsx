import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { href, isHomePath } from '../../../shared/paths.ts';
import { useLocation, useNavigate } from 'react-router';
import type { Suggestion } from '../../../shared/api/search.ts';
import { SEARCH_TEXT_MAX } from '../../../shared/constants.ts';
import { shownLang, useI18n, type Translate } from '../../i18n/i18n.tsx';
import { readItem, storageKeys, writeItem } from '../../lib/storage.ts';
import { reportSearch } from './search-events.ts';
import { useSuggestions, type Status } from './use-suggestions.ts';

/**
 * Ids of our own, the same from either renderer (the server's React and the browser's Preact give different `useId`s):
 * a page has one search box, in its header.
 */
const LIST_ID = 'site-search';
const HINT_ID = 'site-search-hint';

/**
 * The search field: an ARIA 1.2 combobox. Typing saves the query and, after a pause, lists matching articles;
 * arrows move through them, Enter opens the chosen one or the search page, Escape or a click elsewhere closes.
 */
export function SearchBox({ initialQuery }: { initialQuery: string }) {
  const { t, lang } = useI18n();
  const {
    wrapper,
    text,
    expanded,
    setOpen,
    active,
    setActive,
    prompt,
    items,
    status,
    change,
    submit,
    choose,
    clear,
    onKeyDown,
  } = useSearchBox(initialQuery);

  return (
    <div className="search-box" ref={wrapper}>
      <form
        role="search"
        action="/knowledge/search"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="visually-hidden" htmlFor={`${LIST_ID}-input`}>
          {t('searchLabel')}
        </label>
        <input
          id={`${LIST_ID}-input`}
          className="search-input"
          type="search"
          name="query"
          role="combobox"
          autoComplete="off"
          maxLength={SEARCH_TEXT_MAX}
          placeholder={t('searchPlaceholder')}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={LIST_ID}
          aria-describedby={prompt ? HINT_ID : undefined}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          value={text}
          onChange={(event) => change(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => text.trim() && setOpen(true)}
        />
        {text && (
          <button type="button" className="search-clear" onClick={clear} aria-label={t('clearSearch')}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </form>
      {prompt && (
        <p id={HINT_ID} className="search-prompt" role="alert">
          {t('enterRequest')}
        </p>
      )}
      <div className="visually-hidden" aria-live="polite">
        {expanded ? announcement(t, status, items.length) : ''}
      </div>
      <div className="search-dropdown" hidden={!expanded}>
        <ul id={LIST_ID} role="listbox" aria-label={t('searchLabel')}>
          {items.map((item, index) => (
            <li
              key={item.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              lang={shownLang(item.lang, lang)}
              className={index === active ? 'suggestion active' : 'suggestion'}
              onMouseDown={keepFocus}
              onClick={() => choose(item)}
              onMouseEnter={() => setActive(index)}
            >
              {item.title}
            </li>
          ))}
        </ul>
        {status === 'loading' && <p className="search-status">{t('searching')}</p>}
        {status === 'done' && items.length === 0 && (
          <div className="search-status">
            <p className="search-status-title">{t('nothingFound')}</p>
            <p>{t('noMatches')}</p>
          </div>
        )}
        {status === 'error' && <p className="search-status error-text">{t('errorOccurred')}</p>}
        {status === 'done' && items.length > 0 && (
          <button type="button" className="search-show-all" onMouseDown={keepFocus} onClick={submit}>
            {t('showAll')}
          </button>
        )}
      </div>
    </div>
  );
}

/** The search box's state and what its keys, clicks and page changes do to it. */
function useSearchBox(initialQuery: string) {
  const { pageLang, localHref } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const [text, setText] = useState(initialQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [prompt, setPrompt] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const [items, status] = useSuggestions(text, open, pageLang, setActive);

  // Visiting / clears the query; visiting /search shows the one searched for (or the stored one).
  useEffect(() => {
    if (isHomePath(location.pathname)) {
      setText('');
      writeItem(storageKeys.query, null);
    } else if (location.pathname === href.search()) {
      const fromUrl = new URLSearchParams(location.search).get('query');
      setText(fromUrl ?? readItem(storageKeys.query) ?? '');
    }
    setOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const change = (value: string) => {
    setText(value);
    setPrompt(false);
    writeItem(storageKeys.query, value || null);
    setOpen(value.trim().length > 0);
  };

  const submit = () => {
    const query = text.trim();
    if (!query) {
      setPrompt(true);
      return;
    }
    setOpen(false);
    navigate(localHref(href.search(query)));
  };

  const choose = (item: Suggestion) => {
    setOpen(false);
    reportSearch({ type: 'search', query: text, found: items.length });
    reportSearch({ type: 'open', query: text, id: item.id });
    navigate(localHref(href.instruction(item.id)));
  };

  const clear = () => {
    change('');
    navigate(localHref(href.home()));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && items.length) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % items.length);
    } else if (event.key === 'ArrowUp' && items.length) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? items.length - 1 : index - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = open ? items[active] : undefined;
      if (chosen) choose(chosen);
      else submit();
    } else if (event.key === 'Escape') {
      // Closes the suggestions and keeps the query: Chromium would empty a search field on Escape by itself.
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const expanded = open && text.trim().length > 0;
  return {
    wrapper,
    text,
    expanded,
    setOpen,
    active,
    setActive,
    prompt,
    items,
    status,
    change,
    submit,
    choose,
    clear,
    onKeyDown,
  };
}

const optionId = (index: number) => `${LIST_ID}-option-${index}`;

/** Keeps the focus in the field when the list is clicked. */
const keepFocus = (event: { preventDefault: () => void }) => event.preventDefault();

/** What a screen reader hears of the list as it changes. */
function announcement(t: Translate, status: Status, found: number) {
  return status === 'loading'
    ? t('searching')
    : status === 'done'
      ? found
        ? t('suggestions', { count: found })
        : t('nothingFound')
      : status === 'error'
        ? t('errorOccurred')
        : '';
}
