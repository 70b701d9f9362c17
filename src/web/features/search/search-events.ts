import type { SearchEvent } from '../../../shared/api/search.ts';
import { call } from '../../api/call.ts';
import { SEARCH_TEXT_MAX } from '../../../shared/constants.ts';

/** Tells the server what was searched and opened, for the team's search report; never in the way of the visitor. */
export function reportSearch(event: Extract<SearchEvent, { query: string }>): void {
  if (!event.query.trim()) return;
  try {
    void call('recordSearchEvent', {
      body: { ...event, query: event.query.slice(0, SEARCH_TEXT_MAX) },
      keepalive: true,
    }).catch(() => {});
  } catch {
    // Reporting is best effort.
  }
}
