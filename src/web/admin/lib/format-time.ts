/** A moment as the admin app writes it: "3 Mar 2025, 14:05". */
export const formatTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
