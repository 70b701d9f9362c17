import type { SearchEvent } from '../../../shared/api/search.ts';
import { apiPaths } from '../../../shared/paths.ts';

/** Tells the server what was searched and opened, for the team's search report; never in the way of the visitor. */
export function reportSearch(event: SearchEvent): void {
  if (!event.query.trim()) return;
  try {
    void fetch(apiPaths.searchEvents, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...event, query: event.query.slice(0, 200) }),
      keepalive: true,
    }).catch(() => {});
  } catch {
    // Reporting is best effort.
  }
}
