import { usePortalTexts, type PortalKey } from './portal-texts.ts';
import type { PortalTicketSummary } from '../../shared/api/portal.ts';

/** A request's dates, in the visitor's language: day and time. */
export function useDate() {
  const { lang } = usePortalTexts();
  return (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A request's status, in words, coloured by its class. */
export function StatusBadge({ status }: { status: PortalTicketSummary['status'] }) {
  const { p } = usePortalTexts();
  return <span className={`status-badge status-${status}`}>{p(`status_${status}` as PortalKey)}</span>;
}
