import { useCallback, useEffect, useRef, useState } from 'react';
import type { SearchEvent, Suggestion } from '../../../shared/api/search.ts';
import { OPENED_SUGGESTIONS_MAX, SEARCH_TEXT_MAX } from '../../../shared/constants.ts';
import { href } from '../../../shared/paths.ts';
import { apiFrom } from '../../api/api-context.ts';
import { call } from '../../api/call.ts';
import { shownLang, useI18n } from '../../i18n/i18n.tsx';
import { useDebouncedValue } from '../../lib/debounce.ts';

/** Articles offered under a request's message, at most. */
export const REQUEST_SUGGESTIONS = 5;
/** The pause in typing before articles are looked for. */
export const REQUEST_SUGGESTIONS_DEBOUNCE_MS = 350;
/** Words of three letters or more a message needs before anything is looked for: fewer say too little. */
const MIN_WORDS = 3;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * What a request's message is searched by: its leading words, within the search's limit, once it has MIN_WORDS
 * words of three letters or more; '' before that.
 */
export function suggestionQuery(message: string): string {
  const words = message.match(WORD) ?? [];
  if (words.filter((word) => [...word].length >= 3).length < MIN_WORDS) return '';
  let query = '';
  for (const word of words) {
    const next = query ? `${query} ${word}` : word;
    if (next.length > SEARCH_TEXT_MAX) break;
    query = next;
  }
  return query;
}

function report(event: Extract<SearchEvent, { type: 'suggestion_open' | 'request_sent' }>) {
  try {
    void call('recordSearchEvent', { body: event, keepalive: true }).catch(() => {});
  } catch {
    // Counting is best effort: never in the way of the request.
  }
}

/**
 * The suggested articles a visitor opened while writing one request. Each is counted once when opened; when the
 * request is then sent, the server hears which, so it counts the requests the articles did not avoid. Nothing else
 * leaves the browser: no text, no name, no address.
 */
export function useOpenedSuggestions() {
  const opened = useRef(new Set<number>());
  const onOpen = useCallback((id: number) => {
    if (opened.current.has(id) || opened.current.size >= OPENED_SUGGESTIONS_MAX) return;
    opened.current.add(id);
    report({ type: 'suggestion_open', id });
  }, []);
  const onSent = useCallback(() => {
    if (opened.current.size > 0) report({ type: 'request_sent', opened: [...opened.current] });
    opened.current = new Set();
  }, []);
  return { onOpen, onSent };
}

/**
 * Up to five articles that may answer the request being written, looked for with the site's own suggestions as the
 * visitor pauses typing, listed under the message as links that open in a new tab (so the request stays as typed).
 * The count is announced politely; focus stays where the visitor types.
 */
export function RequestSuggestions({
  id,
  message,
  excludeId,
  onOpen,
  headingLevel = 3,
}: {
  /**
   * The list's heading's id, unique on the page: given, not `useId`'s, which differs between the server's React and
   * the browser's Preact.
   */
  id: string;
  message: string;
  /** The article the form is on: it is not suggested to its own reader. */
  excludeId?: number;
  onOpen: (id: number) => void;
  headingLevel?: 2 | 3;
}) {
  const { t, lang, pageLang, localHref } = useI18n();
  const headingId = `${id}-title`;
  const query = useDebouncedValue(suggestionQuery(message), REQUEST_SUGGESTIONS_DEBOUNCE_MS);
  const [items, setItems] = useState<Suggestion[]>([]);

  useEffect(() => {
    if (!query) {
      setItems([]);
      return;
    }
    let cancelled = false;
    apiFrom(undefined)
      .in(pageLang)
      .suggestions(query, REQUEST_SUGGESTIONS + 1)
      .then((result) => {
        if (cancelled) return;
        setItems(result.items.filter((item) => item.id !== excludeId).slice(0, REQUEST_SUGGESTIONS));
      })
      .catch(() => !cancelled && setItems([]));
    return () => {
      cancelled = true;
    };
  }, [query, excludeId, pageLang]);

  const Heading = `h${headingLevel}` as const;
  return (
    <div className="request-suggestions-region">
      <p className="visually-hidden" role="status">
        {items.length > 0 ? t('requestSuggestionsFound', { count: items.length }) : ''}
      </p>
      {items.length > 0 && (
        <div className="request-suggestions">
          <Heading id={headingId} className="request-suggestions-title">
            {t('requestSuggestionsTitle')}
          </Heading>
          <ul aria-labelledby={headingId}>
            {items.map((item) => (
              <li key={item.id} lang={shownLang(item.lang, lang)}>
                <a
                  href={localHref(href.instruction(item.id))}
                  target="_blank"
                  rel="noopener"
                  onClick={() => onOpen(item.id)}
                  onAuxClick={(event) => event.button === 1 && onOpen(item.id)}
                >
                  {item.title}
                  <span className="visually-hidden"> ({t('opensInNewTab')})</span>
                </a>
              </li>
            ))}
          </ul>
          <p className="field-hint">{t('requestSuggestionsHint')}</p>
        </div>
      )}
    </div>
  );
}
