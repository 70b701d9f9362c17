import type { AvoidedRequestsRow } from '../../../../shared/api/search.ts';

// Dates in the admin's own locale (the browser's); weeks are UTC Mondays, so they are drawn in UTC.
export const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const weekDays = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const count = new Intl.NumberFormat();

export function weekRange(row: AvoidedRequestsRow): string {
  const start = new Date(`${row.week_start}T00:00:00Z`);
  const end = new Date(start.getTime() + 6 * 86_400_000);
  return weekDays.formatRange(start, end);
}
