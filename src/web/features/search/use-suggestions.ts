import { useEffect, useState } from 'react';
import type { Suggestion } from '../../../shared/api/search.ts';
import { SEARCH_DEBOUNCE_MS, SUGGESTIONS_LIMIT, type Language } from '../../../shared/constants.ts';
import { apiFrom } from '../../api/api-context.ts';
import { useDebouncedValue } from '../../lib/debounce.ts';

export type Status = 'idle' | 'loading' | 'done' | 'error';

/**
 * The articles suggested for the text once typing pauses, while the list is open, and how asking for them went; a new
 * answer unsets the active option.
 */
export function useSuggestions(
  text: string,
  open: boolean,
  pageLang: Language | null,
  setActive: (index: number) => void,
) {
  const [items, setItems] = useState<Suggestion[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  const settled = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    const query = settled.trim();
    if (!query || !open) {
      setItems([]);
      setStatus('idle');
      return;
    }
    let cancelled = false;
    setStatus('loading');
    apiFrom(undefined)
      .in(pageLang)
      .suggestions(query, SUGGESTIONS_LIMIT)
      .then((result) => {
        if (cancelled) return;
        setItems(result.items);
        setActive(-1);
        setStatus('done');
      })
      .catch(() => !cancelled && setStatus('error'));
    return () => {
      cancelled = true;
    };
  }, [settled, open, pageLang]);

  return [items, status] as const;
}
