import type { TicketView } from '../../../shared/api/tickets.ts';
import type { TicketStatus } from '../../../shared/constants.ts';

export const STATUS_NAMES: Record<TicketStatus, string> = {
  new: 'New',
  open: 'Open',
  waiting: 'Waiting for the customer',
  solved: 'Solved',
  closed: 'Closed',
};

export const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** Where a request went, in a few words: the team hears of it only by these. */
export function deliveryText(ticket: TicketView): string {
  const own = ticket.deliveries.filter((d) => d.message_id === null);
  if (own.length === 0) return 'Kept here only';
  return own
    .map((d) => {
      const target =
        d.target === 'webhook' ? 'Webhook' : d.target === 'requester' ? 'Receipt to the requester' : 'Email';
      if (d.status === 'delivered') return `${target} sent`;
      if (d.status === 'failed') return `${target} failed`;
      return d.attempts > 0 ? `${target} retrying` : `${target} waiting`;
    })
    .join(', ');
}
